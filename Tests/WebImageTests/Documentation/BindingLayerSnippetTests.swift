import Foundation
import Synchronization
import Testing
import WebImage  // not @testable: the articles' snippets must work with the public API alone
import WebImageDisplay
import WebImageTestOrigin

// The code of Sources/WebImage/WebImage.docc/BindingLayer.md, kept compiling and working.
// Article and test are kept in sync by hand: change one, change the other. Only the URLs (the
// test origin's) differ from the article.
@Suite("DocC snippets: Binding layer and prefetching")
struct BindingLayerSnippetTests {
    @Test("A target shows the loaded image and its completion runs once")
    func targetSnippet() async throws {
        let directory = temporaryURL("docc")
        defer { try? FileManager.default.removeItem(at: directory) }
        try await withOrigin { origin in
            let url = origin.url("/fixtures/png/rgba8.png")
            let downloader = ImageDownloader()
            let manager = ImageManager(cache: try ImageCache(directory: directory), loader: downloader)
            let placeholder = Image(bitmap: ImageBitmap(width: 1, height: 1, fill: .white))
            let completions = Mutex(0)

            final class Thumbnail: WebImageTarget {  // a GTK widget wrapper, a terminal cell, a test double
                let pixels = Mutex<Image?>(nil)
                let imageManager: ImageManager  // optional: the default is ImageManager.shared
                init(_ manager: ImageManager) { imageManager = manager }
                func displayWebImage(_ image: Image?, cacheType: ImageCacheType, url: URL?) {
                    pixels.withLock { $0 = image }  // runs on WebImageBinding.defaultQueue (or the context's queue)
                }
            }
            let cell = Thumbnail(manager)
            cell.setImage(
                with: url, placeholder: placeholder,
                completed: { image, error, cacheType, url in
                    print(image?.width ?? 0, error?.code ?? 0, cacheType)
                    completions.withLock { $0 += 1 }
                })

            #expect(await eventually(timeout: .seconds(60)) { completions.withLock { $0 } == 1 })
            #expect(cell.pixels.withLock { $0?.width } == 11)
            await downloader.shutdown()
        }
    }

    @Test("Prefetching: the async counts, then a token's blocks")
    func prefetchSnippet() async throws {
        let directory = temporaryURL("docc")
        defer { try? FileManager.default.removeItem(at: directory) }
        try await withOrigin { origin in
            let urls = ["png/rgba8.png", "jpeg/baseline.jpg", "gif/static.gif"].map { origin.url("/fixtures/" + $0) }
            let downloader = ImageDownloader()
            let manager = ImageManager(cache: try ImageCache(directory: directory), loader: downloader)

            let prefetcher = ImagePrefetcher(manager: manager)  // at most 3 loads at once, over every call
            let counts = await prefetcher.prefetch(urls)  // finishedCount, skippedCount (failed or cancelled)
            print(counts.finishedCount, counts.skippedCount, counts.totalCount)
            #expect(counts == ImagePrefetchResult(finishedCount: 3, skippedCount: 0, totalCount: 3))

            let token = prefetcher.prefetchURLs(urls, progress: { finished, total in print(finished, "of", total) }) {
                finished, skipped in print("done:", finished, "finished,", skipped, "skipped")
            }
            token?.cancel()  // stops this token's loads and drops its blocks; other tokens continue
            #expect(token?.isCancelled == true)
            #expect(
                origin.totalRequestCount == 3, "the second prefetch made no HTTP request (cached, or cancelled first)")
            await downloader.shutdown()
        }
    }
}
