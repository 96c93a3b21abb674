import Foundation
import Testing

@_spi(Internals) @testable import WebImage

/// Lying, broken and hostile APNG chunks: a typed error or the frames that are really there.
@Suite("APNG: lying frame counts, regions outside the canvas, broken frame data")
struct APNGBadInputTests {
    typealias Chunk = (type: String, data: [UInt8])

    static func chunks(_ png: Data) -> [Chunk] {
        var chunks: [Chunk] = []
        var offset = 8
        let bytes = Array(png)
        while offset + 12 <= bytes.count {
            let length =
                Int(bytes[offset]) << 24 | Int(bytes[offset + 1]) << 16 | Int(bytes[offset + 2]) << 8
                | Int(bytes[offset + 3])
            let type = String(decoding: bytes[(offset + 4)..<(offset + 8)], as: UTF8.self)
            chunks.append((type, Array(bytes[(offset + 8)..<(offset + 8 + length)])))
            offset += 12 + length
        }
        return chunks
    }

    static func png(_ chunks: [Chunk]) -> Data {
        var out = PNGChunkScan.signature
        for chunk in chunks {
            let body = Array(chunk.type.utf8) + chunk.data
            out += APNGFrameDecoder.bigEndian(UInt32(chunk.data.count)) + body
            out += APNGFrameDecoder.bigEndian(body.withUnsafeBytes { PNGChunkScan.crc32($0) })
        }
        return Data(out)
    }

    /// dispose-blend.png with `edit` applied to its chunks.
    static func edited(_ edit: (inout [Chunk]) -> Void) throws -> Data {
        var chunks = Self.chunks(try Fixtures.data("apng/dispose-blend.png"))
        edit(&chunks)
        return png(chunks)
    }

    static func decode(_ data: Data) throws -> Image {
        try ImageCodersManager.shared.decode(data, options: ImageDecodeOptions())
    }

    @Test func anACTLClaimingTwoBillionFramesGivesTheFramesPresent() throws {
        let data = try Self.edited { chunks in
            let index = chunks.firstIndex { $0.type == "acTL" }!
            chunks[index].data.replaceSubrange(0..<4, with: [0x7F, 0xFF, 0xFF, 0xFF])
        }
        #expect(try Self.decode(data).frameCount == 4)
        #expect(try ImageCodersManager.shared.imageInfo(for: data).frameCount == 4)
    }

    @Test func anACTLClaimingFewerFramesCutsTheAnimationThereAndZeroMeansAStill() throws {
        for (declared, expected) in [(2, 2), (0, 1)] {
            let data = try Self.edited { chunks in
                let index = chunks.firstIndex { $0.type == "acTL" }!
                chunks[index].data.replaceSubrange(0..<4, with: APNGFrameDecoder.bigEndian(UInt32(declared)))
            }
            #expect(try Self.decode(data).frameCount == expected, "declared \(declared)")
        }
    }

    @Test(arguments: [
        // (x, y, width, height) of the second frame: past each edge, zero-sized, 2^31 wide.
        [0, 0, 33, 8], [0, 20, 8, 5], [30, 0, 3, 3], [4, 4, 0, 8], [0, 0, 0x8000_0000, 1], [0xFFFF_FFFF, 0, 1, 1],
    ])
    func aFrameOutsideTheCanvasIsATypedError(region: [Int]) throws {
        let data = try Self.edited { chunks in
            let index = chunks.indices.filter { chunks[$0].type == "fcTL" }[1]
            let fields = [region[2], region[3], region[0], region[1]].flatMap { APNGFrameDecoder.bigEndian(UInt32($0)) }
            chunks[index].data.replaceSubrange(4..<20, with: fields)
        }
        #expect(throws: WebImageError.self) { try Self.decode(data) }
    }

    /// libpng reads the first IHDR only; the canvas must come from the same one (fuzz-apng found
    /// a second IHDR claiming 2^30 × 2^30 allocated past the pixel limit).
    @Test func aSecondIHDRClaimingAHugeCanvasIsIgnored() throws {
        let data = try Self.edited { chunks in
            var huge = chunks[0].data
            huge.replaceSubrange(0..<8, with: [0x40, 0, 0, 0, 0x40, 0, 0, 0])
            chunks.insert(("IHDR", huge), at: chunks.count - 1)  // after the image data, which libpng stops at
        }
        let image = try Self.decode(data)
        #expect(image.width == 32 && image.height == 24 && image.frameCount == 4)
    }

    @Test func brokenFrameDataIsATypedErrorEagerlyAndLazily() throws {
        let data = try Self.edited { chunks in
            let index = chunks.firstIndex { $0.type == "fdAT" }!
            let end = chunks[index].data.count
            chunks[index].data.replaceSubrange(6..<end, with: [UInt8](repeating: 0xA5, count: end - 6))
        }
        #expect(throws: WebImageError.self) { try Self.decode(data) }
        var options = ImageDecodeOptions()
        options.lazyAnimatedFrames = true
        let lazy = try ImageCodersManager.shared.decode(data, options: options)
        #expect(throws: WebImageError.self) { try lazy.animation?.frame(at: 1) }
    }

    @Test func everyTruncationGivesATypedErrorOrTheFramesBeforeTheCut() throws {
        let data = try Fixtures.data("apng/dispose-blend.png")
        for length in stride(from: 0, to: data.count, by: 7) {
            do {
                let image = try Self.decode(data.prefix(length))
                #expect(image.frameCount <= 4 && image.width == 32 && image.height == 24)
            } catch {
                #expect(error is WebImageError)
            }
        }
    }

    @Test func aCanvasAboveThePixelLimitIsRefusedBeforeAnyFrameIsDecoded() throws {
        var options = ImageDecodeOptions()
        options.maxPixelCount = 32 * 24 - 1
        #expect(throws: WebImageError.imageTooLarge(width: 32, height: 24, limit: 32 * 24 - 1)) {
            try ImageCodersManager.shared.decode(Fixtures.data("apng/dispose-blend.png"), options: options)
        }
    }
}
