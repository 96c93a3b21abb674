import Foundation
import Testing
import WebImageTestOrigin

@_spi(Internals) @testable import WebImage
@_spi(Internals) @testable import WebImageServer

/// The source side of HTTP caching: the client's validators go to the source on a miss and its
/// 304 comes back; the source's `Last-Modified` (and, with passthrough, its `Cache-Control` or
/// `Expires`) is sent on, from a fresh result and from a stored one alike.
@Suite("Image service: the source's HTTP caching headers")
struct SourceHTTPCachingTests {
    static let sourceDate = "Sat, 01 Jan 2022 00:00:00 GMT"

    /// A service on a fresh cache directory (kept across `runs`, each a new service), and the origin.
    static func withService(
        runs: Int = 1, configure: (inout ServiceConfiguration) -> Void = { _ in },
        _ body: (ImageService, TestOrigin, Int) async throws -> Void
    ) async throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        try await withOrigin { origin in
            var configuration = ServiceConfiguration()
            configuration.allowsLoopbackSources = true
            configuration.cacheDirectory = directory
            configure(&configuration)
            for run in 0..<runs {
                try await withImageService(configuration) { service in try await body(service, origin, run) }
                await FileIOExecutor.shared.drain()
            }
        }
    }

    /// A URL of ours for the fixture behind the origin with `query` (names and values as they
    /// read, encoded here), encoded as a plain source.
    static func path(_ origin: TestOrigin, _ query: String, options: String = "w:10") -> String {
        let pairs = query.split(separator: "=", maxSplits: 1).map {
            $0.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? ""
        }
        let source = origin.url("/fixtures/png/rgba8.png").absoluteString + "?" + pairs.joined(separator: "=")
        let plain = source.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? ""
        return "/_/\(options)/plain/\(plain)@png"
    }

    @Test func theSourcesLastModifiedIsSentFreshAndFromTheCache() async throws {
        try await Self.withService(runs: 2) { service, origin, _ in
            let response = await service.respond(to: ServiceRequest(path: Self.path(origin, "lastModified=1")))
            #expect(response.status == 200 && response.header("Last-Modified") == Self.sourceDate)
            // The client's copy is as new as the source's: 304 from the result, whichever run.
            let again = await service.respond(
                to: ServiceRequest(path: Self.path(origin, "lastModified=1"), ifModifiedSince: Self.sourceDate))
            #expect(again.status == 304 && again.header("Last-Modified") == Self.sourceDate)
        }
    }

    @Test func onAMissTheClientsValidatorsGoToTheSourceAndItsNotModifiedComesBack() async throws {
        try await Self.withService { service, origin, _ in
            let byDate = Self.path(origin, "lastModified=1", options: "w:11")
            let notModified = await service.respond(to: ServiceRequest(path: byDate, ifModifiedSince: Self.sourceDate))
            #expect(notModified.status == 304 && notModified.body.isEmpty)
            #expect(notModified.header("Cache-Control") == "public, max-age=31536000")
            let sent = origin.requests(path: "/fixtures/png/rgba8.png").last
            #expect(sent?.header("If-Modified-Since") == Self.sourceDate)
            // An older copy: the source answers in full, and the result is made.
            let older = await service.respond(
                to: ServiceRequest(path: byDate, ifModifiedSince: "Fri, 01 Jan 2021 00:00:00 GMT"))
            let olderInfo = try ImageCodersManager.shared.imageInfo(for: older.body)
            #expect(older.status == 200 && olderInfo.width == 11)

            let byTag = Self.path(origin, "etag=v7", options: "w:12")
            let tagged = await service.respond(to: ServiceRequest(path: byTag, ifNoneMatch: "\"v7\""))
            #expect(tagged.status == 304)
            #expect(origin.requests(path: "/fixtures/png/rgba8.png").last?.header("If-None-Match") == "\"v7\"")
            // Unconditional requests send no validators.
            let plain = await service.respond(to: ServiceRequest(path: Self.path(origin, "etag=v7", options: "w:13")))
            #expect(plain.status == 200)
            #expect(origin.requests(path: "/fixtures/png/rgba8.png").last?.header("If-None-Match") == nil)
        }
    }

    @Test func passthroughSendsTheSourcesCacheControlOrItsExpiresFromEveryTier() async throws {
        let future = HTTPDate.format(Date().addingTimeInterval(1000))
        let passing: (inout ServiceConfiguration) -> Void = { $0.passesSourceCacheControl = true }
        try await Self.withService(runs: 2, configure: passing) { service, origin, _ in
            let control = await service.respond(
                to: ServiceRequest(path: Self.path(origin, "cacheControl=private, max-age=77")))
            #expect(control.header("Cache-Control") == "private, max-age=77")
            let expires = await service.respond(
                to: ServiceRequest(path: Self.path(origin, "header=Expires: \(future)")))
            let age = expires.header("Cache-Control").flatMap {
                Int($0.replacingOccurrences(of: "public, max-age=", with: ""))
            }
            #expect(age.map { (900...1000).contains($0) } == true, "\(expires.header("Cache-Control") ?? "none")")
            let none = await service.respond(to: ServiceRequest(path: Self.path(origin, "x=1")))
            #expect(none.header("Cache-Control") == "public, max-age=31536000")
        }
        // Without passthrough the source's header is not sent.
        try await Self.withService { service, origin, _ in
            let response = await service.respond(
                to: ServiceRequest(path: Self.path(origin, "cacheControl=private, max-age=77")))
            #expect(response.header("Cache-Control") == "public, max-age=31536000")
        }
    }

    @Test func passthroughIsReadFromTheFlagAndBothVariables() throws {
        func passes(_ flags: [String: String], _ environment: [String: String]) throws -> Bool {
            try ServeOptions(ServeSettings(flags: flags, environment: environment)).configuration
                .passesSourceCacheControl
        }
        #expect(try !passes([:], [:]))
        #expect(try passes(["cache-control-passthrough": "true"], [:]))
        #expect(try passes([:], ["WEBIMAGE_CACHE_CONTROL_PASSTHROUGH": "1"]))
        #expect(try passes([:], ["IMGPROXY_CACHE_CONTROL_PASSTHROUGH": "true"]))
        #expect(try !passes(["cache-control-passthrough": "false"], ["IMGPROXY_CACHE_CONTROL_PASSTHROUGH": "true"]))
        #expect(throws: ServeSettingError.self) { try passes([:], ["IMGPROXY_CACHE_CONTROL_PASSTHROUGH": "maybe"]) }
    }

    @Test func expiresAndTheFallbackTTLCapTheMaxAgeAndNoTTLIsNoCache() {
        let now = Date(timeIntervalSince1970: 1_000_000)
        var policy = ResponsePolicy(timeToLive: 3600, now: now)
        #expect(policy.cacheControl(expires: 1_000_100, source: SourceCaching()) == "public, max-age=100")
        #expect(policy.cacheControl(expires: 9_000_000, source: SourceCaching()) == "public, max-age=3600")
        #expect(policy.cacheControl(expires: Int.max, source: SourceCaching()) == "public, max-age=3600")
        policy.fallbackTimeToLive = 50
        #expect(policy.cacheControl(expires: 1_000_100, source: SourceCaching()) == "public, max-age=50")
        policy = ResponsePolicy(timeToLive: 0, passesSourceCaching: true, now: now)
        #expect(policy.cacheControl(expires: nil, source: SourceCaching()) == "no-cache")
        // A source's freshness far in the future saturates; a header with a control character is not sent.
        let far = SourceCaching(expiration: Date(timeIntervalSince1970: 1e300))
        #expect(policy.cacheControl(expires: nil, source: far) == "public, max-age=\(Int32.max)")
        #expect(
            policy.cacheControl(expires: nil, source: SourceCaching(cacheControl: "max-age=1\r\nX: y")) == "no-cache")
    }

    @Test func aStoredEntryKeepsTheCacheControlItWasGivenAndOlderEntriesStillRead() throws {
        let metadata = DiskCacheMetadata(
            contentType: "image/png", lastModified: Self.sourceDate, storeDate: Date(timeIntervalSince1970: 5),
            cacheControl: "max-age=9")
        let file = try DiskCacheEntryFormat.encode(data: Data([1, 2, 3]), metadata: metadata)
        let raw = DiskCacheEntryFormat.encodeMetadata(metadata)
        #expect(raw.withUnsafeBytes { DiskCacheEntryFormat.decodeMetadata($0) } == metadata)
        #expect(file.count == 32 + raw.count + 3)
        var older = metadata
        older.cacheControl = nil
        let olderRaw = DiskCacheEntryFormat.encodeMetadata(older)
        #expect(
            olderRaw.first == 0b101 && olderRaw.withUnsafeBytes { DiskCacheEntryFormat.decodeMetadata($0) } == older)
        #expect(DiskCacheMetadata(httpHeaders: ["cache-control": "no-store"]).cacheControl == "no-store")
    }
}
