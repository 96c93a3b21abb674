import Foundation
import NIOCore
import NIOHTTP1
import WebImage

/// A loopback OTLP/HTTP receiver, for tests of the service's OpenTelemetry export: it accepts
/// `POST /v1/traces`, `/v1/metrics` and `/v1/logs`, keeps every body with its content type, and
/// answers each with an empty success in the encoding it was sent in (protobuf or JSON).
/// Decoding the bodies is the test's business.
public final class OTLPReceiver: Sendable {
    /// One export request as received.
    public struct Export: Sendable {
        /// `/v1/traces`, `/v1/metrics` or `/v1/logs`.
        public var path: String
        /// `application/x-protobuf` or `application/json`.
        public var contentType: String
        public var body: Data
    }

    /// The bound port on 127.0.0.1.
    public var port: Int { listener.port }
    /// `http://127.0.0.1:<port>`, for `OTEL_EXPORTER_OTLP_ENDPOINT`.
    public var endpoint: URL { listener.endpoint }
    let exports: Locked<[Export]>

    private let listener: LoopbackListener

    private init(exports: Locked<[Export]>, listener: LoopbackListener) {
        self.exports = exports
        self.listener = listener
    }

    /// Listens on 127.0.0.1 on an ephemeral port.
    public static func start() async throws -> OTLPReceiver {
        let exports = Locked<[Export]>([])
        return OTLPReceiver(
            exports: exports, listener: try await LoopbackListener.start { OTLPReceiverHandler(exports: exports) })
    }

    /// The export requests received at `path`, oldest first.
    public func received(at path: String) -> [Export] {
        exports.withLock { $0.filter { $0.path == path } }
    }

    /// Stops listening and closes every connection.
    public func shutdown() async throws {
        try await listener.shutdown()
    }
}

/// Answers one connection's export requests for ``OTLPReceiver``.
final class OTLPReceiverHandler: WholeRequestResponder {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    private let exports: Locked<[OTLPReceiver.Export]>
    var request = WholeRequestAssembler()

    init(exports: Locked<[OTLPReceiver.Export]>) {
        self.exports = exports
    }

    func respond(to head: HTTPRequestHead, body: Data, context: ChannelHandlerContext) {
        let path = String(head.uri.split(separator: "?", maxSplits: 1).first ?? "")
        let contentType = head.headers.first(name: "Content-Type") ?? ""
        let isJSON = contentType.hasPrefix("application/json")
        let known = head.method == .POST && ["/v1/traces", "/v1/metrics", "/v1/logs"].contains(path)
        if known {
            let export = OTLPReceiver.Export(path: path, contentType: contentType, body: body)
            exports.withLock { $0.append(export) }
        }
        // An empty Export*ServiceResponse: no bytes in protobuf, `{}` in JSON.
        let answer = isJSON ? Data("{}".utf8) : Data()
        var headers = HTTPHeaders()
        headers.add(name: "Content-Type", value: isJSON ? "application/json" : "application/x-protobuf")
        headers.add(name: "Content-Length", value: String(answer.count))
        let status: HTTPResponseStatus = known ? .ok : .notFound
        context.write(
            wrapOutboundOut(.head(HTTPResponseHead(version: .http1_1, status: status, headers: headers))), promise: nil)
        if !answer.isEmpty {
            context.write(wrapOutboundOut(.body(.byteBuffer(ByteBuffer(bytes: answer)))), promise: nil)
        }
        context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
    }
}
