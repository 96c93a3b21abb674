import Foundation
import Testing

@testable import WebImage

@Suite("Format detection from magic bytes")
struct FormatDetectionTests {
    static func bytes(_ values: [UInt8], _ ascii: String = "") -> Data {
        Data(values) + Data(ascii.utf8)
    }

    @Test(
        "Each format's signature is recognised",
        arguments: [
            (bytes([0xFF, 0xD8, 0xFF, 0xE0]), ImageFormat.jpeg),
            (bytes([0x89], "PNG\r\n\u{1A}\n"), .png),
            (bytes([], "GIF89a"), .gif),
            (bytes([0x49, 0x49, 0x2A, 0x00]), .tiff),
            (bytes([0x4D, 0x4D, 0x00, 0x2A]), .tiff),
            (bytes([], "BM6\0\0\0"), .bmp),
            (bytes([], "RIFF\u{10}\0\0\0WEBPVP8 "), .webp),
            (bytes([0, 0, 0, 0x18], "ftypheic\0\0\0\0"), .heic),
            (bytes([0, 0, 0, 0x18], "ftyphevx\0\0\0\0"), .heic),
            (bytes([0, 0, 0, 0x18], "ftypmif1\0\0\0\0"), .heif),
            (bytes([0, 0, 0, 0x18], "ftypmsf1\0\0\0\0"), .heif),
            (bytes([0, 0, 0, 0x18], "ftypheim\0\0\0\0"), .heic),
            (bytes([0, 0, 0, 0x18], "ftypheis\0\0\0\0"), .heic),
            // A plain-HEIF major brand keeps HEIF whatever HEVC brand follows, but an AV1 one is AVIF.
            (bytes([0, 0, 0, 0x18], "ftypmif1\0\0\0\0mif1heic"), .heif),
            (bytes([0, 0, 0, 0x18], "ftypmif1\0\0\0\0mif1avif"), .avif),
            (bytes([0, 0, 0, 0x18], "ftypmsf1\0\0\0\0avismsf1"), .avif),
            // Brands past the ftyp box's own size are not its brands.
            (bytes([0, 0, 0, 0x14], "ftypmif1\0\0\0\0mif1avif"), .heif),
            (bytes([0, 0, 0, 0x1C], "ftypavif\0\0\0\0"), .avif),
            (bytes([0, 0, 0, 0x1C], "ftypavis\0\0\0\0"), .avif),
            (bytes([], "%PDF-1.7\n"), .pdf),
            (bytes([], "<svg xmlns=\"http://www.w3.org/2000/svg\"></svg>"), .svg),
            (bytes([0xFF, 0x0A, 0xFA]), .jpegXL),
            (bytes([0, 0, 0, 0x0C, 0x4A, 0x58, 0x4C, 0x20, 0x0D, 0x0A, 0x87, 0x0A]), .jpegXL),
            // ICO: reserved 0, type 1, a count of at least 1.
            (bytes([0, 0, 1, 0, 1, 0]), .ico),
            (bytes([0, 0, 1, 0, 0, 1]), .ico),
        ])
    func recognisesSignature(data: Data, expected: ImageFormat) {
        #expect(ImageFormat(detecting: data) == expected)
    }

    @Test(
        "Unknown, empty and near-miss data are undefined",
        arguments: [
            Data(), Data([0x00]), Data("RIFF\0\0\0\0WAVE".utf8), Data("hello world".utf8),
            Data([0, 0, 0, 0x18] + Array("ftypmp42\0\0\0\0".utf8)), Data("<html></html>".utf8),
            Data("%PNG".utf8),
            // JPEG XL's container signature with 0x87 spelled in UTF-8 (C2 87), as it once was matched.
            Data([0, 0, 0, 0x0C] + Array("JXL \r\n\u{87}\n".utf8)),
            // An icon directory of no entries, a cursor (type 2), and one cut before its count.
            Data([0, 0, 1, 0, 0, 0]), Data([0, 0, 2, 0, 1, 0]), Data([0, 0, 1, 0, 1]),
        ])
    func rejectsUnknownData(data: Data) {
        #expect(ImageFormat(detecting: data) == .undefined)
    }

    @Test("SVG is recognised by its root element at the start, or by </svg> in the last 100 bytes")
    func svgNeedsItsRootFirstOrClosingTagNearTheEnd() {
        let padding = String(repeating: " ", count: 200)
        #expect(ImageFormat(detecting: Data("<svg></svg>\(padding)".utf8)) == .svg)
        #expect(ImageFormat(detecting: Data("<html>\(padding)</svg>".utf8)) == .svg)
        #expect(ImageFormat(detecting: Data("<html></svg>\(padding)".utf8)) == .undefined)
        #expect(ImageFormat(detecting: Data("\(padding)<html/>".utf8)) == .undefined)
    }

    @Test("Extensions, MIME types and type identifiers map to formats")
    func namesMapToFormats() {
        #expect(ImageFormat(fileExtension: "JPG") == .jpeg)
        #expect(ImageFormat(fileExtension: ".jpeg") == .jpeg)
        #expect(ImageFormat(fileExtension: "webp") == .webp)
        #expect(ImageFormat(fileExtension: "txt") == .undefined)
        #expect(ImageFormat(mimeType: "image/png; charset=binary") == .png)
        #expect(ImageFormat(mimeType: "image/jpg") == .jpeg)
        #expect(ImageFormat(mimeType: "image/vnd.microsoft.icon") == .ico)
        #expect(ImageFormat.ico.mimeType == "image/x-icon" && ImageFormat.ico.name == "ico")
        #expect(ImageFormat(mimeType: "text/html") == .undefined)
        #expect(ImageFormat(typeIdentifier: "com.compuserve.gif") == .gif)
        for format in ImageFormat.allCases where format != .undefined {
            #expect(ImageFormat(fileExtension: format.fileExtension!) == format)
            #expect(ImageFormat(mimeType: format.mimeType!) == format)
        }
    }

    @Test("Raw values match SDImageFormat")
    func rawValuesMatchSDWebImage() {
        #expect(ImageFormat.undefined.rawValue == -1)
        #expect(ImageFormat.jpeg.rawValue == 0)
        #expect(ImageFormat.webp.rawValue == 4)
        #expect(ImageFormat.bmp.rawValue == 9)
        #expect(ImageFormat.raw.rawValue == 10)
        #expect(ImageFormat.jpegXL.rawValue == 12 && ImageFormat.ico.rawValue == 13)
    }
}
