import Foundation
import Testing
import WebImage

@testable import WebImageServer

/// imgproxy Pro's colour and detail options in URLs: names, defaults, errors, canonical form.
@Suite("Service URLs: colour and detail options")
struct ColourFilterOptionsTests {
    static func parse(_ segments: String...) throws -> ProcessingOptions {
        try ProcessingOptions(segments: segments)
    }

    static func failure(_ segment: String) -> ServiceError? {
        do {
            _ = try ProcessingOptions(segments: [segment])
            return nil
        } catch {
            return error
        }
    }

    @Test func everyOptionParsesUnderItsLongAndShortName() throws {
        let short = try Self.parse(
            "ra:cubic", "a:10:1.5:0.5", "mc:0.5:f00", "dt:1:001122:ddeeff", "col:0.25:00f:t", "ush:always:2:12",
            "ba:3:0.1:0.2:0.3:0.4:0.5:0.5:0.5:0.5", "pbl:4:left:0.2:0.8", "gr:0.7:fff:45:0:0.5", "bga:0.5")
        let long = try Self.parse(
            "resizing_algorithm:cubic", "brightness:10", "contrast:1.5", "saturation:0.5", "monochrome:0.5:ff0000",
            "duotone:1:001122:ddeeff", "colorize:0.25:0000ff:true", "unsharp_masking:always:2:12",
            "blur_areas:3:0.1:0.2:0.3:0.4:0.5:0.5:0.5:0.5", "progressive_blur:4:90:0.2:0.8",
            "gradient:0.7:ffffff:45:0:0.5", "background_alpha:0.5")
        #expect(short == long)
        #expect(short.resizingAlgorithm == .cubic)
        #expect(short.brightness == 10 && short.contrast == 1.5 && short.saturation == 0.5)
        #expect(short.monochrome == .init(intensity: 0.5, color: RGBA8(r: 255, g: 0, b: 0)))
        #expect(
            short.duotone
                == .init(intensity: 1, dark: RGBA8(r: 0, g: 0x11, b: 0x22), light: RGBA8(r: 0xDD, g: 0xEE, b: 0xFF)))
        #expect(short.colorize == .init(opacity: 0.25, color: RGBA8(r: 0, g: 0, b: 255), keepsAlpha: true))
        #expect(short.unsharpMasking == .init(mode: .always, weight: 2, divider: 12))
        #expect(short.blurAreas?.sigma == 3 && short.blurAreas?.areas.count == 2)
        #expect(short.blurAreas?.areas.first == .init(left: 0.1, top: 0.2, width: 0.3, height: 0.4))
        #expect(short.progressiveBlur == .init(sigma: 4, ramp: .init(angle: 90, start: 0.2, stop: 0.8)))
        #expect(short.gradient == .init(opacity: 0.7, color: .white, ramp: .init(angle: 45, start: 0, stop: 0.5)))
        #expect(short.backgroundAlpha == 0.5)
    }

    @Test func defaultsAreImgproxysAndZeroTurnsAnOptionOff() throws {
        let options = try Self.parse()
        #expect(options.resizingAlgorithm == .lanczos3 && options.backgroundAlpha == 1)
        #expect(options.brightness == 0 && options.contrast == 1 && options.saturation == 1)
        #expect(options.monochrome == nil && options.duotone == nil && options.colorize == nil)
        #expect(options.blurAreas == nil && options.progressiveBlur == nil && options.gradient == nil)
        #expect(options.unsharpMasking == .init(mode: .none, weight: 1, divider: 24))
        let defaults = try Self.parse("mc:1", "dt:1", "col:1", "gr:1", "pbl:2")
        #expect(defaults.monochrome?.color == RGBA8(r: 0xB3, g: 0xB3, b: 0xB3))
        #expect(defaults.duotone == .init(intensity: 1, dark: .black, light: .white))
        #expect(defaults.colorize == .init(opacity: 1, color: .black, keepsAlpha: false))
        #expect(defaults.gradient?.ramp == .init(angle: 0, start: 0, stop: 1))
        #expect(defaults.progressiveBlur?.ramp == .init(angle: 0, start: 0, stop: 1))
        let off = try Self.parse(
            "mc:1", "dt:1", "col:1", "gr:1", "pbl:2", "ba:2:0:0:1:1", "mc:0", "dt:0", "col:0", "gr:0", "pbl:0",
            "ba:0:0:0:1:1")
        #expect(off == options)
    }

    @Test func emptyArgumentsKeepTheCurrentValuesAndDirectionsNormalise() throws {
        let options = try Self.parse("a:20:2:3", "a::0.5", "ush:always:3", "ush::4:")
        #expect(options.brightness == 20 && options.contrast == 0.5 && options.saturation == 3)
        #expect(options.unsharpMasking == .init(mode: .always, weight: 4, divider: 24))
        #expect(try Self.parse("gr:1:000:down").gradient?.ramp.angle == 0)
        #expect(try Self.parse("gr:1:000:up").gradient?.ramp.angle == 180)
        #expect(try Self.parse("gr:1:000:right").gradient?.ramp.angle == 270)
        #expect(try Self.parse("gr:1:000:-90").gradient?.ramp.angle == 270)
        #expect(try Self.parse("pbl:1:450").progressiveBlur?.ramp.angle == 90)
        #expect(try Self.parse("pbl:1:-720").progressiveBlur?.ramp.angle == 0)
    }

    @Test(arguments: [
        ("ra:bicubic", "'ra'"), ("ra:", "'ra'"), ("ra:linear:1", "'ra'"),
        ("a", "'a'"), ("a:1:2:3:4", "'a'"), ("a:1.5", "'a'"), ("br:256", "'br'"), ("br:-256", "'br'"),
        ("br:nan", "'br'"), ("co:-1", "'co'"), ("co:inf", "'co'"), ("sa:101", "'sa'"), ("sa:1e308", "'sa'"),
        ("co:1:2", "'co'"), ("mc", "'mc'"), ("mc:1.5", "'mc'"), ("mc:-0.1", "'mc'"), ("mc:1:red", "'mc'"),
        ("mc:1:ff000080", "'mc'"), ("mc:1:fff:x", "'mc'"), ("dt:nan", "'dt'"), ("dt:1:0:0:0", "'dt'"),
        ("dt:1:12345", "'dt'"), ("col:2", "'col'"), ("col:1:000:maybe", "'col'"), ("col:1:0:0:0", "'col'"),
        ("ush:sometimes", "'ush'"), ("ush:always:0", "'ush'"), ("ush:always:-1", "'ush'"),
        ("ush:always:1001", "'ush'"), ("ush:always:1:0", "'ush'"), ("ush:always:1:inf", "'ush'"),
        ("ush:a:1:1:1", "'ush'"), ("ba", "'ba'"), ("ba:1:0:0:1", "'ba'"), ("ba:-1:0:0:1:1", "'ba'"),
        ("ba:1001:0:0:1:1", "'ba'"), ("ba:1:0:0:1:1.5", "'ba'"), ("ba:1:nan:0:1:1", "'ba'"),
        ("pbl", "'pbl'"), ("pbl:1e308", "'pbl'"), ("pbl:1:sideways", "'pbl'"), ("pbl:1:inf", "'pbl'"),
        ("pbl:1:0:-0.1", "'pbl'"), ("pbl:1:0:0:2", "'pbl'"), ("pbl:1:0:0:1:0", "'pbl'"),
        ("gr:1.5", "'gr'"), ("gr:1:0000", "'gr'"), ("gr:1:000:nan", "'gr'"), ("gr:1:000:0:0:1:0", "'gr'"),
        ("bga:1.5", "'bga'"), ("bga:-0.5", "'bga'"), ("bga:", "'bga'"), ("bga:1:1", "'bga'"),
    ])
    func badValuesAreBadRequestsNamingTheOption(segment: String, mentions: String) {
        let error = Self.failure(segment)
        #expect(error?.status == 400, "\(segment)")
        #expect(error?.message.contains(mentions) == true, "\(segment): \(error?.message ?? "no error")")
    }

    @Test func tooManyBlurAreasAreABadRequest() throws {
        let area = ":0:0:0.5:0.5"
        let limit = ProcessingOptions.BlurAreas.maximumCount
        let most = try Self.parse("ba:1" + String(repeating: area, count: limit))
        #expect(most.blurAreas?.areas.count == limit)
        #expect(throws: ServiceError.self) { try Self.parse("ba:1" + String(repeating: area, count: limit + 1)) }
    }

    @Test(arguments: [
        "ra:nearest", "ra:linear", "a:1", "br:-1", "co:1.01", "sa:0", "mc:0.5", "mc:1:ff0000", "dt:0.5",
        "dt:1:000:fff", "dt:1:111:fff", "col:0.5", "col:0.5:000:1", "ush:auto", "ush:always", "ush::2",
        "ba:1:0:0:1:1", "ba:2:0:0:1:1", "ba:1:0:0:1:0.5", "pbl:1", "pbl:1:up", "pbl:1:0:0.5", "gr:0.5",
        "gr:0.5:fff", "gr:0.5:000:45", "gr:0.5:000:0:0:0.9", "bga:0.5",
    ])
    func eachOptionChangesTheCanonicalFormAndParsesBackToItself(segment: String) throws {
        let base = try Self.parse("rs:fit:100:100", "bg:fff")
        let options = try Self.parse("rs:fit:100:100", "bg:fff", segment)
        #expect(options.canonicalString != base.canonicalString, "\(segment)")
        let reparsed = try ProcessingOptions(segments: options.canonicalString.split(separator: "/").map(String.init))
        #expect(reparsed == options, "\(options.canonicalString)")
        #expect(reparsed.canonicalString == options.canonicalString)
    }

    @Test func neutralValuesLeaveTheCanonicalFormAlone() throws {
        let base = try Self.parse().canonicalString
        for segment in [
            "ra:lanczos3", "a:0:1:1", "mc:0", "dt:0", "col:0", "ush:none", "ba:0:0:0:1:1", "pbl:0", "gr:0", "bga:1",
        ] {
            #expect(try Self.parse(segment).canonicalString == base, "\(segment)")
        }
    }
}
