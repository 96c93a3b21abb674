import Foundation
import Testing

@testable import WebImage

@Suite("GIF progressive decoding")
struct GIFProgressiveTests {
    @Test("partial data shows the rows of the first frame received so far")
    func partialFirstFrame() throws {
        // 4×40 opaque frame of literal codes: rows arrive in order, one byte per code.
        var gif = GIFBuilder(width: 4, height: 40)
        gif.frames = [
            .init(width: 4, height: 40, indices: (0..<160).map { UInt8($0 / 80) }, minCodeSize: 7),
            .init(width: 4, height: 40, indices: Array(repeating: 2, count: 160)),
        ]
        let full = [UInt8](gif.data)
        let coder = GIFCoder()
        #expect(coder.canDecodeIncrementally(gif.data))
        let decoder = coder.makeIncrementalDecoder(options: ImageDecodeOptions())

        decoder.update(Data(full.prefix(10)), isFinal: false)
        #expect(try decoder.currentImage() == nil)

        let descriptor = try #require(full.firstIndex(of: 0x2C))
        // Descriptor (10 bytes), code size, block length, clear code, then 100 pixel codes.
        decoder.update(Data(full.prefix(descriptor + 13 + 100)), isFinal: false)
        let partial = try #require(try decoder.currentImage())
        #expect(partial.isIncremental)
        #expect(partial.animation == nil)
        #expect(partial.bitmap[0, 0] == GIFTestColor.red)
        #expect(partial.bitmap[3, 19] == GIFTestColor.red)
        #expect(partial.bitmap[0, 20] == GIFTestColor.blue)
        #expect(partial.bitmap[0, 30] == GIFTestColor.clear)

        decoder.update(Data(full), isFinal: true)
        let final = try #require(try decoder.currentImage())
        #expect(!final.isIncremental)
        #expect(final.frameCount == 2)
        #expect(final.bitmap[0, 30] == GIFTestColor.blue)
    }

    @Test("the manager picks the GIF coder for incremental decoding")
    func throughManager() throws {
        let data = try Fixtures.data("gif/static.gif")
        let decoder = ImageCodersManager().makeIncrementalDecoder(options: ImageDecodeOptions())
        decoder.update(data.prefix(3), isFinal: false)
        #expect(try decoder.currentImage() == nil)
        decoder.update(data, isFinal: true)
        #expect(try decoder.currentImage()?.bitmap[15, 15] == GIFTestColor.white)
    }

    @Test("data that is not a GIF fails at once")
    func notAGIF() {
        let decoder = GIFCoder().makeIncrementalDecoder(options: ImageDecodeOptions())
        decoder.update(Data("PNG is not here".utf8), isFinal: false)
        #expect(throws: WebImageError.self) { try decoder.currentImage() }
    }

    @Test("asking again without new bytes returns the same image instead of decoding twice")
    func noSecondDecodeWithoutNewBytes() throws {
        let data = try Fixtures.data("gif/pillow_noise.gif")
        let decoder = GIFCoder().makeIncrementalDecoder(options: ImageDecodeOptions())
        decoder.update(data.prefix(data.count / 2), isFinal: false)
        let first = try #require(try decoder.currentImage())
        let again = try #require(try decoder.currentImage())
        // The same storage, not an equal copy: nothing was decoded the second time.
        let same = sharesStorage(first.bitmap, again.bitmap)
        #expect(same)
        decoder.update(data, isFinal: true)
        let final = try #require(try decoder.currentImage())
        #expect(!final.isIncremental)
    }
}
