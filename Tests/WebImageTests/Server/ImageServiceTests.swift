import Foundation
import Testing
import WebImageTestOrigin

@testable import WebImage
@testable import WebImageServer

/// The service end to end, in process, against the loopback test origin.
@Suite("Image service: results, formats, caching and errors")
struct ImageServiceTests {
    static func path(_ options: String, _ source: URL, ext: String? = nil) -> String {
        let encoded = Data(source.absoluteString.utf8).base64URLEncodedWithoutPadding()
        return "/_" + (options.isEmpty ? "" : "/" + options) + "/" + encoded + (ext.map { "." + $0 } ?? "")
    }

    static func decode(_ response: ServiceResponse) throws -> Image {
        try ImageCodersManager.shared.decode(response.body, options: ImageDecodeOptions())
    }

    /// Runs `body` with a fresh service (cache in a temporary directory unless `disk` is false).
    static func withService<T>(
        disk: Bool = true, configure: (inout ServiceConfiguration) -> Void = { _ in },
        body: (ImageService, TestOrigin, URL) async throws -> T
    ) async throws -> T {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        var configuration = ServiceConfiguration()
        configuration.allowsLoopbackSources = true  // the test origin is on 127.0.0.1
        if disk { configuration.cacheDirectory = directory }
        configure(&configuration)
        return try await withImageService(configuration) { service in
            try await withOrigin { origin in try await body(service, origin, directory) }
        }
    }

    static let photo = "/fixtures/jpeg/photo_800x600.jpg"

    @Test func aFitRequestAnswersTheSizedImageWithCachingHeaders() async throws {
        try await Self.withService { service, origin, _ in
            let response = await service.respond(
                to: ServiceRequest(path: Self.path("rs:fit:300:200", origin.url(Self.photo))))
            #expect(response.status == 200)
            #expect(response.header("Content-Type") == "image/jpeg")
            #expect(response.header("Cache-Control") == "public, max-age=31536000")
            #expect(response.header("Vary") == "Accept")
            #expect(response.header("ETag")?.hasPrefix("\"") == true)
            #expect(response.header("Last-Modified").flatMap(HTTPDate.parse) != nil)
            #expect(response.header("Content-Disposition") == "inline; filename=\"image.jpg\"")
            let image = try Self.decode(response)
            #expect(image.width == 267 && image.height == 200)
        }
    }

    @Test func acceptPicksAVIFFirstAtQuality63AndItsExtensionWorks() async throws {
        try await Self.withService { service, origin, _ in
            let source = origin.url(Self.photo)
            let avif = await service.respond(
                to: ServiceRequest(path: Self.path("w:100", source), accept: "image/avif,image/webp,*/*"))
            #expect(avif.header("Content-Type") == "image/avif")
            #expect(avif.header("Vary") == "Accept")
            let image = try Self.decode(avif)
            #expect(image.format == .avif && image.width == 100)
            // No quality in the URL means 63, imgproxy's AVIF default: the same bytes as asking for it.
            let named = await service.respond(to: ServiceRequest(path: Self.path("w:100/q:63", source, ext: "avif")))
            #expect(named.header("Content-Type") == "image/avif")
            #expect(named.header("Vary") == nil)
            #expect(named.body == avif.body)
            let other = await service.respond(to: ServiceRequest(path: Self.path("w:100/q:90", source, ext: "avif")))
            #expect(other.body != avif.body)
        }
    }

    /// JPEG XL is written when the URL asks for it; `Accept` alone never picks it (as imgproxy,
    /// whose JPEG XL preference is off by default).
    @Test func anExplicitJPEGXLExtensionWritesJPEGXL() async throws {
        try await Self.withService { service, origin, _ in
            let source = origin.url(Self.photo)
            let jxl = await service.respond(to: ServiceRequest(path: Self.path("w:100", source, ext: "jxl")))
            #expect(jxl.header("Content-Type") == "image/jxl")
            let image = try Self.decode(jxl)
            #expect(image.format == .jpegXL && image.width == 100)
            let negotiated = await service.respond(
                to: ServiceRequest(path: Self.path("w:100", source), accept: "image/jxl,*/*"))
            #expect(negotiated.header("Content-Type") != "image/jxl")
        }
    }

