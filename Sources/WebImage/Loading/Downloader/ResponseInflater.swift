import NIOCore
import NIOEmbedded
import NIOHTTP1
import NIOHTTPCompression

/// Inflates a `gzip` or `deflate` response body as its chunks arrive.
///
/// AsyncHTTPClient can inflate bodies itself, but only for every response of a client: its
/// decompressor then sits in every connection's pipeline and sees every part of every
/// response, compressed or not. Images are almost never sent compressed, and that pass cost
/// about 2 % of a download-heavy workload's CPU. Here NIO's own decompressor runs, in a
/// channel of its own off the network, only for a response that says it is compressed.
/// Used by one transfer at a time; the channel (and zlib's state) is released with it.
final class ResponseInflater {
    private let channel: EmbeddedChannel

    /// An inflater for `contentEncoding` (lowercased), or nil when the body is not gzip or
    /// deflate: identity, or an encoding we cannot undo, which is passed on as it is.
    /// Inflating past `limit` bytes throws `NIOHTTPDecompression.DecompressionError.limit`.
    init?(contentEncoding: String, limit: Int) throws {
        // RFC 9110 8.4.1.3: x-gzip is gzip.
        let algorithm: String
        switch contentEncoding {
        case "gzip", "x-gzip": algorithm = "gzip"
        case "deflate": algorithm = "deflate"
        default: return nil
        }
        channel = EmbeddedChannel(handler: NIOHTTPResponseDecompressor(limit: .size(max(limit, 1))))
        let head = HTTPResponseHead(
            version: .http1_1, status: .ok, headers: HTTPHeaders([("Content-Encoding", algorithm)]))
        try channel.writeInbound(HTTPClientResponsePart.head(head))
        _ = try channel.readInbound(as: HTTPClientResponsePart.self)
    }

    deinit {
        // Closing the channel takes the decompressor (and zlib's state) out of its pipeline,
        // which would otherwise keep them, however the transfer ended.
        _ = try? channel.finish(acceptAlreadyClosed: true)
    }

    /// The inflated bytes that `chunk` completes, in order (possibly none yet).
    func inflate(_ chunk: ByteBuffer) throws -> [ByteBuffer] {
        try channel.writeInbound(HTTPClientResponsePart.body(chunk))
        return try drain()
    }

    /// The last inflated bytes; throws if the compressed stream was cut short.
    func finish() throws -> [ByteBuffer] {
        try channel.writeInbound(HTTPClientResponsePart.end(nil))
        return try drain()
    }

    private func drain() throws -> [ByteBuffer] {
        var parts: [ByteBuffer] = []
        while let part = try channel.readInbound(as: HTTPClientResponsePart.self) {
            if case .body(let bytes) = part, bytes.readableBytes > 0 { parts.append(bytes) }
        }
        return parts
    }
}
