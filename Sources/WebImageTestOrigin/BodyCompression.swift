import Foundation
import NIOCore
import NIOEmbedded
import NIOHTTP1
import NIOHTTPCompression
import WebImage

/// One-shot gzip/deflate of a whole body.
///
/// The body is compressed before any transport fault applies, so `short`, `reset` and `drip` cut
/// the encoded bytes exactly as a real server's would. swift-nio-extras exposes its zlib wrapper
/// only as channel handlers; its request compressor, given a complete message in one flush,
/// emits the whole compressed body with the chosen encoding, so it runs here on an embedded channel.
enum BodyCompression {
    enum Encoding: String {
        case gzip, deflate

        var algorithm: NIOCompression.Algorithm { self == .gzip ? .gzip : .deflate }
    }

    static func compress(_ body: ByteBuffer, as encoding: Encoding) throws -> ByteBuffer {
        let channel = EmbeddedChannel(handler: NIOHTTPRequestCompressor(encoding: encoding.algorithm))
        defer { _ = try? channel.finish(acceptAlreadyClosed: true) }
        let head = HTTPRequestHead(version: .http1_1, method: .POST, uri: "/")
        channel.write(HTTPClientRequestPart.head(head), promise: nil)
        channel.write(HTTPClientRequestPart.body(.byteBuffer(body)), promise: nil)
        try channel.writeOutbound(HTTPClientRequestPart.end(nil))
        var compressed = channel.allocator.buffer(capacity: body.readableBytes / 2 + 64)
        while let part = try channel.readOutbound(as: HTTPClientRequestPart.self) {
            if case .body(.byteBuffer(var chunk)) = part { compressed.writeBuffer(&chunk) }
        }
        return compressed
    }

    /// The encoding to use for a response whose query asked for `gzip` and/or `deflate`, given the
    /// request's Accept-Encoding; `nil` when the client accepts neither.
    static func negotiate(gzip: Bool, deflate: Bool, acceptEncoding: [String]) -> Encoding? {
        var accepted: [String: Double] = [:]
        for field in acceptEncoding {
            for item in field.split(separator: ",") {
                let parts = item.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }
                guard let name = parts.first?.lowercased(), !name.isEmpty else { continue }
                var quality = 1.0
                for parameter in parts.dropFirst() where parameter.lowercased().hasPrefix("q=") {
                    quality = Double(parameter.dropFirst(2)) ?? 0
                }
                accepted[name == "x-gzip" ? "gzip" : name] = quality
            }
        }
        func allows(_ name: String) -> Bool { (accepted[name] ?? accepted["*"] ?? 0) > 0 }
        if gzip && allows("gzip") { return .gzip }
        if deflate && allows("deflate") { return .deflate }
        return nil
    }
}
