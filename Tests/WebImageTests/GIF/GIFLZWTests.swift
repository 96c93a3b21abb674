import Foundation
import Testing

@testable import WebImage

/// Hand-packed code streams for the LZW decoder's edge cases (palette: 0 red, 1 blue).
@Suite("GIF LZW decoding")
struct GIFLZWTests {
    let coder = GIFCoder()

    @Test("an LZW code not yet in the table ends the frame's pixels there")
    func lzwCodeOutOfRange() throws {
        var gif = GIFBuilder(width: 4, height: 1)
        // Code size 3 (min 2): clear, 1, then 7 while the next free code is 6.
        gif.frames = [.init(width: 4, height: 1, indices: [], rawLZW: GIFBuilder.packCodes([4, 1, 7, 0, 5], width: 3))]
        let image = try coder.decode(gif.data, options: ImageDecodeOptions())
        #expect(image.bitmap[0, 0] == GIFTestColor.blue)
        #expect(image.bitmap[1, 0] == GIFTestColor.clear)
        #expect(image.bitmap[2, 0] == GIFTestColor.clear)
        #expect(image.bitmap[3, 0] == GIFTestColor.clear)
    }

    @Test("LZW data that ends early keeps the pixels decoded so far")
    func lzwEndsEarly() throws {
        var gif = GIFBuilder(width: 4, height: 1)
        gif.frames = [.init(width: 4, height: 1, indices: [], rawLZW: GIFBuilder.packCodes([4, 1], width: 3))]
        let image = try coder.decode(gif.data, options: ImageDecodeOptions())
        #expect(image.bitmap[0, 0] == GIFTestColor.blue)
        #expect(image.bitmap[1, 0] == GIFTestColor.clear)
        #expect(image.bitmap[3, 0] == GIFTestColor.clear)
    }

    @Test("a code after the table fills to 4096 entries is handled (deferred clear)")
    func deferredClear() throws {
        // 2 colours, min code size 2: literal codes grow the table to 4096 entries and beyond
        // with no clear code; the decoder must keep reading 12-bit codes.
        var codes = [4]
        var width = 3
        var next = 6
        var widths: [Int] = [3]
        for i in 0..<5000 {
            codes.append(i % 2)
            widths.append(width)
            if i > 0 && next < 4096 {
                next += 1
                if next == 1 << width && width < 12 { width += 1 }
            }
        }
        codes.append(5)
        widths.append(width)
        var gif = GIFBuilder(width: 100, height: 50)
        gif.frames = [.init(width: 100, height: 50, indices: [], rawLZW: GIFBuilder.packCodes(codes, widths: widths))]
        let image = try coder.decode(gif.data, options: ImageDecodeOptions())
        #expect(image.bitmap[0, 0] == GIFTestColor.red)
        #expect(image.bitmap[1, 0] == GIFTestColor.blue)
        #expect(image.bitmap[98, 49] == GIFTestColor.red)
        #expect(image.bitmap[99, 49] == GIFTestColor.blue)
    }
}
