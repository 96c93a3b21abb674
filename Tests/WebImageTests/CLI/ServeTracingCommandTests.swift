import Foundation
import Testing
import WebImage
import WebImageServer
import WebImageTestOrigin

/// `webimage serve` exporting to a real OTLP/HTTP receiver on loopback: the span tree of one
/// request, the trace context it sends to the source and to S3, its metrics under imgproxy's
/// names, and log lines that carry the trace id, in both OTLP encodings.
@Suite("webimage serve: OpenTelemetry over OTLP/HTTP", .serialized)
struct ServeTracingCommandTests {
    static let traceID = "4bf92f3577b34da6a3ce929d0e0e4736"
    static let callerSpanID = "00f067aa0ba902b7"

    @Test(arguments: ["http/protobuf", "http/json"])
    func aRequestIsAServerSpanWithItsStagesAndItsTraceReachesTheSourceAndS3(encoding: String) async throws {
        try await Self.withReceiver { receiver in
            let s3 = try await FakeS3.start()
            do {
                try await Self.checkSpans(encoding: encoding, receiver: receiver, s3: s3)
                try await s3.shutdown()
            } catch {
                try? await s3.shutdown()
                throw error
            }
        }
    }

    static func checkSpans(encoding: String, receiver: OTLPReceiver, s3: FakeS3) async throws {
        try await withOrigin { origin in
            let environment = CommandRunner.environment([
                "OTEL_EXPORTER_OTLP_ENDPOINT": receiver.endpoint.absoluteString,
                "OTEL_EXPORTER_OTLP_PROTOCOL": encoding, "OTEL_BSP_SCHEDULE_DELAY": "50",
                "OTEL_METRIC_EXPORT_INTERVAL": "200", "OTEL_SERVICE_NAME": "webimage-test",
                "AWS_ACCESS_KEY_ID": "test", "AWS_SECRET_ACCESS_KEY": "test",
            ])
            let process = try CommandRunner.start(
                [
                    "serve", "--port", "0", "--allow-loopback-sources", "--log-format", "json", "--s3-endpoint",
                    s3.endpoint.absoluteString, "--s3-bucket", "results", "--s3-region", "us-east-1",
                ], environment: environment)
            defer { process.killAndReap() }
            let port = try await Self.announcedPort(process)
            let sourcePath = "/fixtures/jpeg/photo_800x600.jpg"
            let source = Data(origin.url(sourcePath).absoluteString.utf8).base64URLEncodedWithoutPadding()
            let response = await RawHTTP.get(
                port: port, "/_/w:100/\(source).png",
                headers: ["traceparent: 00-\(Self.traceID)-\(Self.callerSpanID)-01"])
            #expect(response.statusCode == 200)
            #expect(response.header("Server") == "webimage/\(WebImageVersion.current)")

            var spans: [ExportedSpan] = []
            let stages = ["cache.lookup", "source.fetch", "decode", "process", "encode", "s3.get", "s3.put"]
            let exported = await eventually {
                spans = receiver.received(at: "/v1/traces").flatMap { (try? OTLPDecoding.spans($0)) ?? [] }
                    .filter { $0.traceID == Self.traceID }
                return stages.allSatisfy { stage in spans.contains { $0.name == stage } }
                    && spans.contains { $0.kind == 2 }
            }
            #expect(exported, "spans received: \(spans.map(\.name))")
            let contentType = encoding == "http/json" ? "application/json" : "application/x-protobuf"
            #expect(receiver.received(at: "/v1/traces").allSatisfy { $0.contentType == contentType })
            let server = try #require(spans.first { $0.kind == 2 })
            #expect(server.name == "GET /{signature}/{options}/{source}")
            #expect(server.parentSpanID == Self.callerSpanID, "the caller's trace is continued")
            #expect(server.attributes["http.response.status_code"] == "200")
            func span(_ name: String) throws -> ExportedSpan { try #require(spans.first { $0.name == name }) }
            for stage in ["cache.lookup", "source.fetch", "decode", "process", "encode", "s3.put"] {
                #expect(try span(stage).parentSpanID == server.spanID, "\(stage) is the server span's child")
            }
            #expect(try span("s3.get").parentSpanID == span("cache.lookup").spanID)

            // The source and S3 get the trace, each naming the span that made the request.
            let fetch = try #require(origin.requests(path: sourcePath).first)
            #expect(fetch.header("traceparent") == "00-\(Self.traceID)-\(try span("source.fetch").spanID)-01")
            let s3Requests = s3.requests
            let get = try #require(s3Requests.first { $0.method == "GET" })
            #expect(get.header("traceparent") == "00-\(Self.traceID)-\(try span("s3.get").spanID)-01")
            let put = try #require(s3Requests.first { $0.method == "PUT" })
            #expect(put.header("traceparent") == "00-\(Self.traceID)-\(try span("s3.put").spanID)-01")

            // The metrics go out too, under imgproxy's names and ours.
            var names: Set<String> = []
            let metricsExported = await eventually {
                names = receiver.received(at: "/v1/metrics").reduce(into: []) {
                    $0.formUnion((try? OTLPDecoding.metricNames($1)) ?? [])
                }
                return names.isSuperset(of: [
                    "requests_total", "request_span_duration_seconds", "webimage_requests_total",
                ])
            }
            #expect(metricsExported, "metrics received: \(names.sorted())")
            #expect(names.isSuperset(of: ["workers", "workers_utilization", "requests_in_progress"]))

            // The request's log line carries its trace id.
            process.send(SIGTERM)
            let (_, standardError) = await onOwnThread { process.readToEnd() }
            let lines = String(decoding: standardError, as: UTF8.self).split(separator: "\n")
            let requestLine = try #require(
                lines.compactMap { try? json(String($0)) }.first { $0["message"] as? String == "request" })
            #expect(requestLine["trace_id"] as? String == Self.traceID)
            #expect(requestLine["status"] as? String == "200")
        }
    }

