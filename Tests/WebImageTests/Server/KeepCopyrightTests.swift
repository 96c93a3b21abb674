import Foundation
import Testing
import WebImageTestOrigin

@testable import WebImage
@_spi(Internals) @testable import WebImageServer

/// `keep_copyright`/`kcr` and `--keep-copyright`: stripped metadata keeps who made and owns the image.
@Suite("Service metadata: keep_copyright")
struct KeepCopyrightTests {
    /// The 800x600 photo with EXIF (a camera make, an artist, a copyright) and XMP (a title, a
    /// creator, rights).
    static func taggedPhoto() throws -> Data {
        let exif = CopyrightMetadataTests.tiff([
            (0x010F, 2, CopyrightMetadataTests.ascii("Camera maker")),
            (0x013B, 2, CopyrightMetadataTests.ascii("Ann Author")),
            (0x8298, 2, CopyrightMetadataTests.ascii("(c) 2026 Ann")),
        ])
        return JPEGMetadata.inserting(
            ImageMetadata(exif: exif, xmp: Data(CopyrightMetadataTests.richXMP.utf8)),
            into: try Fixtures.data("jpeg/photo_800x600.jpg"))
    }

    static func metadata(of data: Data) throws -> ImageMetadata {
        var read = ImageDecodeOptions()
        read.readMetadata = .all
        return try ImageCodersManager.shared.decode(data, options: read).metadata
    }

    @Test func strippingKeepsTheCopyrightByDefaultAndNothingWithKcr0() async throws {
        try await ImageServiceTests.withService(disk: false) { service, origin, _ in
            let tagged = try Self.taggedPhoto()
            origin.register(path: "/tagged.jpg", body: tagged, contentType: "image/jpeg")
            let source = origin.url("/tagged.jpg")
            // Nothing else to do, yet not passed through: the camera make and title must go.
            let kept = await service.respond(to: ServiceRequest(path: ImageServiceTests.path("", source)))
            #expect(kept.status == 200 && kept.body != tagged)
            let metadata = try Self.metadata(of: kept.body)
            let exif = try #require(metadata.exif)
            #expect(CopyrightMetadataTests.value(0x8298, in: exif) == "(c) 2026 Ann")
            #expect(CopyrightMetadataTests.value(0x013B, in: exif) == "Ann Author")
            #expect(CopyrightMetadataTests.value(0x010F, in: exif) == nil)
            let xmp = String(decoding: try #require(metadata.xmp), as: UTF8.self)
            #expect(xmp.contains("Ann Author</rdf:li>") && xmp.contains("(c) 2026 Ann &amp; Co"))
            #expect(!xmp.contains("Holiday") && !xmp.contains("secret place"))

            let none = await service.respond(to: ServiceRequest(path: ImageServiceTests.path("kcr:0", source)))
            let stripped = try Self.metadata(of: none.body)
            #expect(none.status == 200 && stripped.exif == nil && stripped.xmp == nil)
            let all = await service.respond(to: ServiceRequest(path: ImageServiceTests.path("sm:0/kcr:1", source)))
            #expect(all.body == tagged)
        }
    }

    @Test func theSettingGivesTheDefaultAndTheURLWins() async throws {
        let configure: (inout ServiceConfiguration) -> Void = { $0.keepsCopyright = false }
        try await ImageServiceTests.withService(disk: false, configure: configure) { service, origin, _ in
            origin.register(path: "/tagged.jpg", body: try Self.taggedPhoto(), contentType: "image/jpeg")
            let source = origin.url("/tagged.jpg")
            let plain = await service.respond(to: ServiceRequest(path: ImageServiceTests.path("w:100", source)))
            #expect(try Self.metadata(of: plain.body).exif == nil)
            let asked = await service.respond(to: ServiceRequest(path: ImageServiceTests.path("w:100/kcr:1", source)))
            #expect(try Self.metadata(of: asked.body).exif != nil)
        }
    }

    @Test func kcrEntersTheCanonicalStringOnlyWhenOff() throws {
        #expect(try ProcessingOptions(segments: ["kcr:1"]).canonicalString == "rt:fit")
        let off = try ProcessingOptions(segments: ["keep_copyright:false"])
        #expect(!off.keepCopyright && off.canonicalString == "rt:fit/kcr:0")
        var defaults = ProcessingOptions()
        defaults.keepCopyright = false
        #expect(try !ProcessingOptions(segments: [], defaults: defaults).keepCopyright)
        #expect(try ProcessingOptions(segments: ["kcr:1"], defaults: defaults).keepCopyright)
    }

    @Test func theSettingIsReadFromTheFlagAndBothVariables() throws {
        #expect(try ServeOptions(ServeSettings(flags: [:], environment: [:])).configuration.keepsCopyright)
        for environment in [["WEBIMAGE_KEEP_COPYRIGHT": "false"], ["IMGPROXY_KEEP_COPYRIGHT": "false"]] {
            let options = try ServeOptions(ServeSettings(flags: [:], environment: environment))
            #expect(!options.configuration.keepsCopyright && options.notices.isEmpty, "\(environment)")
        }
        let flag = try ServeOptions(
            ServeSettings(flags: ["keep-copyright": "true"], environment: ["IMGPROXY_KEEP_COPYRIGHT": "false"]))
        #expect(flag.configuration.keepsCopyright)
        #expect(throws: ServeSettingError.self) {
            try ServeOptions(ServeSettings(flags: ["keep-copyright": "maybe"], environment: [:]))
        }
    }
}
