import CZlib
import NIOCore

/// Why a compressed body could not be inflated. ``HTTPErrorMapping`` turns each into a
/// `WebImageError.transferFailed`.
enum InflateError: Error, Equatable, CustomStringConvertible {
    /// The inflated bytes passed the size limit.
    case limit
    /// The body ended before its compressed stream did.
    case truncated
    /// Bytes followed the end of the compressed stream.
    case trailingData
    /// zlib refused the bytes (its message), or could not start.
    case corrupt(String)

    var description: String {
        switch self {
        case .limit: "the decompressed body passed the size limit"
        case .truncated: "the gzip/deflate body is cut short"
        case .trailingData: "bytes after the end of the gzip/deflate body"
        case .corrupt(let reason): "bad gzip/deflate body (\(reason))"
        }
    }
}

/// One zlib inflate stream: gzip, or deflate (zlib-wrapped as RFC 9110 says, or raw as some
/// servers send it, told apart by the first two bytes as browsers do).
///
/// Not thread-safe, and bound to no thread: one transfer feeds it, from whichever thread its
/// task resumes on. zlib's state points back at the `z_stream`, so the stream lives at a fixed
/// address of its own.
final class ZlibInflateStream {
    enum Format { case gzip, deflate }

    private let format: Format
    private let stream: UnsafeMutablePointer<z_stream>
    /// Set on the first bytes: deflate's window bits depend on them.
    private var started = false
    private(set) var ended = false
    /// Bytes produced so far, checked against the caller's limit.
    private var produced = 0

    /// The most bytes one output buffer asks for.
    private static let outputChunk = 64 * 1024

    init(format: Format) {
        self.format = format
        stream = .allocate(capacity: 1)
        stream.initialize(to: z_stream())
    }

    deinit {
        if started { inflateEnd(stream) }
        stream.deinitialize(count: 1)
        stream.deallocate()
    }

    /// Inflates `input`, appending what it yields to `output`; throws once more than `limit`
    /// bytes have come out in all.
    func inflate(_ input: ByteBuffer, limit: Int, into output: inout [ByteBuffer]) throws {
        guard input.readableBytes > 0 else { return }
        guard !ended else { throw InflateError.trailingData }
        try input.withUnsafeReadableBytes { bytes in
            if !started { try start(firstBytes: bytes) }
            stream.pointee.next_in = UnsafeMutablePointer(mutating: bytes.bindMemory(to: Bytef.self).baseAddress)
            stream.pointee.avail_in = UInt32(bytes.count)
            defer {
                stream.pointee.next_in = nil
                stream.pointee.avail_in = 0
            }
            try drain(limit: limit, into: &output)
            if ended, stream.pointee.avail_in > 0 { throw InflateError.trailingData }
        }
    }

    private func start(firstBytes bytes: UnsafeRawBufferPointer) throws {
        let windowBits: Int32
        switch format {
        case .gzip: windowBits = 16 + MAX_WBITS
        case .deflate:
            // A zlib header: compression method 8 and a check value that makes the pair a
            // multiple of 31. A first chunk of a single byte is read as raw.
            let wrapped =
                bytes.count >= 2 && bytes[0] & 0x0f == 8 && (UInt16(bytes[0]) << 8 | UInt16(bytes[1])) % 31 == 0
            windowBits = wrapped ? MAX_WBITS : -MAX_WBITS
        }
        let status = webimage_inflate_init2(stream, windowBits)
        guard status == Z_OK else { throw InflateError.corrupt("zlib could not start: \(status)") }
        started = true
    }

    /// Runs inflate until the input is used up and no output is pending, or the stream ends.
    private func drain(limit: Int, into output: inout [ByteBuffer]) throws {
        while true {
            // One byte past the limit is enough to know it was passed.
            let room = limit - produced
            let capacity = room >= Self.outputChunk ? Self.outputChunk : room + 1
            var buffer = ByteBufferAllocator().buffer(capacity: capacity)
            var status = Z_OK
            buffer.writeWithUnsafeMutableBytes(minimumWritableBytes: capacity) { space in
                stream.pointee.next_out = space.bindMemory(to: Bytef.self).baseAddress
                stream.pointee.avail_out = UInt32(space.count)
                status = CZlib.inflate(stream, Z_NO_FLUSH)
                let written = space.count - Int(stream.pointee.avail_out)
                stream.pointee.next_out = nil
                stream.pointee.avail_out = 0
                return written
            }
            produced += buffer.readableBytes
            if produced > limit { throw InflateError.limit }
            if buffer.readableBytes > 0 { output.append(buffer) }
            switch status {
            case Z_STREAM_END:
                ended = true
                return
            case Z_OK:
                // Output filled the buffer: more may be waiting. Otherwise the input is used up.
                if buffer.readableBytes < capacity, stream.pointee.avail_in == 0 { return }
            case Z_BUF_ERROR:
                // No progress was possible: everything given has been used.
                return
            default:
                let message = stream.pointee.msg.map { String(cString: $0) } ?? "zlib status \(status)"
                throw InflateError.corrupt(message)
            }
        }
    }
}
