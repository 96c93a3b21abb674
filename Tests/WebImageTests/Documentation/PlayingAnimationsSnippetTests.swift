import Foundation
import Testing
import WebImage  // not @testable: the articles' snippets must work with the public API alone
import WebImageDisplay

// The code of Sources/WebImage/WebImage.docc/PlayingAnimations.md, kept compiling and working.
// Article and test are kept in sync by hand: change one, change the other.
@Suite("DocC snippets: Playing animations")
struct PlayingAnimationsSnippetTests {
    @Test("An animation played through the player, frame by frame")
    func playerSnippet() async throws {
        let data = try Fixtures.data("apng/palette.png")  // 3 frames of 50 ms, 1 loop
        let shown = Locked<[Int]>([])
        func show(_ bitmap: ImageBitmap, index: Int) { shown.withLock { $0.append(index) } }

        var options = ImageDecodeOptions()
        options.lazyAnimatedFrames = true  // frames are decoded as the player needs them
        let image = try ImageCodersManager.shared.decode(data, options: options)
        guard let player = AnimatedImagePlayer(image: image) else { return }  // nil for a still image
        player.play()
        for await change in player.frameChanges() {  // ends after the last loop, or on player.stop()
            show(change.bitmap, index: change.index)
        }
        #expect(shown.withLock { $0.last } == 2)
        #expect(player.isFinished)
    }

    @Test("A binding target that receives players")
    func targetSnippet() async throws {
        let drawn = Locked<Int>(0)
        @Sendable func draw(_ bitmap: ImageBitmap) { drawn.withLock { $0 += 1 } }
        final class AnimatedCell: AnimatedWebImageTarget {
            let imageManager: ImageManager
            let draw: @Sendable (ImageBitmap) -> Void
            init(_ manager: ImageManager, draw: @escaping @Sendable (ImageBitmap) -> Void) {
                imageManager = manager
                self.draw = draw
            }
            func displayWebImage(_ image: Image?, cacheType: ImageCacheType, url: URL?) {
                // the placeholder, a still image, or an animation's first frame
            }
            func displayWebImagePlayer(_ player: AnimatedImagePlayer?, url: URL?) {
                // nil: the previous player was stopped because another image is loading
                guard let player else { return }
                let draw = self.draw
                Task { for await change in player.frameChanges() { draw(change.bitmap) } }
            }
        }
        let directory = temporaryURL("docc")
        defer { try? FileManager.default.removeItem(at: directory) }
        let manager = ImageManager(cache: try ImageCache(directory: directory), loader: FileImageLoader())
        let cell = AnimatedCell(manager, draw: draw)
        cell.setImage(with: Fixtures.directory.appendingPathComponent("apng/palette.png"))
        // The player runs in real time (three frames of 50 ms), so a loaded machine may finish it
        // before the drawing task subscribes: that task then draws the frame showing, the last.
        #expect(await eventually { drawn.withLock { $0 } >= 1 })
        let player = try #require(cell.currentImagePlayer())
        #expect(player.frameCount == 3)
        #expect(await eventually { player.isFinished && player.currentFrameIndex == 2 })
    }
}
