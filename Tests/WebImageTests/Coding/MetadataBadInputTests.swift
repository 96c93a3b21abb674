import CZlib
import Foundation
import Testing

@testable import WebImage

/// Broken, lying and hostile metadata blocks: the block is left out, the pixels still decode.
@Suite("Metadata: broken and hostile blocks")
struct MetadataBadInputTests {
    /// Keeps the profile as stored (converting to sRGB would drop it).
    static func decodeAll(_ data: Data) throws -> Image {
        var options = ImageDecodeOptions()
        options.readMetadata = .all
        options.convertToSRGB = false
        return try ImageCodersManager.shared.decode(data, options: options)
    }

    /// `jpeg` with `segment` (marker and payload) inserted after SOI.
    static func jpeg(_ jpeg: Data, inserting segments: [(UInt8, [UInt8])]) -> Data {
        var output = Data(jpeg.prefix(2))
        for (marker, payload) in segments {
            output += [0xFF, marker, UInt8((payload.count + 2) >> 8), UInt8((payload.count + 2) & 0xFF)] + payload
        }
        return output + jpeg.dropFirst(2)
    }

    static func iccSegment(_ sequence: UInt8, _ count: UInt8, _ piece: [UInt8]) -> (UInt8, [UInt8]) {
        (0xE2, Array("ICC_PROFILE\0".utf8) + [sequence, count] + piece)
    }

    static func plainJPEG() throws -> Data {
        try Fixtures.data("jpeg/baseline.jpg")
    }

    @Test func jpegProfileSegmentsThatDoNotAddUpAreLeftOut() throws {
        let cases: [[(UInt8, [UInt8])]] = [
            [Self.iccSegment(1, 2, [1, 2, 3])],  // the second of two is missing
            [Self.iccSegment(1, 2, [1]), Self.iccSegment(1, 2, [2])],  // the same one twice
            [Self.iccSegment(1, 2, [1]), Self.iccSegment(2, 3, [2])],  // counts disagree
            [Self.iccSegment(0, 1, [1])],  // sequence numbers start at 1
            [Self.iccSegment(1, 0, [1])],  // no segments at all
        ]
        for segments in cases {
            let image = try Self.decodeAll(Self.jpeg(try Self.plainJPEG(), inserting: segments))
            #expect(image.metadata.iccProfile == nil)
            #expect(image.width > 0)
        }
        // Out of file order but complete: reassembled by sequence number.
        let shuffled = [Self.iccSegment(2, 2, [3, 4]), Self.iccSegment(1, 2, [1, 2])]
        let image = try Self.decodeAll(Self.jpeg(try Self.plainJPEG(), inserting: shuffled))
        #expect(image.metadata.iccProfile == Data([1, 2, 3, 4]))
    }

    @Test func jpegSegmentsWithASignatureButNoTIFFDataAreNotEXIF() throws {
        let segments: [(UInt8, [UInt8])] = [(0xE1, Array("Exif\0\0".utf8) + [0x49, 0x49])]
        let image = try Self.decodeAll(Self.jpeg(try Self.plainJPEG(), inserting: segments))
        #expect(image.metadata.exif == nil)
        #expect(image.orientation == .up)
    }

    /// A PNG made by our encoder with one chunk inserted after IHDR.
    static func png(inserting type: String, _ data: [UInt8]) throws -> Data {
        let plain = try PNGCoder().encode(
            Image(bitmap: ImageBitmap(width: 4, height: 4, fill: .white), hasAlpha: false), as: .png,
            options: ImageEncodeOptions())
        let body = Array(type.utf8) + data
        let crc = body.withUnsafeBufferPointer { UInt32(crc32(0, $0.baseAddress, UInt32($0.count))) }
        func bigEndian(_ value: UInt32) -> [UInt8] { (0..<4).map { UInt8((value >> (24 - 8 * $0)) & 0xFF) } }
        let chunk = bigEndian(UInt32(data.count)) + body + bigEndian(crc)
        return Data(plain.prefix(33)) + Data(chunk) + Data(plain.dropFirst(33))
    }

