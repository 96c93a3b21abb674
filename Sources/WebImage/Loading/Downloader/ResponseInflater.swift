import NIOCore
import NIOHTTP1

/// Undoes a response body's `gzip`, `x-gzip` and `deflate` codings as its chunks arrive.
///
/// AsyncHTTPClient can inflate bodies itself, but only for every response of a client: its
/// decompressor then sits in every connection's pipeline and sees every part of every
/// response, compressed or not, though images are almost never sent compressed. Here zlib runs
/// off the network, only for a response that says it is compressed: one stream per coding, the
/// last one applied undone first (RFC 9110 8.4). zlib rather than NIO's decompressor, which
/// needs an `EmbeddedChannel`: that is bound to the thread that made it, and a transfer resumes
/// on any thread.
/// Used by one transfer at a time; zlib's state is released with it.
final class ResponseInflater {
    /// Bodies listing more codings than this are refused rather than given a zlib stream each.
    static let maximumCodings = 3

    /// One zlib stream per coding, in the order they are undone.
    private let stages: [ZlibInflateStream]
    /// The most bytes any stage may produce.
    private let limit: Int

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
    /// Inflating past `limit` bytes at any stage throws ``InflateError/limit``.
    init?(codings: [String], limit: Int) {
        // RFC 9110 8.4.1.3: x-gzip is gzip.
        var stages: [ZlibInflateStream] = []
        for coding in codings.reversed() {
            switch coding {
            case "gzip", "x-gzip": stages.append(ZlibInflateStream(format: .gzip))
            case "deflate": stages.append(ZlibInflateStream(format: .deflate))
            default: return nil
            }
        }
        guard !stages.isEmpty else { return nil }
        self.stages = stages
        self.limit = max(limit, 0)
    }

    /// The inflated bytes that `chunk` completes, in order (possibly none yet).
    func inflate(_ chunk: ByteBuffer) throws -> [ByteBuffer] {
        var parts = [chunk]
        for stage in stages {
            var output: [ByteBuffer] = []
            for part in parts { try stage.inflate(part, limit: limit, into: &output) }
            parts = output
        }
        return parts
    }

    /// Checks that the body ended with every compressed stream: zlib hands out all it can as
    /// bytes arrive, so nothing is left to return; throws if a stream was cut short.
    func finish() throws {
        for stage in stages where !stage.ended { throw InflateError.truncated }
    }
}
