import Foundation
import Testing
import WebImage
import WebImageTestOrigin

@_spi(Internals) @testable import WebImageServer

/// `/info`'s `exif`, `iptc` (with Photoshop's resolution) and `xmp` fields, in imgproxy Pro's shapes.
@Suite("Service info: EXIF, IPTC and XMP")
struct InfoMetadataTests {
    static func info(_ options: String, _ fixture: String) async throws -> [String: Any] {
        try await withOrigin { origin in
            try await withImageService(InfoEndpointTests.configuration()) { service in
                try InfoEndpointTests.json(
                    await InfoEndpointTests.info(service, options, origin.url("/fixtures/\(fixture)").absoluteString))
            }
        }
    }

    @Test func aCamerasJPEGGivesItsEXIFIPTCAndXMPByDefault() async throws {
        let json = try await Self.info("", "metadata/camera.jpg")
        let exif = try #require(json["exif"] as? [String: Any])
        #expect(exif["Model"] as? String == "NIKON D810")
        #expect(exif["Date and Time (Original)"] as? String == "2016:09:11 18:44:50")
        #expect(exif["Aperture"] as? String == "8.00 EV (f/16.0)")
        let iptc = try #require(json["iptc"] as? [String: Any])
        #expect(iptc["Caption"] as? String == "Spider-Man swings on the web")
        #expect(iptc["Copyright Notice"] as? String == "Daily Bugle")
        #expect((iptc["Keywords"] as? [String])?.isEmpty == false)
        let photoshop = try #require(json["photoshop"] as? [String: [String: Any]])
        #expect(photoshop["resolution"]?["XResolution"] as? Int == 240)
        #expect(photoshop["resolution"]?["XResolutionUnit"] as? String == "inches")
        let xmp = try #require(json["xmp"] as? [String: [String: Any]])
        #expect(xmp["dc"]?["creator"] as? [String] == ["Peter B. Parker"])
        #expect(xmp["dc"]?["subject"] as? [String] == ["spider-man", "menace"])
        #expect(xmp["dc"]?["format"] as? String == "image/jpeg")
    }

    @Test func canonicalNamesAreEXIFsOwn() async throws {
        let json = try await Self.info("exif:1:1/iptc:0/xmp:0", "metadata/camera.jpg")
        let exif = try #require(json["exif"] as? [String: Any])
        #expect(
            exif["DateTimeOriginal"] as? String == "2016:09:11 18:44:50" && exif["Model"] as? String == "NIKON D810")
        #expect(exif["Date and Time (Original)"] == nil && json["iptc"] == nil && json["xmp"] == nil)
    }

    @Test func pngAndWebPMetadataIsReadToo() async throws {
        for fixture in ["metadata/photo.png", "metadata/photo.webp"] {
            let json = try await Self.info("iptc:0", fixture)
            let exif = try #require(json["exif"] as? [String: Any], "\(fixture)")
            #expect(exif["Manufacturer"] as? String == "WebImageTests" || exif["Make"] as? String == "WebImageTests")
            let xmp = try #require(json["xmp"] as? [String: [String: Any]], "\(fixture)")
            #expect(xmp["dc"]?["creator"] != nil, "\(fixture)")
        }
    }

    @Test func anImageWithoutMetadataHasNoMetadataFields() async throws {
        let json = try await Self.info("", "png/gray8.png")
        #expect(json["exif"] == nil && json["iptc"] == nil && json["xmp"] == nil && json["photoshop"] == nil)
    }
}
