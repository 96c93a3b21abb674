import Foundation
import Synchronization
import WebImage
import WebImageServer
import WebImageTestOrigin

/// imgproxy Pro's features, measured in the service: `/info` with every hash against decoding
/// the source alone, autoquality against a fixed quality (bytes and time) and the best format
/// against fixed WebP. Each run asks with a new `cachebuster`, so no result comes from a cache;
/// the source is fetched once, in setup, and then served from the source cache to both sides.
let proCases: [BenchCase] = [
    BenchCase(
        "service-info-hashes",
        summary:
            "/info of a 768x576 JPEG with blurhash, thumb_hash, perceptual_hash, dominant_colors and average vs decoding that JPEG alone (full size)",
        setup: { context in
            try ProBench.coldRequests(context, input: "cache.jpg", shape: "info") { source, run in
                "/info/_/bh:4:3/th:1/ph:1/dc:1/avg:1/cb:\(run)/\(source)"
            }
        },
        swiftPeer: { context in
            let bytes = try context.input("cache.jpg")
            return {
                let image = try ImageCodersManager.shared.decode(bytes, options: ImageDecodeOptions())
                return RunOutput(checksum: image.width &+ image.height, shape: "info")
            }
        }),
    BenchCase(
        "service-autoquality-dssim",
        summary: "a 400x300 JPEG of a 4000x3000 photo at aq:dssim:0.02 vs the same at q:80 (bytes: ours/peer)",
        setup: { context in
            try ProBench.coldRequests(context, input: "photo.jpg", reportsBytes: true) { source, run in
                "/_/rs:fit:400:300/aq:dssim:0.02/cb:\(run)/\(source).jpg"
            }
        },
        swiftPeer: { context in
            try ProBench.coldRequests(context, input: "photo.jpg", reportsBytes: true) { source, run in
                "/_/rs:fit:400:300/q:80/cb:\(run)/\(source).jpg"
            }
        }),
    BenchCase(
        "service-best-format",
        summary:
            "a 400x300 result of a 4000x3000 photo at f:best (Accept: AVIF, WebP) vs the same as WebP at its default quality",
        setup: { context in
            try ProBench.coldRequests(context, input: "photo.jpg", reportsBytes: true) { source, run in
                "/_/rs:fit:400:300/f:best/cb:\(run)/\(source)"
            }
        },
        swiftPeer: { context in
            try ProBench.coldRequests(context, input: "photo.jpg", reportsBytes: true) { source, run in
                "/_/rs:fit:400:300/cb:\(run)/\(source).webp"
            }
        }),
]

enum ProBench {
    /// A service whose source is `input` on a loopback origin, and a body that asks for
    /// `path(source, run)` once per run, `run` counting up so that every result is made anew.
    static func coldRequests(
        _ context: BenchContext, input: String, shape: String = "service", reportsBytes: Bool = false,
        path: @escaping @Sendable (String, Int) -> String
    ) throws -> BenchCase.Body {
        let origin = try CacheBench.wait { try await TestOrigin.start() }
        origin.register(path: "/source", body: try context.input(input), contentType: "image/jpeg")
        var configuration = ServiceConfiguration()
        configuration.allowsLoopbackSources = true
        let service = try ImageService(configuration: configuration)
        let source = Data(origin.url("/source").absoluteString.utf8).base64URLEncodedWithoutPadding()
        let runs = Atomic<Int>(0)
        let ask: @Sendable () throws -> ServiceResponse = {
            let run = runs.add(1, ordering: .relaxed).newValue
            var request = ServiceRequest(path: path(source, run))
            request.accept = "image/avif,image/webp,*/*"
            let response = try CacheBench.wait { [request] in await service.respond(to: request) }
            guard response.status == 200 else {
                throw BenchError(
                    "\(request.path) answered \(response.status): \(String(decoding: response.body, as: UTF8.self))")
            }
            return response
        }
        _ = try ask()  // fetches the source into the source cache
        return {
            _ = origin  // kept serving for as long as the body runs
            let response = try ask()
            return RunOutput(
                checksum: response.body.count, shape: shape, bytes: reportsBytes ? response.body.count : nil)
        }
    }
}
