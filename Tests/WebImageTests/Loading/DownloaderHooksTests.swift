import Foundation
import Testing
import WebImageTestOrigin

@testable import WebImage

@Suite("ImageDownloader headers, modifiers, decryptor, events")
struct DownloaderHooksTests {
    typealias Support = DownloaderTestSupport

    @Test("Requests carry the default Accept and User-Agent headers")
    func defaultHeaders() async throws {
        try await Support.withOrigin { origin, downloader in
            #expect(downloader.value(forHTTPHeaderField: "accept") == "image/*,*/*;q=0.8")
            #expect(await Support.download(downloader, origin.url(Support.pngPath)).value != nil)
            let request = try #require(origin.requests(path: Support.pngPath).first)
            #expect(request.method == "GET")
            #expect(request.header("Accept") == "image/*,*/*;q=0.8")
            #expect(request.header("User-Agent") == WebImageUserAgent.default)
        }
    }

    @Test("setValue(_:forHTTPHeaderField:) adds a header to later requests; nil removes it")
    func setAndClearHeader() async throws {
        try await Support.withOrigin { origin, downloader in
            downloader.setValue("on", forHTTPHeaderField: "X-Test")
            #expect(downloader.value(forHTTPHeaderField: "X-Test") == "on")
            #expect(await Support.download(downloader, origin.url(Support.pngPath + "?n=1")).value != nil)
            downloader.setValue(nil, forHTTPHeaderField: "X-Test")
            #expect(downloader.value(forHTTPHeaderField: "X-Test") == nil)
            #expect(await Support.download(downloader, origin.url(Support.pngPath + "?n=2")).value != nil)
            let requests = origin.requests(path: Support.pngPath)
            #expect(requests.map { $0.header("X-Test") } == ["on", nil])
        }
    }

    @Test("A request modifier can change the URL and headers, asynchronously; nil refuses with 2000")
    func requestModifier() async throws {
        try await Support.withOrigin { origin, downloader in
            let target = origin.url(Support.jpegPath)
            downloader.requestModifier = ImageDownloadRequestModifier { request in
                await Task.yield()
                var request = request
                request.url = target
                request.headers["X-Modified"] = "yes"
                return request
            }
            let result = await Support.download(downloader, origin.url(Support.pngPath))
            #expect(result.value?.image.width == 800)
            #expect(origin.requests(path: Support.jpegPath).first?.header("X-Modified") == "yes")
            #expect(origin.requestCount(path: Support.pngPath) == 0)

            // The context's modifier wins over the downloader's.
            var context = WebImageContext()
            context.downloadRequestModifier = ImageDownloadRequestModifier(headers: ["X-From": "context"])
            #expect(await Support.download(downloader, origin.url(Support.pngPath), context: context).value != nil)
            #expect(origin.requests(path: Support.pngPath).first?.header("X-From") == "context")

            downloader.requestModifier = ImageDownloadRequestModifier { _ in nil }
            let error = try #require(await Support.download(downloader, origin.url(Support.pngPath + "?n=3")).error)
            #expect(error.code == 2000)
            #expect(origin.requestCount(path: Support.pngPath) == 1)
        }
    }

    @Test("The headers filter edits headers before the modifier; nil refuses with 2000")
    func headersFilter() async throws {
        try await Support.withOrigin { origin, downloader in
            downloader.headersFilter = { url, headers in
                var headers = headers
                headers["X-Filtered"] = url.lastPathComponent
                return headers
            }
            #expect(await Support.download(downloader, origin.url(Support.pngPath)).value != nil)
            #expect(origin.requests(path: Support.pngPath).first?.header("X-Filtered") == "rgb8.png")
            downloader.headersFilter = { _, _ in nil }
            #expect(await Support.download(downloader, origin.url(Support.jpegPath)).error?.code == 2000)
        }
    }

    @Test("A response modifier's 404 fails with 2001 and shows in token.response; nil fails with 2003")
    func responseModifier() async throws {
        try await Support.withOrigin { origin, downloader in
            var context = WebImageContext()
            context.downloadResponseModifier = ImageDownloadResponseModifier(statusCode: 404, headers: ["X-New": "1"])
            let recorder = ResultRecorder()
            let token = downloader.downloadImage(
                with: origin.url(Support.pngPath), context: context, completion: recorder.completion)
            #expect(await recorder.result().error == .invalidDownloadStatusCode(404))
            #expect(token?.response?.statusCode == 404)
            #expect(token?.response?.headers["X-New"] == "1")

            // The default status is 200: a 500 becomes acceptable.
            context.downloadResponseModifier = ImageDownloadResponseModifier()
            #expect(
                await Support.download(downloader, origin.url(Support.pngPath + "?status=500"), context: context).value
                    != nil)

            downloader.responseModifier = ImageDownloadResponseModifier { _ in nil }
            let error = try #require(await Support.download(downloader, origin.url(Support.jpegPath)).error)
            #expect(error == .invalidDownloadResponse)
            #expect(error.code == 2003)
        }
    }

    @Test("The base64 decryptor decodes an encoded body; a decryptor returning nil fails with 1001")
    func decryptor() async throws {
        try await Support.withOrigin { origin, downloader in
            let png = try Fixtures.data("png/rgb8.png")
            origin.register(path: "/encoded", body: Data(png.base64EncodedString().utf8), contentType: "text/plain")
            var context = WebImageContext()
            context.downloadDecryptor = .base64
            let result = try await Support.download(downloader, origin.url("/encoded"), context: context).get()
            #expect(result.data == png)
            #expect(result.image.width > 0)
            downloader.decryptor = ImageDownloadBlockDecryptor { _, _, _ in nil }
            let error = try #require(await Support.download(downloader, origin.url(Support.pngPath)).error)
            #expect(error.code == 1001)
        }
    }

    @Test("A per-request response handler sees the status and headers before the completion")
    func responseHandler() async throws {
        try await Support.withOrigin { origin, downloader in
            let seen = Locked<[ImageDownloadResponse]>([])
            let recorder = ResultRecorder()
            var context = WebImageContext()
            context.downloadResponseHandler = { response in
                #expect(recorder.terminal == nil)
                seen.withLock { $0.append(response) }
            }
            downloader.downloadImage(
                with: origin.url(Support.pngPath + "?header=X-Hello%3Aworld"), context: context,
                completion: recorder.completion)
            #expect(await recorder.result().value != nil)
            let responses = seen.withLock { $0 }
            #expect(responses.count == 1)
            #expect(responses.first?.statusCode == 200)
            #expect(responses.first?.headers["X-Hello"] == "world")
        }
    }

    @Test("The events stream reports start, response, stop and finish to every subscriber")
    func events() async throws {
        try await Support.withOrigin { origin, downloader in
            let first = downloader.events()
            let second = downloader.events()
            let url = origin.url(Support.pngPath)
            #expect(await Support.download(downloader, url).value != nil)
            #expect(await Support.download(downloader, origin.url("/missing")).error != nil)
            for stream in [first, second] {
                var names: [String] = []
                for await event in stream {
                    switch event {
                    case .start(let eventURL):
                        names.append(eventURL == url ? "start" : "start-missing")
                    case .receivedResponse(_, let response): names.append("response-\(response.statusCode)")
                    case .stop: names.append("stop")
                    case .finish: names.append("finish")
                    }
                    if names.count == 6 { break }
                }
                #expect(names == ["start", "response-200", "stop", "finish", "start-missing", "stop"])
            }
        }
    }
}
