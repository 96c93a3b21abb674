import Foundation
import Testing
import WebImage
import WebImageTestOrigin

@_spi(Internals) @testable import WebImageServer

/// `webimage serve` started from an imgproxy environment file alone (no flags), each mapped
/// setting checked by what it does to the answers, the metrics or the startup log.
@Suite("webimage serve from an imgproxy environment file", .serialized)
struct ServeImgproxyEnvironmentCommandTests {
    static let key = URLSigner.KeyPair(hexKey: "736563726574", hexSalt: "68656c6c6f")!

    /// An imgproxy-style environment file: `NAME=value` lines, `#` comments.
    static func environmentFile(cacheRoot: String) -> String {
        """
        # imgproxy settings, as an operator has them today
        IMGPROXY_BIND=127.0.0.1:0
        IMGPROXY_KEY=736563726574
        IMGPROXY_SALT=68656c6c6f
        IMGPROXY_ALLOW_LOOPBACK_SOURCE_ADDRESSES=true
        IMGPROXY_ALLOW_PRIVATE_SOURCE_ADDRESSES=false
        IMGPROXY_ALLOWED_SOURCES=http://127.0.0.1:*/fixtures/,http://127.0.0.1:*/generated/,http://127.0.0.1:*/bytes/
        IMGPROXY_MAX_SRC_FILE_SIZE=50000
        IMGPROXY_MAX_SRC_RESOLUTION=0.01
        IMGPROXY_MAX_ANIMATION_FRAMES=2
        IMGPROXY_WORKERS=3
        IMGPROXY_REQUESTS_QUEUE_SIZE=5
        IMGPROXY_TIMEOUT=7
        IMGPROXY_TTL=1234
        IMGPROXY_QUALITY=35
        IMGPROXY_FORMAT_QUALITY=webp=45
        IMGPROXY_AUTO_WEBP=false
        IMGPROXY_AUTO_AVIF=false
        IMGPROXY_CACHE_USE=fs
        IMGPROXY_CACHE_FS_ROOT=\(cacheRoot)
        IMGPROXY_LOG_FORMAT=json
        IMGPROXY_LOG_LEVEL=debug
        IMGPROXY_PROMETHEUS_NAMESPACE=imgproxy
        IMGPROXY_OPEN_TELEMETRY_PROPAGATE_EXTERNAL=false
        IMGPROXY_PRESETS=thumb=rs:fit:100:100
        IMGPROXY_FALLBACK_IMAGE_HTTP_CODE=404
        IMGPROXY_FALLBACK_IMAGE_TTL=60
        IMGPROXY_FALLBACK_IMAGES_CACHE_SIZE=16
        """
    }

    static func parse(_ file: String) -> [String: String] {
        var variables: [String: String] = [:]
        for line in file.split(separator: "\n") where !line.hasPrefix("#") {
            let parts = line.split(separator: "=", maxSplits: 1)
            if parts.count == 2 { variables[String(parts[0])] = String(parts[1]) }
        }
        return variables
    }

