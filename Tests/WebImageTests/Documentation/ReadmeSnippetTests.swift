import Foundation
import Testing
import WebImage  // not @testable: the README's snippets must work with the public API alone
import WebImageTestOrigin

/// The README's code, kept compiling and working (Nuke keeps its documentation snippets the same way).
/// README and test are kept in sync by hand: change one, change the other. The DocC articles'
/// snippets have their own tests next to this file.
@Suite("README snippets")
struct ReadmeSnippetTests {
    @Test("Quick start: a resized load, then a memory hit; the callback API")
    func quickStartSnippet() async throws {
        let directory = temporaryURL("readme")
        defer { try? FileManager.default.removeItem(at: directory) }
        try await withOrigin { origin in
            let url = origin.url("/fixtures/jpeg/photo_800x600.jpg")
            let downloader = ImageDownloader()

            let cache = try ImageCache(namespace: "avatars", directory: directory)
            let manager = ImageManager(cache: cache, loader: downloader)  // or ImageManager.shared
            var context = WebImageContext()
            context.imageTransformer = .transformer(ImageResizingTransformer(size: PixelSize(width: 64, height: 64)))
            let result = try await manager.loadImage(with: url, context: context)  // memory, disk, then the network
            print(result.image.width, result.cacheType)  // 64 none; the next load of this URL and size: 64 memory
            let png = try ImageCodersManager.shared.encode(result.image, as: .png, options: ImageEncodeOptions())

            #expect(result.image.width == 64 && result.cacheType == .none)
            #expect(try ImageCodersManager.shared.imageInfo(for: png).width == 64)
            // The result is stored in the background; the next load finds it in memory.
            var again = try await manager.loadImage(with: url, context: context)
            for _ in 0..<200 where again.cacheType != .memory {
                try await Task.sleep(for: .milliseconds(10))
                again = try await manager.loadImage(with: url, context: context)
            }
            #expect(again.cacheType == .memory && again.image.width == 64)

            let widths = AsyncStream.makeStream(of: Int?.self)
            manager.loadImage(with: url, options: [.retryFailed]) { image, data, error, cacheType, finished, url in
                // SDWebImage's shape; with .refreshCached it can run twice (cached, then fresh)
                widths.continuation.yield(image?.width)
            }
            var iterator = widths.stream.makeAsyncIterator()
            #expect(await iterator.next() == .some(800))
            await downloader.shutdown()
        }
    }

    @Test("Adding a transformer: grayscale then round corners, through the manager")
    func transformerSnippet() async throws {
        let directory = temporaryURL("readme")
        defer { try? FileManager.default.removeItem(at: directory) }
        try await withOrigin { origin in
            let url = origin.url("/fixtures/png/rgba8.png")
            let downloader = ImageDownloader()
            let manager = ImageManager(cache: try ImageCache(directory: directory), loader: downloader)
            var context = WebImageContext()

            // GrayscaleTransformer is the README's, defined in TransformersSnippetTests.swift.
            context.imageTransformer = .transformer(
                ImagePipelineTransformer([GrayscaleTransformer(), ImageRoundCornerTransformer(radius: 8)]))

            let result = try await manager.loadImage(with: url, context: context)
            let pixels = result.image.bitmap.pixels
            let opaque = stride(from: 0, to: pixels.count, by: 4).filter { pixels[$0 + 3] > 0 }
            #expect(!opaque.isEmpty)
            #expect(opaque.allSatisfy { pixels[$0] == pixels[$0 + 1] && pixels[$0 + 1] == pixels[$0 + 2] })
            #expect(
                manager.cacheKey(for: url, context: context).contains(
                    "GrayscaleTransformer-SDImageRoundCornerTransformer"))
            await downloader.shutdown()
        }
    }
}