    @Test func acceptPicksWebPAndAnExplicitFormatWins() async throws {
        try await Self.withService { service, origin, _ in
            let source = origin.url(Self.photo)
            let webp = await service.respond(
                to: ServiceRequest(path: Self.path("w:100", source), accept: "image/avif;q=0,image/webp,*/*"))
            #expect(webp.header("Content-Type") == "image/webp")
            let webpFormat = try Self.decode(webp).format
            #expect(webpFormat == .webp)
            let wildcard = await service.respond(to: ServiceRequest(path: Self.path("w:100", source), accept: "*/*"))
            #expect(wildcard.header("Content-Type") == "image/jpeg")
            let png = await service.respond(
                to: ServiceRequest(path: Self.path("w:100", source, ext: "png"), accept: "image/webp"))
            #expect(png.header("Content-Type") == "image/png")
            #expect(png.header("Vary") == nil)
            let named = await service.respond(to: ServiceRequest(path: Self.path("w:100/f:gif", source)))
            let namedFormat = try Self.decode(named).format
            #expect(namedFormat == .gif)
        }
    }

    @Test func repeatsComeFromTheCacheWithoutFetchingTheSourceAgain() async throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        var configuration = ServiceConfiguration()
        configuration.cacheDirectory = directory
        configuration.allowsLoopbackSources = true
        try await withOrigin { origin in
            let request = ServiceRequest(path: Self.path("rs:fill:120:120", origin.url(Self.photo)))
            let first = try await withImageService(configuration) { await $0.respond(to: request) }
            await FileIOExecutor.shared.drain()
            // Another service on the same directory (a restart) finds the result on disk.
            let again = try await withImageService(configuration) { await $0.respond(to: request) }
            #expect(again.status == 200 && again.body == first.body)
            #expect(again.header("ETag") == first.header("ETag"))
            #expect(again.header("Last-Modified") == first.header("Last-Modified"))
            // A different result of the same source reads the source from disk too.
            let otherRequest = ServiceRequest(path: Self.path("rs:fit:50:50", origin.url(Self.photo)))
            let other = try await withImageService(configuration) { await $0.respond(to: otherRequest) }
            #expect(other.status == 200)
            #expect(origin.requestCount(path: Self.photo) == 1)
        }
    }

    @Test func thirtyIdenticalConcurrentRequestsShareOneFetchAndOneRun() async throws {
        try await Self.withService(disk: false) { service, origin, _ in
            let request = ServiceRequest(path: Self.path("rs:fit:64:64", origin.url(Self.photo + "?delay=300")))
            let responses = await withTaskGroup(of: ServiceResponse.self) { group in
                for _ in 0..<30 { group.addTask { await service.respond(to: request) } }
                return await group.reduce(into: []) { $0.append($1) }
            }
            #expect(responses.count == 30)
            #expect(responses.allSatisfy { $0.status == 200 && $0.body == responses[0].body })
            #expect(origin.requestCount(path: Self.photo) == 1)
            #expect(service.runs.count == 0)
            // A repeat is served from memory (this service has no disk cache), even after the
            // source client is closed.
            await service.shutdown()
            #expect(await service.respond(to: request).body == responses[0].body)
            #expect(origin.requestCount(path: Self.photo) == 1)
        }
    }

    @Test func validatorsGiveNotModified() async throws {
        try await Self.withService(disk: false) { service, origin, _ in
            let path = Self.path("w:50", origin.url(Self.photo))
            let first = await service.respond(to: ServiceRequest(path: path))
            let etag = try #require(first.header("ETag"))
            let lastModified = try #require(first.header("Last-Modified"))
            let byTag = await service.respond(to: ServiceRequest(path: path, ifNoneMatch: "\"other\", \(etag)"))
            #expect(byTag.status == 304 && byTag.body.isEmpty && byTag.header("ETag") == etag)
            let byDate = await service.respond(to: ServiceRequest(path: path, ifModifiedSince: lastModified))
            #expect(byDate.status == 304)
            let stale = await service.respond(
                to: ServiceRequest(path: path, ifModifiedSince: "Thu, 01 Jan 1970 00:00:00 GMT"))
            #expect(stale.status == 200 && stale.body == first.body)
            let otherTag = await service.respond(
                to: ServiceRequest(path: path, ifNoneMatch: "\"nope\"", ifModifiedSince: lastModified))
            #expect(otherTag.status == 200, "If-None-Match decides when present")
        }
    }

    @Test func sourceAndRequestFailuresMapToTheirStatuses() async throws {
        try await Self.withService(disk: false) { service, origin, _ in
            func status(_ path: String) async -> (Int, String?, String) {
                let response = await service.respond(to: ServiceRequest(path: path))
                return (
                    response.status, response.header("Cache-Control"), String(decoding: response.body, as: UTF8.self)
                )
            }
            let cases: [(String, Int)] = [
                (Self.path("w:10", origin.url("/fixtures/none.jpg")), 404),
                (Self.path("w:10", origin.url(Self.photo + "?status=503")), 502),
                (Self.path("w:10", origin.url("/garbage/2000")), 422),
                (Self.path("w:10", origin.url("/bytes/100")), 422),
                (Self.path("frobnicate:1", origin.url(Self.photo)), 400),
                (Self.path("exp:1000", origin.url(Self.photo)), 404),
                ("/_/w:10/plain/ftp://host/x.jpg", 400),
                ("/_/w:10/plain/file:///etc/passwd", 400),
            ]
            for (path, expected) in cases {
                let (code, cacheControl, body) = await status(path)
                #expect(code == expected, "\(path): \(code) \(body)")
                #expect(cacheControl == "no-cache")
                #expect(!body.contains("/work/") && !body.contains("Fixtures"))
            }
            let (_, _, message) = await status(Self.path("frobnicate:1", origin.url(Self.photo)))
            #expect(message.contains("frobnicate"))
        }
    }

    @Test func signedServicesRefuseBadSignaturesAndAllowListsRefuseOtherSources() async throws {
        let pair = URLSigner.KeyPair(hexKey: "736563726574", hexSalt: "68656C6C6F")!
        try await Self.withService(
            disk: false, configure: { $0.signer = URLSigner(keyPairs: [pair]) },
            body: { service, origin, _ in
                let unsigned = Self.path("w:20", origin.url(Self.photo))
                #expect(await service.respond(to: ServiceRequest(path: unsigned)).status == 403)
                let rest = String(unsigned.dropFirst(2))
                let signed = "/" + URLSigner.signature(of: rest, with: pair) + rest
                #expect(await service.respond(to: ServiceRequest(path: signed)).status == 200)
                #expect(origin.totalRequestCount == 1, "a refused request never reaches the source")
            })
        try await Self.withService(
            disk: false, configure: { $0.allowedSourcePrefixes = ["https://images.example/"] },
            body: { service, origin, _ in
                let request = ServiceRequest(path: Self.path("w:20", origin.url(Self.photo)))
                #expect(await service.respond(to: request).status == 403)
                #expect(origin.totalRequestCount == 0)
            })
    }

    @Test func attachmentFileNameAndMaxBytesShapeTheResponse() async throws {
        try await Self.withService(disk: false) { service, origin, _ in
            let source = origin.url(Self.photo)
            let attached = await service.respond(
                to: ServiceRequest(path: Self.path("fn:holiday/att:1", source, ext: "webp")))
            #expect(attached.header("Content-Disposition") == "attachment; filename=\"holiday.webp\"")
            let full = await service.respond(to: ServiceRequest(path: Self.path("q:95", source, ext: "jpg")))
            let small = await service.respond(to: ServiceRequest(path: Self.path("q:95/mb:20000", source, ext: "jpg")))
            #expect(full.body.count > 20_000)
            #expect(small.status == 200 && small.body.count <= 20_000)
        }
    }

    @Test func metadataIsStrippedUnlessAskedToKeepIt() async throws {
        try await Self.withService(disk: false) { service, origin, _ in
            let source = origin.url("/fixtures/metadata/photo.jpg")
            var read = ImageDecodeOptions()
            read.readMetadata = .all
            read.convertToSRGB = false
            // kcr:0: the fixture's XMP names a creator, which keep_copyright (the default) keeps.
            let stripped = await service.respond(to: ServiceRequest(path: Self.path("w:16/kcr:0", source)))
            let strippedImage = try ImageCodersManager.shared.decode(stripped.body, options: read)
            #expect(strippedImage.metadata.exif == nil && strippedImage.metadata.xmp == nil)
            // The source's sRGB profile went with the conversion to sRGB (strip_color_profile).
            #expect(strippedImage.metadata.iccProfile == nil)
            // EXIF orientation 6 was applied: 48x32 stored, 32x48 shown, halved.
            #expect(strippedImage.width == 16 && strippedImage.height == 24)
            let kept = await service.respond(to: ServiceRequest(path: Self.path("w:16/sm:0", source)))
            let keptImage = try ImageCodersManager.shared.decode(kept.body, options: read)
            #expect(keptImage.metadata.exif != nil && keptImage.metadata.xmp != nil)
            #expect(keptImage.width == 16 && keptImage.height == 24)
        }
    }

    @Test func aDisplayP3SourceIsServedInSRGBUnlessTheProfileIsKept() async throws {
        try await Self.withService(disk: false) { service, origin, _ in
            let source = try Fixtures.data("color/display-p3.png")
            origin.register(path: "/p3.png", body: source, contentType: "image/png")
            var read = ImageDecodeOptions()
            read.convertToSRGB = false
            // Nothing else to do, yet not passed through: the pixels must be converted.
            let converted = await service.respond(to: ServiceRequest(path: Self.path("", origin.url("/p3.png"))))
            #expect(converted.status == 200 && converted.body != source)
            let image = try ImageCodersManager.shared.decode(converted.body, options: read)
            #expect(image.bitmap.pixels == Array(try Fixtures.data("color/display-p3.png.rgba")))
            #expect(image.metadata.iccProfile == nil)
            let kept = await service.respond(to: ServiceRequest(path: Self.path("scp:0", origin.url("/p3.png"))))
            #expect(kept.status == 200 && kept.body == source)
            let keptSmaller = await service.respond(
                to: ServiceRequest(path: Self.path("w:32/scp:false", origin.url("/p3.png"))))
            let small = try ImageCodersManager.shared.decode(keptSmaller.body, options: read)
            let profile = try Fixtures.data("color/display-p3.icc")
            #expect(small.width == 32 && small.metadata.iccProfile == profile)
        }
    }

    @Test func sourcesBrowsersCannotShowComeOutAsJPEGOrPNGUnlessAFormatIsNamed() async throws {
        try await Self.withService(disk: false) { service, origin, _ in
            let cases: [(path: String, expected: String)] = [
                ("/fixtures/heic/photo.heic", "image/jpeg"),
                ("/fixtures/tiff/rgba.tif", "image/png"),
                ("/fixtures/bmp/rgb24.bmp", "image/jpeg"),
            ]
            for item in cases {
                let response = await service.respond(to: ServiceRequest(path: Self.path("w:8", origin.url(item.path))))
                #expect(response.status == 200 && response.header("Content-Type") == item.expected, "\(item.path)")
            }
            let named = await service.respond(
                to: ServiceRequest(path: Self.path("w:8", origin.url(cases[0].path), ext: "heic")))
            #expect(named.status == 200 && named.header("Content-Type") == "image/heic")
        }
    }

    @Test func metricsCountRequestsByStatusCacheTiersAndSourceBytes() async throws {
        try await Self.withService(disk: false) { service, origin, _ in
            let path = Self.path("w:40", origin.url(Self.photo))
            _ = await service.respond(to: ServiceRequest(path: path))
            _ = await service.respond(to: ServiceRequest(path: path))
            _ = await service.respond(to: ServiceRequest(path: Self.path("nope:1", origin.url(Self.photo))))
            let text = service.metricsText()
            let sourceBytes = try Fixtures.data("jpeg/photo_800x600.jpg").count
            #expect(text.contains("webimage_requests_total{status=\"200\"} 2"), "\(text)")
            #expect(text.contains("webimage_requests_total{status=\"400\"} 1"))
            #expect(text.contains("webimage_cache_hits_total{tier=\"memory\"} 1"))
            #expect(text.contains("webimage_cache_misses_total 1"))
            #expect(text.contains("webimage_source_bytes_total \(sourceBytes)"))
            #expect(text.contains("webimage_request_duration_seconds_count 3"))
            #expect(text.contains("webimage_processing_duration_seconds_count 1"))
            #expect(text.contains("webimage_requests_in_flight 0"))
            #expect(text.contains("webimage_processing_queue_depth 0"))
        }
    }

    @Test func animationsKeepAtMostTheServicesFramesTheFirstOnes() async throws {
        try await Self.withService(
            disk: false, configure: { $0.maxAnimationFrames = 2 },
            body: { service, origin, _ in
                let response = await service.respond(
                    to: ServiceRequest(path: Self.path("w:10", origin.url("/fixtures/webp/animated.webp"))))
                #expect(response.status == 200)
                let image = try ImageCodersManager.shared.decode(response.body, options: ImageDecodeOptions())
                let source = try ImageCodersManager.shared.decode(
                    Data(contentsOf: Fixtures.directory.appendingPathComponent("webp/animated.webp")),
                    options: ImageDecodeOptions())
                #expect(source.frameCount == 5 && image.frameCount == 2)
                #expect(image.animation.map { $0.duration(at: 1) } == source.animation.map { $0.duration(at: 1) })
            })
    }

    @Test func aSourceAboveTheByteLimitIsUnprocessable() async throws {
        try await Self.withService(
            disk: false, configure: { $0.maxSourceBytes = 1000 },
            body: { service, origin, _ in
                let response = await service.respond(
                    to: ServiceRequest(path: Self.path("w:10", origin.url(Self.photo))))
                #expect(response.status == 422)
                #expect(String(decoding: response.body, as: UTF8.self).contains("larger than allowed"))
            })
    }

    @Test func eachRequestIsLoggedWithItsStatusAndTime() async throws {
        let logs = CapturedLogs()
        var configuration = ServiceConfiguration()
        configuration.allowsLoopbackSources = true
        try await withImageService(configuration, logger: logs.logger("serve")) { service in
            try await withOrigin { origin in
                _ = await service.respond(to: ServiceRequest(path: Self.path("w:10", origin.url(Self.photo))))
                _ = await service.respond(to: ServiceRequest(path: "/_/nope:1/plain/http://h/x.jpg"))
            }
        }
        let lines = logs.entries
        #expect(lines.count == 2)
        #expect(lines.first?.metadata["status"] == "200" && lines.last?.metadata["status"] == "400")
        #expect(lines.allSatisfy { $0.message == "request" && $0.metadata["ms"] != nil })
    }

    @Test func anUnprocessedRequestPassesTheSourceBytesThrough() async throws {
        try await Self.withService(disk: false) { service, origin, _ in
            let photo = try Fixtures.data("jpeg/photo_800x600.jpg")
            let same = await service.respond(to: ServiceRequest(path: Self.path("", origin.url(Self.photo))))
            #expect(same.status == 200 && same.body == photo)
            let sameSize = await service.respond(
                to: ServiceRequest(path: Self.path("w:800/g:sm", origin.url(Self.photo), ext: "jpg")))
            #expect(sameSize.body == photo)
            // Another format, a changed size or an explicit quality is processed.
            for (options, ext) in [("", "webp"), ("w:799", "jpg"), ("q:50", "jpg")] {
                let changed = await service.respond(
                    to: ServiceRequest(path: Self.path(options, origin.url(Self.photo), ext: ext)))
                #expect(changed.status == 200 && changed.body != photo, "\(options) \(ext)")
            }
            // A source whose EXIF says it is turned is turned.
            let turned = try Fixtures.data("metadata/photo.jpg")
            let upright = await service.respond(
                to: ServiceRequest(path: Self.path("", origin.url("/fixtures/metadata/photo.jpg"))))
            #expect(upright.body != turned)
        }
    }

    @Test func aSourceWithXMPPassesThroughOnlyWhenMetadataIsKept() async throws {
        try await Self.withService(disk: false) { service, origin, _ in
            let photo = try Fixtures.data("jpeg/photo_800x600.jpg")
            let tagged = JPEGMetadata.inserting(
                ImageMetadata(xmp: try Fixtures.data("metadata/metadata.xmp")), into: photo)
            origin.register(path: "/tagged.jpg", body: tagged, contentType: "image/jpeg")
            let stripped = await service.respond(
                to: ServiceRequest(path: Self.path("kcr:0", origin.url("/tagged.jpg"))))
            #expect(stripped.status == 200 && stripped.body != tagged)
            #expect(MetadataProbe.kinds(in: stripped.body).isDisjoint(with: [.exif, .xmp]))
            let kept = await service.respond(to: ServiceRequest(path: Self.path("sm:0", origin.url("/tagged.jpg"))))
            #expect(kept.body == tagged)
        }
    }
}