    static func deflate(_ bytes: [UInt8]) -> [UInt8] {
        var output = [UInt8](repeating: 0, count: Int(compressBound(UInt(bytes.count))))
        var length = UInt(output.count)
        _ = output.withUnsafeMutableBufferPointer { out in
            bytes.withUnsafeBufferPointer { compress2(out.baseAddress, &length, $0.baseAddress, UInt(bytes.count), 9) }
        }
        return Array(output.prefix(Int(length)))
    }

    @Test func aPNGProfileThatInflatesPastEightMegabytesIsLeftOut() throws {
        // 64 MB of zeros deflate to about 64 KB: a small chunk claiming a large allocation.
        let bomb = Self.deflate([UInt8](repeating: 0, count: 64 << 20))
        #expect(bomb.count < 100_000)
        let image = try Self.decodeAll(Self.png(inserting: "iCCP", Array("bomb\0".utf8) + [0] + bomb))
        #expect(image.metadata.iccProfile == nil)
        #expect(image.width == 4)
        // Just under the limit is kept.
        let large = Self.deflate([UInt8](repeating: 7, count: PNGMetadata.maxInflatedBytes))
        let kept = try Self.decodeAll(Self.png(inserting: "iCCP", Array("big\0".utf8) + [0] + large))
        #expect(kept.metadata.iccProfile?.count == PNGMetadata.maxInflatedBytes)
    }

    @Test func pngProfilesThatAreCorruptOrCutShortAreLeftOut() throws {
        let good = Self.deflate(Array(try Fixtures.data("metadata/srgb.icc")))
        let cases: [[UInt8]] = [
            Array("p\0".utf8) + [0] + good.dropLast(10),  // the zlib stream is cut short
            Array("p\0".utf8) + [0] + [0x78, 0x9C, 0xFF, 0xFF, 0xFF],  // not deflate data
            Array("p\0".utf8) + [1] + good,  // an unknown compression method
            [0] + [0] + good,  // an empty profile name
            Array(repeating: 0x41, count: 100),  // no name terminator
        ]
        for chunk in cases {
            let image = try Self.decodeAll(Self.png(inserting: "iCCP", chunk))
            #expect(image.metadata.iccProfile == nil)
            #expect(image.width == 4)
        }
        let fine = try Self.decodeAll(Self.png(inserting: "iCCP", Array("p\0".utf8) + [0] + good))
        #expect(fine.metadata.iccProfile == (try Fixtures.data("metadata/srgb.icc")))
    }

    @Test func pngXMPIsReadPlainOrCompressedAndIgnoredWhenMalformed() throws {
        let packet = Array(try Fixtures.data("metadata/metadata.xmp"))
        let keyword = PNGMetadata.xmpKeyword
        let plain = try Self.decodeAll(Self.png(inserting: "iTXt", keyword + [0, 0] + [0x65, 0x6E, 0] + [0] + packet))
        #expect(plain.metadata.xmp == Data(packet))
        let compressed = try Self.decodeAll(Self.png(inserting: "iTXt", keyword + [1, 0, 0, 0] + Self.deflate(packet)))
        #expect(compressed.metadata.xmp == Data(packet))
        for broken in [keyword + [0], keyword + [0, 0, 0x65], keyword + [1, 0, 0, 0, 1, 2, 3]] {
            #expect(try Self.decodeAll(Self.png(inserting: "iTXt", broken)).metadata.xmp == nil)
        }
    }

    @Test func webpChunksThatRunPastTheFileAreNotRead() throws {
        var image = Image(bitmap: ImageBitmap(width: 4, height: 4, fill: .white), hasAlpha: false)
        image.metadata.iccProfile = try Fixtures.data("metadata/srgb.icc")
        var options = ImageEncodeOptions()
        options.lossless = true
        var webp = try WebPCoder().encode(image, as: .webp, options: options)
        // The ICCP chunk follows the 30-byte RIFF and VP8X headers; make it claim 1 GB.
        #expect(String(decoding: webp[30..<34], as: UTF8.self) == "ICCP")
        webp.replaceSubrange(34..<38, with: [0, 0, 0, 0x40])
        let decoded = WebPMetadata.read(.all, in: webp.withUnsafeBytes { UnsafeRawBufferPointer($0) })
        #expect(decoded.iccProfile == nil)
    }
}
