import Foundation
import Testing

@testable import WebImage

/// The readers on files other writers made (Pillow, see `Tests/Fixtures/generators/metadata.py`
/// and `jpeg.py`).
@Suite("Metadata: fields of the committed fixtures")
struct MetadataFixtureTests {
    static func metadata(_ path: String) throws -> ImageMetadata {
        var options = ImageDecodeOptions()
        options.readMetadata = .all
        options.convertToSRGB = false
        return try ImageCodersManager.shared.decode(Fixtures.data(path), options: options).metadata
    }

    @Test("camera.jpg: Pillow's IFD0, Exif and GPS IFDs")
    func cameraEXIF() throws {
        let metadata = try Self.metadata("metadata/camera.jpg")
        let readable = metadata.exifFields()
        #expect(readable["Model"] == .text("NIKON D810"))
        #expect(readable["Manufacturer"] == .text("NIKON CORPORATION"))
        #expect(readable["Date and Time"] == .text("2016:09:11 22:15:03"))
        #expect(readable["Date and Time (Original)"] == .text("2016:09:11 18:44:50"))
        #expect(readable["Aperture"] == .text("8.00 EV (f/16.0)"))
        #expect(readable["Exposure Time"] == .text("1/250 sec."))
        #expect(readable["F-Number"] == .text("f/16.0"))
        #expect(readable["ISO Speed Ratings"] == .integer(200))
        #expect(readable["Flash"] == .text("Flash did not fire, compulsory flash mode"))
        #expect(readable["Focal Length"] == .text("50.0 mm"))
        #expect(readable["Color Space"] == .text("sRGB"))
        #expect(readable["Orientation"] == .text("Top-left"))
        #expect(readable["X-Resolution"] == .text("300/1"))
        #expect(readable["Resolution Unit"] == .text("Inch"))
        #expect(readable["North or South Latitude"] == .text("N"))
        // Pillow writes its fractions reduced: 1234/100 as 617/50, 1234/10 as 617/5.
        #expect(readable["Latitude"] == .list([.text("52/1"), .text("22/1"), .text("617/50")]))
        #expect(readable["Altitude"] == .text("617/5"))
        let canonical = metadata.exifFields(canonicalNames: true)
        #expect(canonical["DateTimeOriginal"] == .text("2016:09:11 18:44:50"))
        #expect(canonical["GPSLatitudeRef"] == .text("N"))
        #expect(canonical.count == readable.count)
    }

    @Test("camera.jpg: IPTC and resolution from its APP13, XMP from its APP1")
    func cameraIPTCAndXMP() throws {
        let iptc = IPTCMetadata(file: try Fixtures.data("metadata/camera.jpg"))
        #expect(iptc.fields["Name"] == .text("Spider-Man"))
        #expect(iptc.fields["Caption"] == .text("Spider-Man swings on the web"))
        #expect(iptc.fields["Copyright Notice"] == .text("Daily Bugle"))
        #expect(iptc.fields["Keywords"] == .list([.text("spider-man"), .text("menace"), .text("offender")]))
        #expect(iptc.photoshopResolution["XResolution"] == .integer(240))
        #expect(iptc.photoshopResolution["HeightUnit"] == .text("inches"))

        let xmp = try Self.metadata("metadata/camera.jpg").xmpProperties()
        #expect(xmp["dc"]?["creator"] == .list([.text("Peter B. Parker")]))
        #expect(xmp["dc"]?["subject"] == .list([.text("spider-man"), .text("menace")]))
        #expect(xmp["dc"]?["title"] == .text("Spider-Man & friends"))
        #expect(xmp["dc"]?["format"] == .text("image/jpeg"))
        #expect(xmp["aux"]?["SerialNumber"] == .text("12345678"))
        #expect(xmp["photoshop"]?["DateCreated"] == .text("2016-09-11T18:44:50.003"))
    }

    @Test("photo.jpg, .png and .webp: orientation and Make; their XMP's creator", arguments: ["jpg", "png", "webp"])
    func photo(ext: String) throws {
        let metadata = try Self.metadata("metadata/photo.\(ext)")
        #expect(
            metadata.exifFields(canonicalNames: true) == [
                "Orientation": .text("Right-top"), "Make": .text("WebImageTests"),
            ])
        #expect(metadata.xmpProperties() == ["dc": ["creator": .text("WebImageTests")]])
    }

    @Test("jpeg/orientation_N.jpg: each orientation by meaning", arguments: 1...8)
    func orientations(value: Int) throws {
        let names = [
            "Top-left", "Top-right", "Bottom-right", "Bottom-left", "Left-top", "Right-top", "Right-bottom",
            "Left-bottom",
        ]
        let fields = try Self.metadata("jpeg/orientation_\(value).jpg").exifFields()
        #expect(fields["Orientation"] == .text(names[value - 1]))
    }
}
