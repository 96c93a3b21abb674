import Foundation
import Testing

@testable import WebImage

@Suite("GIF frame timing and loop counts")
struct GIFAnimationTimingTests {
    let coder = GIFCoder()

    @Test("delays below 0.011 s become 0.1 s, others are kept")
    func durations() throws {
        let image = try coder.decode(try Fixtures.data("gif/loop3_delays.gif"), options: ImageDecodeOptions())
        let animation = try #require(image.animation)
        #expect(animation.frameCount == 4)
        let durations = (0..<4).map { animation.duration(at: $0) }
        let expected = [0.1, 0.1, 0.02, 0.5]
        for (actual, wanted) in zip(durations, expected) { #expect(abs(actual - wanted) < 1e-9) }
    }

    @Test("the NETSCAPE loop count is read")
    func loopThree() throws {
        let image = try coder.decode(try Fixtures.data("gif/loop3_delays.gif"), options: ImageDecodeOptions())
        #expect(image.animation?.loopCount == 3)
        #expect(image.isAnimated)
        #expect(try coder.imageInfo(for: try Fixtures.data("gif/loop3_delays.gif")).loopCount == 3)
    }

    @Test("loop count 0 means forever")
    func loopForever() throws {
        let image = try coder.decode(try Fixtures.data("gif/disposal_none.gif"), options: ImageDecodeOptions())
        #expect(image.animation?.loopCount == 0)
    }

    @Test("a missing loop extension means one loop, and a missing control block a 0.1 s delay")
    func missingLoop() throws {
        let data = try Fixtures.data("gif/no_loop.gif")
        let animation = try #require(try coder.decode(data, options: ImageDecodeOptions()).animation)
        #expect(animation.loopCount == 1)
        #expect(animation.frameCount == 2)
        #expect(animation.duration(at: 0) == 0.1)
        #expect(try coder.imageInfo(for: data).loopCount == 1)
        #expect(try animation.frame(at: 1).bitmap[2, 2] == GIFTestColor.blue)
    }

    @Test("ANIMEXTS1.0 is read like NETSCAPE2.0")
    func animexts() throws {
        var bytes = [UInt8](try Fixtures.data("gif/loop3_delays.gif"))
        let netscape = Array("NETSCAPE2.0".utf8)
        let start = try #require(
            (0...(bytes.count - netscape.count)).first { Array(bytes[$0..<($0 + 11)]) == netscape })
        bytes.replaceSubrange(start..<(start + 11), with: Array("ANIMEXTS1.0".utf8))
        #expect(try coder.imageInfo(for: Data(bytes)).loopCount == 3)
    }
}