    @Test func withoutAnEndpointNothingIsExportedAndNoTraceGoesToTheSource() async throws {
        try await Self.withReceiver { receiver in try await Self.checkNoExport(receiver) }
    }

    static func checkNoExport(_ receiver: OTLPReceiver) async throws {
        try await withOrigin { origin in
            let process = try CommandRunner.start(
                ["serve", "--port", "0", "--allow-loopback-sources"], environment: CommandRunner.environment(),
                standardError: .discarded)
            defer { process.killAndReap() }
            let port = try await Self.announcedPort(process)
            let sourcePath = "/fixtures/jpeg/baseline.jpg"
            let source = Data(origin.url(sourcePath).absoluteString.utf8).base64URLEncodedWithoutPadding()
            let response = await RawHTTP.get(
                port: port, "/_/w:50/\(source).png",
                headers: ["traceparent: 00-\(Self.traceID)-\(Self.callerSpanID)-01"])
            #expect(response.statusCode == 200)
            #expect(origin.requests(path: sourcePath).first?.header("traceparent") == nil)
            #expect(receiver.received(at: "/v1/traces").isEmpty)
        }
    }

    /// Runs `body` with a loopback OTLP receiver, and stops the receiver even when `body` throws.
    static func withReceiver(_ body: (OTLPReceiver) async throws -> Void) async throws {
        let receiver = try await OTLPReceiver.start()
        do {
            try await body(receiver)
            try await receiver.shutdown()
        } catch {
            try? await receiver.shutdown()
            throw error
        }
    }

    /// The port `webimage serve` announces on its first line of output.
    static func announcedPort(_ process: ChildProcess) async throws -> Int {
        let line = await onOwnThread { process.readLine() }
        let prefix = "webimage serve: listening on http://127.0.0.1:"
        guard line.hasPrefix(prefix), let port = Int(line.dropFirst(prefix.count)) else {
            throw ServeCommandTests.CommandFailureForTest(message: "serve did not announce its address: \(line)")
        }
        return port
    }
}
