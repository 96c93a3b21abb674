import Foundation
import Tracing
import WebImage
import WebImageServer
import WebImageTestOrigin

/// The image service's cost of tracing: the same memory-hit requests with tracing off (no
/// tracer, the default) and with a tracer that makes and drops every span. Off must cost
/// nothing measurable: its time is the service's own, and the peer's is that plus making the
/// server and `cache.lookup` spans and binding them as the current context.
let serviceCases: [BenchCase] = [
    BenchCase(
        "service-memory-hit-tracing-off",
        summary:
            "20k ImageService.respond memory hits, tracing off vs the same with a no-op tracer (spans made, not exported)",
        setup: { context in try ServiceBench.memoryHits(context, tracer: nil) },
        swiftPeer: { context in try ServiceBench.memoryHits(context, tracer: NoOpTracer()) })
]

enum ServiceBench {
    static let requests = 20_000

    /// A service holding one result in memory, and a body answering it `requests` times, with a
    /// `traceparent` on every request as a traced caller sends it.
    static func memoryHits(_ context: BenchContext, tracer: (any Tracer)?) throws -> BenchCase.Body {
        let origin = try CacheBench.wait { try await TestOrigin.start() }
        origin.register(path: "/a.jpg", body: try context.input("cache.jpg"), contentType: "image/jpeg")
        var configuration = ServiceConfiguration()
        configuration.allowsLoopbackSources = true
        configuration.tracer = tracer
        let service = try ImageService(configuration: configuration)
        let source = Data(origin.url("/a.jpg").absoluteString.utf8).base64URLEncodedWithoutPadding()
        var request = ServiceRequest(path: "/_/rs:fit:64:64/\(source).png")
        request.traceparent = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"
        let first = try CacheBench.wait { [request] in await service.respond(to: request) }
        guard first.status == 200 else { throw BenchError("the first request answered \(first.status)") }
        return { [request] in
            let bytes = try CacheBench.wait {
                var total = 0
                for _ in 0..<requests { total &+= await service.respond(to: request).body.count }
                return total
            }
            return RunOutput(checksum: bytes, shape: "\(requests)x1x1")
        }
    }
}