    @Test func everyMappedSettingOfTheFileTakesEffect() async throws {
        let cacheRoot = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: cacheRoot) }
        var variables = Self.parse(Self.environmentFile(cacheRoot: cacheRoot.path))
        try await withOrigin { origin in
            variables["IMGPROXY_FALLBACK_IMAGE_URL"] = origin.url("/fixtures/png/rgb8.png").absoluteString
            let process = try CommandRunner.start(["serve"], environment: CommandRunner.environment(variables))
            defer { process.killAndReap() }
            let port = try await ServeTracingCommandTests.announcedPort(process)
            func get(_ options: String, _ sourcePath: String, ext: String?, signed: Bool = true, headers: [String] = [])
                async -> RawResponse
            {
                let source = Data(origin.url(sourcePath).absoluteString.utf8).base64URLEncodedWithoutPadding()
                let path = "/\(options)/\(source)" + (ext.map { "." + $0 } ?? "")
                let target = signed ? URLSigner(keyPairs: [Self.key]).signedPath(path) : "/unsigned" + path
                return await RawHTTP.get(port: port, target, headers: headers)
            }

            // IMGPROXY_KEY, IMGPROXY_SALT: unsigned URLs are refused.
            #expect(await get("w:32", "/fixtures/jpeg/baseline.jpg", ext: "jpg", signed: false).statusCode == 403)
            // IMGPROXY_QUALITY, IMGPROXY_TTL, IMGPROXY_ALLOW_LOOPBACK_SOURCE_ADDRESSES: a loopback
            // source is fetched, encoded at quality 35, cached for 1234 s.
            let jpeg = await get("w:32", "/fixtures/jpeg/baseline.jpg", ext: "jpg")
            #expect(jpeg.statusCode == 200)
            #expect(jpeg.header("Cache-Control") == "public, max-age=1234")
            #expect(Data(jpeg.body) == (try Self.expected("w:32", "jpeg/baseline.jpg", .jpeg, quality: 35)))
            // IMGPROXY_FORMAT_QUALITY: WebP at 45.
            let webp = await get("w:32", "/fixtures/jpeg/baseline.jpg", ext: "webp")
            #expect(Data(webp.body) == (try Self.expected("w:32", "jpeg/baseline.jpg", .webp, quality: 45)))
            // IMGPROXY_AUTO_WEBP=false, IMGPROXY_AUTO_AVIF=false: Accept does not choose the format.
            let negotiated = await get(
                "w:31", "/fixtures/jpeg/baseline.jpg", ext: nil, headers: ["Accept: image/avif,image/webp,*/*"])
            #expect(negotiated.header("Content-Type") == "image/jpeg")
            // IMGPROXY_FALLBACK_IMAGE_URL, _HTTP_CODE, _TTL: a missing source is answered with the
            // fallback image, processed as asked, with status 404 and a max-age of 60 s.
            let missing = await get("w:5", "/fixtures/missing.png", ext: "png")
            #expect(missing.statusCode == 404 && missing.header("Cache-Control") == "public, max-age=60")
            #expect(
                try ImageCodersManager.shared.imageInfo(for: Data(missing.body)).width == 5,
                "\(String(decoding: missing.body, as: UTF8.self))")
            // IMGPROXY_ALLOWED_SOURCES, with a wildcard port.
            #expect(await get("w:32", "/garbage/10", ext: "png").statusCode == 403)
            // IMGPROXY_MAX_SRC_FILE_SIZE (bytes) and IMGPROXY_MAX_SRC_RESOLUTION (megapixels).
            // A source over the size limit is refused while it is fetched, so the fallback answers
            // (its bytes would not decode: they are not an image).
            let tooLong = await get("w:5", "/bytes/60000", ext: "png")
            #expect(tooLong.statusCode == 404 && Data(tooLong.body) == Data(missing.body))
            let tooWide = await get("w:32", "/generated/150x80.jpg", ext: "png")
            #expect(tooWide.statusCode == 422 && String(decoding: tooWide.body, as: UTF8.self).contains("10000"))
            // IMGPROXY_MAX_ANIMATION_FRAMES: the first two of four frames are kept.
            let animation = await get("w:2", "/fixtures/gif/loop3_delays.gif", ext: "gif")
            let kept = try ImageCodersManager.shared.imageInfo(for: Data(animation.body))
            #expect(animation.statusCode == 200 && kept.frameCount == 2)
            #expect(await get("w:8", "/fixtures/gif/static.gif", ext: "gif").statusCode == 200)
            // IMGPROXY_WORKERS, IMGPROXY_PROMETHEUS_NAMESPACE: imgproxy's metric names, prefixed.
            let metrics = String(decoding: await RawHTTP.get(port: port, "/metrics").body, as: UTF8.self)
            #expect(metrics.contains("imgproxy_workers 3"), "\(metrics)")
            #expect(metrics.contains("imgproxy_requests_total "))
            #expect(metrics.contains("imgproxy_request_span_duration_seconds_count{span=\"processing\"}"))
            // IMGPROXY_CACHE_USE=fs, IMGPROXY_CACHE_FS_ROOT: results are kept there.
            #expect(!(try FileManager.default.subpathsOfDirectory(atPath: cacheRoot.path)).isEmpty)
            // IMGPROXY_OPEN_TELEMETRY_PROPAGATE_EXTERNAL=false (no tracing here anyway): no trace header.
            #expect(origin.requests(path: "/fixtures/jpeg/baseline.jpg").first?.header("traceparent") == nil)

            process.send(SIGTERM)
            let (_, standardError) = await onOwnThread { process.readToEnd() }
            let lines = String(decoding: standardError, as: UTF8.self).split(separator: "\n").map(String.init)
            // IMGPROXY_LOG_FORMAT=json: every line is a JSON object.
            let logged = lines.compactMap { try? json($0) }
            #expect(logged.count == lines.count && !lines.isEmpty, "\(lines)")
            // IMGPROXY_LOG_LEVEL=debug: each setting's source is logged, the rest of the file's
            // settings among them (the queue, the timeout and the private-address switch have no
            // answer to show).
            let origins = Dictionary(
                logged.filter { $0["message"] as? String == "setting" }.compactMap { line in
                    (line["setting"] as? String).map { ($0, line["from"] as? String ?? "") }
                }, uniquingKeysWith: { first, _ in first })
            #expect(origins["queue"] == "IMGPROXY_REQUESTS_QUEUE_SIZE")
            #expect(origins["timeout"] == "IMGPROXY_TIMEOUT")
            #expect(origins["allow-private-sources"] == "IMGPROXY_ALLOW_PRIVATE_SOURCE_ADDRESSES")
            #expect(origins["otel-propagate-to-sources"] == "IMGPROXY_OPEN_TELEMETRY_PROPAGATE_EXTERNAL")
            #expect(origins["port"] == "IMGPROXY_BIND" && origins["host"] == "IMGPROXY_BIND")
            #expect(origins["preset"] == "IMGPROXY_PRESETS")
            // The one variable it cannot honour is named once.
            let notices = logged.compactMap { $0["message"] as? String }.filter { $0.contains("IMGPROXY_FALLBACK") }
            #expect(notices == ["IMGPROXY_FALLBACK_IMAGES_CACHE_SIZE is ignored (not supported yet)"])
        }
    }

    /// What the service makes of fixture `name` with `options`, encoded as `format` at `quality`.
    static func expected(_ options: String, _ name: String, _ format: ImageFormat, quality: Int) throws -> Data {
        var configuration = ServiceConfiguration()
        configuration.defaultQuality = quality
        configuration.formatQualities = [:]
        let data = try Data(contentsOf: Fixtures.directory.appendingPathComponent(name))
        let parsed = try ProcessingOptions(segments: [options])
        return try ResultProducer(configuration: configuration, options: parsed).produce(from: data, format: format)
            .data
    }

    @Test func badValuesStopTheServerWithStatusTwoAndOneLineNamingThem() async throws {
        for (flags, variables, name) in [
            (["--port", "70000"], [:], "--port"), (["--timeout", "nan"], [:], "--timeout"),
            (["--workers", "-1"], [:], "--workers"), ([], ["WEBIMAGE_QUEUE": "many"], "WEBIMAGE_QUEUE"),
            ([], ["IMGPROXY_MAX_SRC_RESOLUTION": "-2"], "IMGPROXY_MAX_SRC_RESOLUTION"),
            ([], ["IMGPROXY_BIND": "nowhere"], "IMGPROXY_BIND"),
            ([], ["IMGPROXY_PATH_PREFIX": "img"], "IMGPROXY_PATH_PREFIX"),
            (
                [], ["OTEL_EXPORTER_OTLP_ENDPOINT": "http://127.0.0.1:9", "OTEL_EXPORTER_OTLP_PROTOCOL": "grpc"],
                "OTEL_EXPORTER_OTLP_PROTOCOL"
            ),
        ] as [([String], [String: String], String)] {
            let result = try await CommandRunner.runOffPool(
                ["serve", "--port", "0"] + flags, environment: CommandRunner.environment(variables))
            #expect(result.status == 2, "\(flags) \(variables): \(result.standardError)")
            #expect(result.standardError.hasPrefix("error: \(name) "), "\(result.standardError)")
            #expect(result.standardError.split(separator: "\n").count == 1)
        }
    }
}
