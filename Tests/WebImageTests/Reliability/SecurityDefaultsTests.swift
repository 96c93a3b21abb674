import Foundation
import Testing
import WebImageTestOrigin

@testable import WebImage

/// The defaults that protect a server loading URLs it was sent: which schemes load, and the
/// limits that are on without being asked for.
@Suite("Security defaults")
struct SecurityDefaultsTests {
    @Test("The default loaders handle neither file: nor unknown schemes (the manager: notLoaded); data: and http load")
    func defaultSchemes() async throws {
        let png = try Fixtures.data("png/rgb8.png")
        let file = Fixtures.directory.appendingPathComponent("png/rgb8.png")
        try await ManagerOriginFixture.run { fixture in
            let manager = ImageManager(cache: fixture.cache, loader: ImageLoadersManager.shared)
            for string in [file.absoluteString, "file:///etc/passwd", "ftp://127.0.0.1/a.png", "gopher://x/y"] {
                let url = try #require(URL(string: string))
                let error = await loadError { () throws(WebImageError) in try await manager.loadImage(with: url) }
                #expect(error == .notLoaded("\(url.absoluteString) (no loader handles it)"))
                do {
                    let direct = try await ImageLoadersManager.shared.loadImage(with: url).image
                    Issue.record("the shared loaders loaded \(string): \(direct.width)x\(direct.height)")
                } catch {
                    #expect((error as? WebImageError)?.code == WebImageError.invalidURL("").code, "\(string): \(error)")
                }
            }
            let dataURL = try #require(URL(string: "data:image/png;base64,\(png.base64EncodedString())"))
            #expect(try await manager.loadImage(with: dataURL).data == png)
            // The shared manager's downloader is ImageDownloader.shared; the fixture's origin is
            // reached through the fixture's own downloader instead.
            #expect(
                try await fixture.manager.loadImage(with: fixture.origin.url(ManagerOriginFixture.pngPath)).data == png)
        }
    }

    @Test("file: loads once FileImageLoader is added, for the manager that has it only")
    func fileLoaderIsOptIn() async throws {
        let png = try Fixtures.data("png/rgb8.png")
        let file = Fixtures.directory.appendingPathComponent("png/rgb8.png")
        let loaders = ImageLoadersManager(loaders: [DataURLImageLoader()])
        loaders.addLoader(FileImageLoader())
        let manager = ImageManager(
            cache: ImageCache(memoryCache: MemoryCache(), diskCache: FakeDiskCache()), loader: loaders)
        #expect(try await manager.loadImage(with: file).data == png)
        #expect(!ImageLoadersManager.shared.canRequestImage(for: file, options: [], context: nil))
    }

    @Test("Limits on by default: response size, pixel count, animation bytes, redirects, timeouts; TLS verified")
    func limitsOnByDefault() {
        let config = ImageDownloaderConfig.default
        #expect(config.maxResponseSize == 256 << 20)
        #expect(config.maxRedirects == 10)
        #expect(config.effectiveTimeout == 15)
        #expect(config.effectiveResourceTimeout == 120)
        let decode = ImageDecodeOptions()
        #expect(decode.maxPixelCount == 100_000_000)
        #expect(!ImageDownloaderOptions([], hasCachedImage: false).contains(.allowInvalidSSLCertificates))
    }
}
