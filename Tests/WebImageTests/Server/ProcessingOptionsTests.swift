import Foundation
import Testing
import WebImage

@testable import WebImageServer

/// Every processing option under its long and short names, and its errors.
@Suite("Service URLs: processing options")
struct ProcessingOptionsTests {
    static func parse(_ segments: String...) throws -> ProcessingOptions {
        try ProcessingOptions(segments: segments)
    }

    static func failure(_ segments: String...) -> ServiceError? {
        do {
            _ = try ProcessingOptions(segments: segments)
            return nil
        } catch {
            return error
        }
    }

    @Test func resizeAndSizeSetTypeSidesEnlargeAndExtend() throws {
        let long = try Self.parse("resize:fill:300:200:1:1:so:5:6")
        #expect(long.resizingType == .fill)
        #expect(long.width == 300 && long.height == 200 && long.enlarge)
        #expect(long.extend == ProcessingOptions.Extend(gravity: .anchored(.south, x: 5, y: 6)))
        let short = try Self.parse("rs:fill-down::150", "s:40")
        #expect(short.resizingType == .fillDown && short.width == 40 && short.height == 150 && !short.enlarge)
        #expect(try Self.parse("rt:auto", "w:10", "h:20").resizingType == .auto)
        #expect(try Self.parse("resizing_type:force", "width:1", "height:2").width == 1)
    }

    @Test func everyOtherOptionParsesUnderBothNames() throws {
        let options = try Self.parse(
            "dpr:2.5", "el:t", "ex:1", "g:noea:10:0.25", "c:0.5:100:fp:0.2:0.8", "q:75", "f:webp", "bg:ff0080",
            "bl:3", "sh:0.5", "rot:-90", "ar:false", "sm:0", "scp:0", "mb:5000", "cb:v2", "exp:4102444800", "fn:photo",
            "att:1", "wirc:12", "witn:00ff0080")
        #expect(options.dpr == 2.5 && options.enlarge && options.extend == ProcessingOptions.Extend())
        #expect(options.gravity == .anchored(.northEast, x: 10, y: 0.25))
        #expect(options.crop == .init(width: 0.5, height: 100, gravity: .focusPoint(x: 0.2, y: 0.8)))
        #expect(options.quality == 75 && options.format == .webp)
        #expect(options.background == RGBA8(r: 255, g: 0, b: 128, a: 255))
        #expect(options.blur == 3 && options.sharpen == 0.5 && options.rotate == 270)
        #expect(!options.autoRotate && !options.stripMetadata && options.maxBytes == 5000)
        #expect(!options.stripColorProfile && options.canonicalString.contains("/scp:0"))
        #expect(options.cacheBuster == "v2" && options.expires == 4_102_444_800)
        #expect(options.filename == "photo" && options.returnAttachment)
        #expect(options.cornerRadius == 12 && options.tint == RGBA8(r: 0, g: 255, b: 0, a: 128))
        let long = try Self.parse(
            "enlarge:1", "extend:true", "gravity:sm", "crop:10", "quality:0", "format:png", "ext:jpg",
            "background:1:2:3", "blur:0", "sharpen:1", "rotate:450", "auto_rotate:1", "strip_metadata:TRUE",
            "strip_color_profile:1",
            "max_bytes:0", "cachebuster:a:b", "expires:0", "filename:cGhvdG8:1", "return_attachment:f",
            "wi_round_corner:0", "wi_tint:#112233")
        #expect(long.gravity == .smart && long.crop?.width == 10 && long.crop?.height == 0)
        #expect(long.quality == nil && long.format == .jpeg && long.maxBytes == nil)
        #expect(long.background == RGBA8(r: 1, g: 2, b: 3, a: 255) && long.rotate == 90)
        #expect(long.stripColorProfile && !long.canonicalString.contains("scp"))
        #expect(long.cacheBuster == "a:b" && long.filename == "photo" && !long.returnAttachment)
        #expect(long.tint == RGBA8(r: 0x11, g: 0x22, b: 0x33, a: 255))
    }

    @Test func defaultsAreImgproxys() throws {
        let options = try Self.parse()
        #expect(options.resizingType == .fit && options.width == 0 && options.height == 0)
        #expect(options.gravity == .center && options.dpr == 1 && !options.enlarge && options.extend == nil)
        #expect(options.autoRotate && options.stripMetadata && options.quality == nil && options.format == nil)
    }

    @Test(arguments: [
        ("unknown:1", "unknown processing option 'unknown'"),
        ("rs:stretch:1:1", "'rs'"), ("w:-1", "'w'"), ("w:1:2", "'w'"), ("h:x", "'h'"), ("dpr:0", "'dpr'"),
        ("el:maybe", "'el'"), ("g:up", "'g'"), ("g:sm:1", "'g'"), ("g:fp:2:0", "'g'"), ("g:fp:0.5", "'g'"),
        ("ex:1:sm", "'ex'"), ("c:-1", "'c'"), ("c:", "'c'"), ("q:101", "'q'"), ("f:pdf", "'f'"),
        ("f:nope", "'f'"), ("bg:12345", "'bg'"), ("bg:1:2", "'bg'"), ("bg:1:2:300", "'bg'"), ("bl:-1", "'bl'"),
        ("rot:45", "'rot'"), ("mb:-5", "'mb'"), ("exp:soon", "'exp'"), ("fn:%%%:1", "'fn'"), ("att:2", "'att'"),
        ("witn:red", "'witn'"), ("rs:fit:1:2:0:0:ce:0:0:9", "'rs'"),
    ])
    func badOptionsAreBadRequestsNamingTheOption(segment: String, mentions: String) {
        let error = Self.failure(segment)
        #expect(error?.status == 400, "\(segment)")
        #expect(error?.message.contains(mentions) == true, "\(segment): \(error?.message ?? "no error")")
    }

    @Test func theCanonicalStringIgnoresSpellingOrderAndResponseOnlyOptions() throws {
        let a = try Self.parse("rs:fill:300:200", "g:sm", "q:80", "fn:x", "att:1", "exp:99")
        let b = try Self.parse("quality:80", "gravity:sm", "resizing_type:fill", "width:300", "h:200")
        #expect(a.canonicalString == b.canonicalString)
        #expect(try Self.parse("rs:fill:300:200", "g:sm", "q:81").canonicalString != a.canonicalString)
        #expect(try Self.parse("rs:fill:300:200", "g:sm", "q:80", "cb:2").canonicalString != a.canonicalString)
        #expect(try Self.parse().canonicalString == "rt:fit")
    }
}
