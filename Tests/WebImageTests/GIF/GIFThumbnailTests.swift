import Foundation
import Testing

@testable import WebImage

@Suite("GIF thumbnails")
struct GIFThumbnailTests {
    let coder = GIFCoder()

    @Test("a thumbnail size resamples every frame")
    func thumbnailFrames() throws {
        var options = ImageDecodeOptions()
        options.thumbnailPixelSize = PixelSize(width: 4, height: 4)
        let image = try coder.decode(try Fixtures.data("gif/disposal_previous.gif"), options: options)
        #expect(image.isThumbnail)
        #expect(image.width == 4 && image.height == 4)
        let frames = try #require(image.animation).allFrames()
        #expect(frames.count == 3)
        #expect(frames.allSatisfy { $0.bitmap.size == PixelSize(width: 4, height: 4) })
        // Frame 2: the top-left 2×2 green block becomes the top-left thumbnail pixel.
        let corner = frames[2].bitmap[0, 0]
        #expect(corner.g > 200 && corner.r < 60)
        #expect(frames[2].bitmap[3, 3] == GIFTestColor.red)
    }

    @Test("lazy thumbnails match eager thumbnails")
    func lazyThumbnails() throws {
        var options = ImageDecodeOptions()
        options.thumbnailPixelSize = PixelSize(width: 24, height: 20)
        let data = try Fixtures.data("gif/pillow_noise.gif")
        let eager = try coder.decode(data, options: options)
        options.lazyAnimatedFrames = true
        let lazy = try coder.decode(data, options: options)
        #expect(lazy.isThumbnail)
        #expect(try lazy.animation?.allFrames() == (try eager.animation?.allFrames()))
        #expect(eager.bitmap.size == PixelSize(width: 24, height: 20))
    }

    @Test("the byte limit counts every frame")
    func scaleDownLimit() throws {
        var options = ImageDecodeOptions()
        options.scaleDownLimitBytes = 16 * 16 * 4 * 3
        let image = try coder.decode(try Fixtures.data("gif/pillow_noise.gif"), options: options)
        #expect(image.isThumbnail)
        let total = image.frameCount * image.bitmap.byteCount
        #expect(total <= 16 * 16 * 4 * 3)
        #expect(image.width < 48)
    }

    @Test("a thumbnail box larger than the image keeps full size")
    func noUpscale() throws {
        var options = ImageDecodeOptions()
        options.thumbnailPixelSize = PixelSize(width: 100, height: 100)
        let image = try coder.decode(try Fixtures.data("gif/static.gif"), options: options)
        #expect(!image.isThumbnail)
        #expect(image.width == 16)
    }
}
