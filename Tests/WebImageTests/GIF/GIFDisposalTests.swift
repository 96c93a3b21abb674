import Foundation
import Testing

@testable import WebImage

/// The fixtures: frame 0 fills 8×8 red; frame 1 draws a 4×4 blue square at (2,2) whose centre
/// (4,4) is transparent, with the disposal under test; frame 2 draws green at (0,0)–(1,1).
@Suite("GIF disposal and compositing")
struct GIFDisposalTests {
    func frames(_ name: String) throws -> [ImageFrame] {
        try #require(
            try GIFCoder().decode(try Fixtures.data("gif/\(name).gif"), options: ImageDecodeOptions()).animation
        )
        .allFrames()
    }

    @Test("a transparent index shows the canvas beneath")
    func transparency() throws {
        let frame = try frames("disposal_none")[1].bitmap
        #expect(frame[4, 4] == GIFTestColor.red)
        #expect(frame[3, 3] == GIFTestColor.blue)
        #expect(frame[0, 0] == GIFTestColor.red)
    }

    @Test("disposal 1 keeps the frame on the canvas")
    func keep() throws {
        let last = try frames("disposal_none")[2].bitmap
        #expect(last[0, 0] == GIFTestColor.green)
        #expect(last[1, 1] == GIFTestColor.green)
        #expect(last[3, 3] == GIFTestColor.blue)
        #expect(last[4, 4] == GIFTestColor.red)
        #expect(last[7, 7] == GIFTestColor.red)
    }

    @Test("disposal 2 clears the frame's rectangle to transparent")
    func background() throws {
        let all = try frames("disposal_background")
        #expect(all[1].bitmap[3, 3] == GIFTestColor.blue)
        let last = all[2].bitmap
        #expect(last[0, 0] == GIFTestColor.green)
        #expect(last[3, 3] == GIFTestColor.clear)
        #expect(last[5, 5] == GIFTestColor.clear)
        #expect(last[4, 4] == GIFTestColor.clear)
        #expect(last[6, 6] == GIFTestColor.red)
        #expect(last[2, 1] == GIFTestColor.red)
    }

    @Test("disposal 3 restores what the rectangle held before the frame")
    func previous() throws {
        let all = try frames("disposal_previous")
        #expect(all[1].bitmap[3, 3] == GIFTestColor.blue)
        let last = all[2].bitmap
        #expect(last[0, 0] == GIFTestColor.green)
        #expect(last[3, 3] == GIFTestColor.red)
        #expect(last[5, 5] == GIFTestColor.red)
        #expect(last[7, 7] == GIFTestColor.red)
    }

    @Test("disposal 3 on the first frame restores the transparent canvas")
    func previousOnFirstFrame() throws {
        var gif = GIFBuilder(width: 4, height: 4)
        gif.frames = [
            .init(width: 4, height: 4, indices: Array(repeating: 0, count: 16), disposal: 3),
            .init(x: 0, y: 0, width: 1, height: 1, indices: [1]),
        ]
        let all = try #require(try GIFCoder().decode(gif.data, options: ImageDecodeOptions()).animation).allFrames()
        #expect(all[0].bitmap[3, 3] == GIFTestColor.red)
        #expect(all[1].bitmap[0, 0] == GIFTestColor.blue)
        #expect(all[1].bitmap[3, 3] == GIFTestColor.clear)
    }

    @Test("pixels no frame covers stay transparent, and hasAlpha says so")
    func uncoveredCanvas() throws {
        var gif = GIFBuilder(width: 4, height: 4)
        gif.frames = [.init(x: 1, y: 1, width: 2, height: 2, indices: [0, 0, 0, 0])]
        let image = try GIFCoder().decode(gif.data, options: ImageDecodeOptions())
        #expect(image.hasAlpha)
        #expect(image.bitmap[0, 0] == GIFTestColor.clear)
        #expect(image.bitmap[1, 1] == GIFTestColor.red)
        #expect(image.bitmap[3, 3] == GIFTestColor.clear)
    }
}
