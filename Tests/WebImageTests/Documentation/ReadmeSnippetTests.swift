import Foundation
import Synchronization
import Testing
import WebImage  // not @testable: the README's snippets must work with the public API alone
import WebImageTestOrigin

/// The README's code, kept compiling and working (Nuke keeps its documentation snippets the same way).
@Suite("README snippets")
struct ReadmeSnippetTests {
    @Test("Decoding and encoding: a thumbnail decode, then WebP")
    func decodingSnippet() throws {
        let data = try Fixtures.data("jpeg/photo_800x600.jpg")
        var options = ImageDecodeOptions()
        options.thumbnailPixelSize = PixelSize(width: 400, height: 400)
        let image = try ImageCodersManager.shared.decode(data, options: options)
        #expect(image.isThumbnail && image.width == 400 && image.height == 300)

        var encode = ImageEncodeOptions()
        encode.compressionQuality = 0.8
        let webp = try ImageCodersManager.shared.encode(image, as: .webp, options: encode)
        #expect(ImageFormat(detecting: webp) == .webp)
    }

    @Test("Caching: store, then a query hits memory")
    func cachingSnippet() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("readme-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let data = try Fixtures.data("png/pillow_rgba8.png")
        let image = try ImageCodersManager.shared.decode(data, options: ImageDecodeOptions())
        let url = URL(string: "https://example.com/a.png")!

        let cache = try ImageCache(namespace: "thumbnails", directory: directory)
        try await cache.store(image, data: data, forKey: url.absoluteString)
        let hit = try await cache.queryImage(forKey: url.absoluteString)
        #expect(hit.cacheType == .memory)
        #expect(await cache.totalDiskCount() == 1)
    }

    @Test("Transforming: a thumbnail pipeline decoded at its hint, and its cache key")
    func transformingSnippet() throws {
        let data = try Fixtures.data("jpeg/photo_800x600.jpg")
        let key = "https://example.com/photo.jpg"

        let thumbnail = ImagePipelineTransformer([
            ImageResizingTransformer(size: PixelSize(width: 200, height: 200), scaleMode: .aspectFill),
            ImageRoundCornerTransformer(radius: 16),
        ])
        var options = ImageDecodeOptions()
        if let hint = thumbnail.decodePixelSize(forSourceSize: PixelSize(width: 800, height: 600)) {
            options.thumbnailPixelSize = hint
        }
        let image = try thumbnail.transformedImage(
            ImageCodersManager.shared.decode(data, options: options), forKey: key)
        let cacheKey = CacheKeys.transformed(key, transformerKey: thumbnail.transformerKey)

        #expect(image.width == 200 && image.height == 200 && image.isTransformed)
        #expect(
            cacheKey
                == "https://example.com/photo-SDImageResizingTransformer({200.000000,200.000000},2)-"
                + "SDImageRoundCornerTransformer(16.000000,18446744073709551615,0.000000,(null)).jpg")
    }

    @Test("Loading: a download, its metadata, and the bytes alone")
    func loadingSnippet() async throws {
        try await withOrigin { origin in
            let url = origin.url("/fixtures/jpeg/photo_800x600.jpg?etag=v1")

            let downloader = ImageDownloader(config: .default)  // 6 at a time, 15 s idle timeout
            let result = try await downloader.loadImage(with: url, options: [.highPriority])
            print(result.image.width, result.metadata?.etag ?? "-")  // validators kept for revalidation
            let bytes = try await downloader.downloadData(with: url)  // no decode

            #expect(result.image.width == 800)
            #expect(result.metadata?.etag == "\"v1\"")
            #expect(bytes == (try Fixtures.data("jpeg/photo_800x600.jpg")))
            await downloader.shutdown()
        }
    }

    @Test("Loading through the manager: a resized load, then a memory hit; the callback API")
    func managerSnippet() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("readme-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        try await withOrigin { origin in
            let url = origin.url("/fixtures/jpeg/photo_800x600.jpg")
            let downloader = ImageDownloader()

            let cache = try ImageCache(namespace: "avatars", directory: directory)
            let manager = ImageManager(cache: cache, loader: downloader)
            var context = WebImageContext()
            context.imageTransformer = .transformer(ImageResizingTransformer(size: PixelSize(width: 64, height: 64)))
            let result = try await manager.loadImage(with: url, context: context)  // memory, disk, then the network
            print(result.image.width, result.cacheType)

            #expect(result.image.width == 64 && result.cacheType == .none)
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

    @Test("Prefetching and binding: a prefetch's counts, then a target showing a cached image")
    func prefetchingSnippet() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("readme-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        try await withOrigin { origin in
            let downloader = ImageDownloader()
            let manager = ImageManager(cache: try ImageCache(directory: directory), loader: downloader)
            let urls = ["png/rgba8.png", "jpeg/baseline.jpg", "gif/static.gif"].map { origin.url("/fixtures/" + $0) }
            let placeholder = Image(bitmap: ImageBitmap(width: 1, height: 1, fill: .white))

            let prefetcher = ImagePrefetcher(manager: manager)  // at most 3 loads at once, over every call
            let counts = await prefetcher.prefetch(urls)  // finishedCount, skippedCount (failed or cancelled)

            final class Thumbnail: WebImageTarget {  // a GTK widget wrapper, a terminal cell, a test double
                let pixels = Mutex<Image?>(nil)
                let imageManager: ImageManager  // optional: the default is ImageManager.shared
                init(_ manager: ImageManager) { imageManager = manager }
                func displayWebImage(_ image: Image?, cacheType: ImageCacheType, url: URL?) {
                    pixels.withLock { $0 = image }  // runs on WebImageBinding.defaultQueue (or the context's queue)
                }
            }
            let cell = Thumbnail(manager)
            cell.setImage(with: urls[0], placeholder: placeholder)  // cancels the cell's previous load

            #expect(counts == ImagePrefetchResult(finishedCount: 3, skippedCount: 0, totalCount: 3))
            #expect(await eventually(timeout: .seconds(60)) { cell.pixels.withLock { $0?.width } == 11 })
            #expect(origin.totalRequestCount == 3, "the bound image came from the cache")
            await downloader.shutdown()
        }
    }
}
