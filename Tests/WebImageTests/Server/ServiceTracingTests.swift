import Foundation
import InMemoryTracing
import Testing
import Tracing
import WebImageTestOrigin

@testable import WebImage
@testable import WebImageServer

/// The service's spans, in process, with swift-distributed-tracing's in-memory tracer.
@Suite("Image service: spans")
struct ServiceTracingTests {
    static func withTracedService<T>(
        _ tracer: InMemoryTracer, _ body: (ImageService, TestOrigin) async throws -> T
    ) async throws -> T {
        try await withOrigin { origin in
            var configuration = ServiceConfiguration()
            configuration.allowsLoopbackSources = true
            configuration.tracer = tracer
            return try await withImageService(configuration) { service in try await body(service, origin) }
        }
    }

    static func request(_ options: String, _ url: URL) -> ServiceRequest {
        ServiceRequest(path: ImageServiceTests.path(options, url, ext: "png"))
    }

    @Test func aMissIsAServerSpanWithEveryStageUnderItAndAHitOnlyTheLookup() async throws {
        let tracer = InMemoryTracer()
        try await Self.withTracedService(tracer) { service, origin in
            let request = Self.request("w:40", origin.url("/fixtures/jpeg/baseline.jpg"))
            #expect(await service.respond(to: request).status == 200)
            let spans = tracer.popFinishedSpans()
            let server = try #require(spans.first { $0.kind == .server })
            #expect(server.operationName == "GET /{signature}/{options}/{source}")
            #expect(server.parentSpanID == nil)
            #expect(server.attributes["http.response.status_code"]?.toSpanAttribute() == .int64(200))
            for stage in ["cache.lookup", "source.fetch", "decode", "process", "encode"] {
                let span = try #require(spans.first { $0.operationName == stage }, "\(stage)")
                #expect(span.parentSpanID == server.spanID && span.traceID == server.traceID, "\(stage)")
            }
            #expect(await service.respond(to: request).status == 200)
            #expect(Set(tracer.popFinishedSpans().map(\.operationName)) == [server.operationName, "cache.lookup"])
        }
    }

    @Test func aSourceFailureMarksTheServerSpanFailedAndTheFetchRecordsTheError() async throws {
        let tracer = InMemoryTracer()
        try await Self.withTracedService(tracer) { service, origin in
            let response = await service.respond(to: Self.request("w:40", origin.url("/missing.jpg?status=500")))
            #expect(response.status == 502)
            let spans = tracer.popFinishedSpans()
            #expect(spans.first { $0.kind == .server }?.status?.code == .error)
            let fetch = try #require(spans.first { $0.operationName == "source.fetch" })
            #expect(fetch.status?.code == .error && !fetch.errors.isEmpty)
        }
    }
}
