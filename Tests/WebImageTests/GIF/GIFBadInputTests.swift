import Foundation
import Testing

@testable import WebImage

@Suite("GIF bad input")
struct GIFBadInputTests {
    let coder = GIFCoder()

    func expectBadData(_ data: Data, sourceLocation: SourceLocation = #_sourceLocation) {
        expectBadImageData(sourceLocation: sourceLocation) { try coder.decode(data, options: ImageDecodeOptions()) }
    }

    func twoFrames() -> GIFBuilder {
        var gif = GIFBuilder(width: 4, height: 4)
        gif.frames = [
            .init(width: 4, height: 4, indices: Array(repeating: 0, count: 16)),
            .init(width: 4, height: 4, indices: Array(repeating: 1, count: 16)),
        ]
        return gif
    }

    @Test("empty and random data are bad image data")
    func emptyAndRandom() {
        expectBadData(Data())
        expectBadData(Data(SplitMix64.bytes(500, seed: 5)))
        #expect(throws: WebImageError.self) { try coder.imageInfo(for: Data()) }
    }

    @Test("random bytes after a valid header never crash")
    func randomBody() {
        var generator = SplitMix64(seed: 6)
        for _ in 0..<200 {
            var bytes = Array("GIF89a".utf8) + [8, 0, 8, 0, 0x80, 0, 0, 1, 2, 3, 4, 5, 6]
            bytes += generator.bytes(Int.random(in: 0...300, using: &generator))
            if let image = try? coder.decode(Data(bytes), options: ImageDecodeOptions()) {
                #expect(image.width == 8)
            }
        }
    }

    @Test("truncation inside the only frame fails; inside a later frame it drops that frame")
    func truncation() throws {
        let full = [UInt8](twoFrames().data)
        // Cut in the header, the colour table, the first frame's descriptor and its data.
        for cut in [3, 8, 15, 30, 40, 50] where cut < full.count {
            expectBadData(Data(full[..<cut]))
        }
        // Every cut after the first frame's data keeps exactly the complete frames.
        let frameEnd = try #require(firstFrameEnd(full))
        for cut in stride(from: frameEnd, to: full.count, by: 3) {
            let image = try coder.decode(Data(full[..<cut]), options: ImageDecodeOptions())
            #expect(image.frameCount == 1, "cut at \(cut)")
            #expect(image.bitmap[0, 0] == GIFTestColor.red)
        }
        #expect(try coder.decode(Data(full.dropLast()), options: ImageDecodeOptions()).frameCount == 2)
    }

    /// The offset just past the first frame's data sub-blocks.
    func firstFrameEnd(_ bytes: [UInt8]) -> Int? {
        guard let descriptor = bytes.firstIndex(of: 0x2C) else { return nil }
        var position = descriptor + 11
        while position < bytes.count {
            let length = Int(bytes[position])
            position += 1 + length
            if length == 0 { return position }
        }
        return nil
    }

    @Test("a header claiming 65535×65535 is refused before allocating")
    func hugeCanvas() throws {
        var gif = GIFBuilder(width: 65535, height: 65535)
        gif.frames = [.init(width: 1, height: 1, indices: [0])]
        #expect(
            throws: WebImageError.imageTooLarge(
                width: 65535, height: 65535, limit: ImageDecodeOptions.defaultMaxPixelCount)
        ) {
            try coder.decode(gif.data, options: ImageDecodeOptions())
        }
        #expect(throws: WebImageError.self) {
            try GIFAnimatedImageProvider(data: gif.data, options: ImageDecodeOptions())
        }
        #expect(try coder.imageInfo(for: gif.data).width == 65535)
    }

    @Test("a zero-sized canvas is bad image data")
    func zeroCanvas() {
        var gif = GIFBuilder(width: 0, height: 4)
        gif.frames = [.init(width: 1, height: 1, indices: [0])]
        expectBadData(gif.data)
        #expect(throws: WebImageError.self) { try coder.imageInfo(for: gif.data) }
    }

    @Test("frame rectangles outside the canvas are clipped")
    func outOfRangeRectangles() throws {
        var gif = GIFBuilder(width: 4, height: 4)
        gif.frames = [
            .init(x: 2, y: 3, width: 4, height: 4, indices: Array(repeating: 1, count: 16)),
            .init(x: 60000, y: 0, width: 3, height: 3, indices: Array(repeating: 0, count: 9), disposal: 3),
            .init(x: 3, y: 0, width: 65535, height: 1, indices: Array(repeating: 0, count: 8)),
        ]
        let frames = try #require(try coder.decode(gif.data, options: ImageDecodeOptions()).animation).allFrames()
        #expect(frames.count == 3)
        #expect(frames[0].bitmap[2, 3] == GIFTestColor.blue)
        #expect(frames[0].bitmap[3, 3] == GIFTestColor.blue)
        #expect(frames[0].bitmap[1, 3] == GIFTestColor.clear)
        #expect(frames[1].bitmap == frames[0].bitmap)
        #expect(frames[2].bitmap[3, 0] == GIFTestColor.red)
    }

    @Test("a huge frame rectangle decodes only its visible rows; interlaced, it is refused")
    func hugeFrameRectangle() throws {
        var gif = GIFBuilder(width: 4, height: 4)
        gif.frames = [.init(width: 65535, height: 65535, indices: [0])]
        let image = try coder.decode(gif.data, options: ImageDecodeOptions())
        #expect(image.bitmap[0, 0] == GIFTestColor.red)
        #expect(image.bitmap[1, 0] == GIFTestColor.clear)
        gif.frames[0].interlaced = true
        #expect(
            throws: WebImageError.imageTooLarge(
                width: 65535, height: 65535, limit: ImageDecodeOptions.defaultMaxPixelCount)
        ) {
            try coder.decode(gif.data, options: ImageDecodeOptions())
        }
    }

    @Test("palette indices past the colour table are transparent, and no table draws nothing")
    func paletteOutOfRange() throws {
        var gif = GIFBuilder(width: 2, height: 1)
        gif.colors = [GIFTestColor.red, GIFTestColor.blue]  // two entries: index 2 and 3 are out of range
        gif.frames = [.init(width: 2, height: 1, indices: [1, 3])]
        let image = try coder.decode(gif.data, options: ImageDecodeOptions())
        #expect(image.bitmap[0, 0] == GIFTestColor.blue)
        #expect(image.bitmap[1, 0] == GIFTestColor.clear)

        // Clear the global-table flag: the frame has no colour table at all.
        var bytes = [UInt8](gif.data)
        bytes[10] &= 0x7F
        bytes.removeSubrange(13..<19)
        let bare = try coder.decode(Data(bytes), options: ImageDecodeOptions())
        #expect(bare.bitmap.containsTransparency)
        #expect(bare.bitmap[0, 0] == GIFTestColor.clear)
    }

    @Test("an unknown block or a bad LZW code size after a frame keeps the frames before it")
    func brokenStructure() throws {
        var bytes = [UInt8](twoFrames().data)
        let end = try #require(firstFrameEnd(bytes))
        bytes[end] = 0x99
        #expect(try coder.decode(Data(bytes), options: ImageDecodeOptions()).frameCount == 1)

        var first = [UInt8](twoFrames().data)
        let descriptor = try #require(first.firstIndex(of: 0x2C))
        first[descriptor + 10] = 12  // LZW minimum code size out of range in the first frame
        expectBadData(Data(first))
    }

    @Test("a GIF with no image is bad image data")
    func noFrames() {
        var gif = GIFBuilder(width: 4, height: 4)
        gif.frames = []
        expectBadData(gif.data)
    }
}
