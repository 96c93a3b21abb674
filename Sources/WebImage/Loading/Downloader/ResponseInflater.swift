import NIOCore
import NIOEmbedded
import NIOHTTP1
import NIOHTTPCompression

/// Undoes a response body's `gzip`, `x-gzip` and `deflate` codings as its chunks arrive.
///
/// AsyncHTTPClient can inflate bodies itself, but only for every response of a client: its
/// decompressor then sits in every connection's pipeline and sees every part of every
/// response, compressed or not. Images are almost never sent compressed, and that pass cost
/// about 2 % of a download-heavy workload's CPU. Here NIO's own decompressor runs, in a
/// channel of its own off the network, only for a response that says it is compressed: one
/// channel per coding, the last one applied undone first (RFC 9110 8.4).
/// Used by one transfer at a time; the channels (and zlib's state) are released with it.
final class ResponseInflater {
    /// Bodies listing more codings than this are refused rather than given a zlib stream each.
    static let maximumCodings = 3

    /// One decompressor per coding, in the order they are undone.
    private let stages: [EmbeddedChannel]

    /// The codings the response's `Content-Encoding` fields list, lowercased, in the order the
    /// server applied them. Several fields and comma-separated lists both count; `identity`
    /// (no coding) is left out, so an empty list means the body is sent as it is.
    static func codings(in headers: HTTPHeaders) -> [String] {
        headers[canonicalForm: "Content-Encoding"].compactMap { token in
            let coding = token.lowercased()
            return coding.isEmpty || coding == "identity" ? nil : coding
        }
    }

    /// An inflater for `codings` (as ``codings(in:)`` lists them), or nil when there is nothing
    /// to undo or one of them is neither gzip nor deflate: that body is passed on as it is.
    /// Inflating past `limit` bytes at any stage throws `NIOHTTPDecompression.DecompressionError.limit`.
    init?(codings: [String], limit: Int) throws {
        // RFC 9110 8.4.1.3: x-gzip is gzip.
        var algorithms: [String] = []
        for coding in codings.reversed() {
            switch coding {
            case "gzip", "x-gzip": algorithms.append("gzip")
            case "deflate": algorithms.append("deflate")
            default: return nil
            }
        }
        guard !algorithms.isEmpty else { return nil }
        var stages: [EmbeddedChannel] = []
        for algorithm in algorithms {
            let channel = EmbeddedChannel(handler: NIOHTTPResponseDecompressor(limit: .size(max(limit, 1))))
            stages.append(channel)
            let head = HTTPResponseHead(
                version: .http1_1, status: .ok, headers: HTTPHeaders([("Content-Encoding", algorithm)]))
            try channel.writeInbound(HTTPClientResponsePart.head(head))
            _ = try channel.readInbound(as: HTTPClientResponsePart.self)
        }
        self.stages = stages
    }

    deinit {
        // Closing a channel takes the decompressor (and zlib's state) out of its pipeline,
        // which would otherwise keep them, however the transfer ended.
        for channel in stages { _ = try? channel.finish(acceptAlreadyClosed: true) }
    }

    /// The inflated bytes that `chunk` completes, in order (possibly none yet).
    func inflate(_ chunk: ByteBuffer) throws -> [ByteBuffer] {
        var parts = [chunk]
        for channel in stages {
            parts = try Self.pass(parts, through: channel, ending: false)
        }
        return parts
    }

    /// The last inflated bytes; throws if a compressed stream was cut short.
    func finish() throws -> [ByteBuffer] {
        var parts: [ByteBuffer] = []
        for channel in stages {
            parts = try Self.pass(parts, through: channel, ending: true)
        }
        return parts
    }

    private static func pass(_ parts: [ByteBuffer], through channel: EmbeddedChannel, ending: Bool) throws
        -> [ByteBuffer]
    {
        var output: [ByteBuffer] = []
        for part in parts {
            try channel.writeInbound(HTTPClientResponsePart.body(part))
            try drain(channel, into: &output)
        }
        if ending {
            try channel.writeInbound(HTTPClientResponsePart.end(nil))
            try drain(channel, into: &output)
        }
        return output
    }

    private static func drain(_ channel: EmbeddedChannel, into output: inout [ByteBuffer]) throws {
        while let part = try channel.readInbound(as: HTTPClientResponsePart.self) {
            if case .body(let bytes) = part, bytes.readableBytes > 0 { output.append(bytes) }
        }
    }
}
