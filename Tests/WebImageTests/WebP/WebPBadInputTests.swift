import Foundation
import Testing

@testable import WebImage

@Suite("WebP bad input")
struct WebPBadInputTests {
    let coder = WebPCoder()
    static let fixtures = ["lossy.webp", "lossless_alpha.webp", "photo.webp", "animated.webp", "subframes.webp"]

    @Test func emptyDataThrowsBadImageData() {
        #expect(throws: WebImageError.badImageData("the data is empty")) {
            try coder.decode(Data(), options: ImageDecodeOptions())
        }
        #expect(throws: WebImageError.badImageData("the data is empty")) { try coder.imageInfo(for: Data()) }
        #expect(throws: WebImageError.self) { try coder.animatedImageProvider(for: Data(), options: .init()) }
        #expect(!coder.canDecode(Data()))
    }

    @Test func randomBytesAreRejected() {
        var generator = SplitMix64(seed: 42)
        for length in [1, 11, 12, 100, 4096] {
            let data = Data(generator.bytes(length))
            #expect(!coder.canDecode(data))
            #expect(throws: WebImageError.self) { try coder.decode(data, options: ImageDecodeOptions()) }
        }
    }

    @Test func riffWebPHeaderFollowedByGarbageThrows() {
        var generator = SplitMix64(seed: 7)
        for length in [0, 4, 30, 500] {
            let garbage = generator.bytes(length)
            let data = Data(Array("RIFF".utf8) + le32(length + 4) + Array("WEBP".utf8) + garbage)
            #expect(coder.canDecode(data))
            expectBadImageData { try coder.decode(data, options: ImageDecodeOptions()) }
            expectBadImageData { try coder.imageInfo(for: data) }
        }
    }

    @Test(arguments: fixtures)
    func truncatedFixturesThrow(name: String) throws {
        let data = try Fixtures.data("webp/\(name)")
        let cuts = Set([12, 20, 30, data.count / 4, data.count / 2, data.count * 3 / 4, data.count - 1])
        for cut in cuts.sorted() where cut < data.count {
            expectBadImageData("\(name) cut at \(cut)") {
                try coder.decode(data.prefix(cut), options: ImageDecodeOptions())
            }
        }
    }

    @Test(arguments: fixtures)
    func truncatedFixturesThrowForEveryDecodePath(name: String) throws {
        let data = try Fixtures.data("webp/\(name)").dropLast(3)
        var firstFrame = ImageDecodeOptions()
        firstFrame.firstFrameOnly = true
        var lazy = ImageDecodeOptions()
        lazy.lazyAnimatedFrames = true
        var thumbnail = ImageDecodeOptions()
        thumbnail.thumbnailPixelSize = PixelSize(width: 8, height: 8)
        for options in [firstFrame, lazy, thumbnail] {
            #expect(throws: WebImageError.self) { try coder.decode(Data(data), options: options) }
        }
    }

    @Test func hostileAnimatedCanvasIsRefusedBeforeAllocating() {
        let data = WebPTestSupport.vp8xHeader(width: 16383, height: 16383, flags: 0x02 | 0x10)
        var tiny = ImageDecodeOptions()
        tiny.maxPixelCount = 1000
        #expect(throws: WebImageError.imageTooLarge(width: 16383, height: 16383, limit: 1000)) {
            try coder.decode(data, options: tiny)
        }
        #expect(throws: WebImageError.imageTooLarge(width: 16383, height: 16383, limit: 1000)) {
            try coder.animatedImageProvider(for: data, options: tiny)
        }
        let limit = ImageDecodeOptions.defaultMaxPixelCount
        #expect(throws: WebImageError.imageTooLarge(width: 16383, height: 16383, limit: limit)) {
            try coder.decode(data, options: ImageDecodeOptions())
        }
        expectBadImageData { try coder.imageInfo(for: data) }
    }

    @Test func hostileStillHeadersAreRefusedBeforeAllocating() {
        let lossless = WebPTestSupport.vp8lChunk(width: 16383, height: 16383)
        let extended = WebPTestSupport.vp8xHeader(width: 16383, height: 16383, flags: 0x10, trailing: lossless)
        let simple = WebPTestSupport.file(lossless)
        for data in [extended, simple] {
            var tiny = ImageDecodeOptions()
            tiny.maxPixelCount = 1000
            #expect(throws: WebImageError.imageTooLarge(width: 16383, height: 16383, limit: 1000)) {
                try coder.decode(data, options: tiny)
            }
            #expect(throws: WebImageError.imageTooLarge(width: 16383, height: 16383, limit: 100_000_000)) {
                try coder.decode(data, options: ImageDecodeOptions())
            }
            let decoder = coder.makeIncrementalDecoder(options: tiny)
            decoder.update(data, isFinal: false)
            #expect(throws: WebImageError.imageTooLarge(width: 16383, height: 16383, limit: 1000)) {
                try decoder.currentImage()
            }
        }
    }

    @Test func headerWithinTheLimitButNoPixelDataThrows() throws {
        let lossless = WebPTestSupport.vp8lChunk(width: 300, height: 200)
        let data = WebPTestSupport.file(lossless)
        #expect(try coder.imageInfo(for: data).width == 300)
        expectBadImageData { try coder.decode(data, options: ImageDecodeOptions()) }
    }
}

@Suite("WebP corrupt animation frames")
struct WebPCorruptFrameTests {
    let coder = WebPCoder()

    /// `animated.webp` with the bitstream of frame 2 (0-based) overwritten after its header.
    static func corruptedAnimation() throws -> Data {
        var bytes = [UInt8](try Fixtures.data("webp/animated.webp"))
        let tag = Array("ANMF".utf8)
        let starts = (0..<(bytes.count - 4)).filter { Array(bytes[$0..<($0 + 4)]) == tag }
        try #require(starts.count == 5)
        // ANMF header (8) + frame fields (16) + sub-chunk header (8) + VP8L header (5).
        let payload = starts[2] + 8 + 16 + 8 + 5
        let end = starts[3]
        for i in payload..<(end - 1) { bytes[i] = 0xFF }
        return Data(bytes)
    }

    @Test func eagerDecodeOfACorruptFrameThrows() throws {
        let data = try Self.corruptedAnimation()
        #expect(throws: WebImageError.self) { try coder.decode(data, options: ImageDecodeOptions()) }
    }

    @Test func lazyProviderRecoversAfterACorruptFrame() throws {
        let provider = try coder.animatedImageProvider(for: try Self.corruptedAnimation(), options: .init())
        #expect(try provider.frame(at: 1)[0, 0] == WebPTestSupport.animatedColours[1])
        #expect(throws: WebImageError.badImageData("frame 2 of the animated WebP is corrupt")) {
            try provider.frame(at: 2)
        }
        #expect(try provider.frame(at: 0)[0, 0] == WebPTestSupport.animatedColours[0])
    }
}
