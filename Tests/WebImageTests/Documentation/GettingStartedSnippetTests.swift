import Foundation
import Testing
import WebImage  // not @testable: the articles' snippets must work with the public API alone
import WebImageTestOrigin

// The code of Sources/WebImage/WebImage.docc/GettingStarted.md, kept compiling and working.
// Article and test are kept in sync by hand: change one, change the other. Only the URL (the
// test origin's) and the cache directory (a temporary one) differ from the article.
@Suite("DocC snippets: Getting started")
struct GettingStartedSnippetTests {
    @Test("Load an image: a thumbnail through a manager of one's own, then the callback form")
    func loadSnippet() async throws {
        let directory = temporaryURL("docc")
        defer { try? FileManager.default.removeItem(at: directory) }
        try await withOrigin { origin in
            let url = origin.url("/fixtures/jpeg/photo_800x600.jpg")

            let cache = try ImageCache(namespace: "avatars", directory: directory)
            let manager = ImageManager(cache: cache, loader: ImageDownloader())
            var context = WebImageContext()
            context.imageThumbnailPixelSize = PixelSize(width: 128, height: 128)  // decode small; part of the cache key
            let result = try await manager.loadImage(with: url, options: [.retryFailed], context: context)
            print(result.image.width, result.image.height, result.cacheType)  // 128 96 none, then memory
            #expect(result.image.width == 128 && result.image.height == 96 && result.cacheType == .none)

            let widths = AsyncStream.makeStream(of: Int?.self)
            let operation = manager.loadImage(with: url, options: [.retryFailed], context: context) {
                image, data, error, cacheType, finished, url in
                if let image { print("loaded", image.width, "from", cacheType) }
                if let error { print("failed:", error.code, error) }
                widths.continuation.yield(image?.width)
            }
            _ = operation  // operation.cancel() stops it; the block then gets WebImageError.cancelled
            var iterator = widths.stream.makeAsyncIterator()
            #expect(await iterator.next() == .some(128))
        }
    }

    @Test("Handle errors: undecodable data fails with 1001, then the URL is blocked (1003) until removed")
    func errorSnippet() async throws {
        let directory = temporaryURL("docc")
        defer { try? FileManager.default.removeItem(at: directory) }
        try await withOrigin { origin in
            let url = origin.url("/fixtures/png/gray1.rgba")  // raw pixels: not an image
            let downloader = ImageDownloader()
            let manager = ImageManager(cache: try ImageCache(directory: directory), loader: downloader)

            var codes: [Int] = []
            for attempt in 0..<2 {
                if attempt == 1 {
                    #expect(await eventually(timeout: .seconds(60)) { manager.isFailedURL(url) })
                }
                do throws(WebImageError) {
                    _ = try await manager.loadImage(with: url)
                } catch let error where error.code == .blackListed {
                    manager.removeFailedURL(url)  // or load again with .retryFailed
                    codes.append(1003)
                } catch {
                    print(error.code, error)  // e.g. 2001 unacceptable HTTP status code 404
                    codes.append(error.code.rawValue)
                }
            }
            #expect(codes == [1001, 1003])
            #expect(!manager.isFailedURL(url))
            await downloader.shutdown()
        }
    }
}
