import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix
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
    public let port: Int
    /// `http://127.0.0.1:<port>`, for `OTEL_EXPORTER_OTLP_ENDPOINT`.
    public let endpoint: URL
    let exports: Locked<[Export]>
    private let group: MultiThreadedEventLoopGroup
    private let channel: any Channel

    private init(exports: Locked<[Export]>, group: MultiThreadedEventLoopGroup, channel: any Channel) throws {
        guard let port = channel.localAddress?.port, let endpoint = URL(string: "http://127.0.0.1:\(port)") else {
            throw OriginStartError(description: "the listening socket has no port")
        }
        self.exports = exports
        self.group = group
        self.channel = channel
        self.port = port
        self.endpoint = endpoint
    }

    /// Listens on 127.0.0.1 on an ephemeral port.
    public static func start() async throws -> OTLPReceiver {
        let exports = Locked<[Export]>([])
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        do {
            let channel = try await bindLoopbackHTTP(group: group) { OTLPReceiverHandler(exports: exports) }
            return try OTLPReceiver(exports: exports, group: group, channel: channel)
        } catch {
            try? await group.shutdownGracefully()
            throw error
        }
    }

    /// The export requests received at `path`, oldest first.
    public func received(at path: String) -> [Export] {
        exports.withLock { $0.filter { $0.path == path } }
    }

    /// Stops listening and closes every connection.
    public func shutdown() async throws {
        try? await channel.close()
        try await group.shutdownGracefully()
    }
}

/// Answers one connection's export requests for ``OTLPReceiver``.
final class OTLPReceiverHandler: ChannelInboundHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    private let exports: Locked<[OTLPReceiver.Export]>
    private var request = WholeRequestAssembler()

    init(exports: Locked<[OTLPReceiver.Export]>) {
        self.exports = exports
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        if let (head, body) = request.received(unwrapInboundIn(data)) {
            respond(to: head, body: body, context: context)
        }
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        context.close(promise: nil)
    }

    private func respond(to head: HTTPRequestHead, body: Data, context: ChannelHandlerContext) {
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
