import NIOCore
import NIOHTTP1
import WebImage

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// How a body transfer ends once its bytes are written.
private enum BodyEnding {
    /// The normal `end`; the connection stays open unless asked to close.
    case complete
    /// `short=N`: close without ending, leaving the body short of its Content-Length.
    case close
    /// `reset=N`: abort with a TCP reset.
    case reset
}

/// How the body travels: the transport faults (`delay`, `drip`, `chunked`, `reset`, `short`, `long`,
/// `stall`, `close`).
extension OriginHandler {
    /// Chunk size for `chunked=1` without `drip`, so the client sees several chunks.
    private static let defaultChunkSize = 16 << 10

    func transmit(
        _ response: OriginResponse, faults: FaultOptions, request: OriginRequest, context: ChannelHandlerContext
    ) {
        var headers = response.headers
        let closeAfter = faults.close || !request.keepAlive
        if closeAfter {
            headers.replaceOrAdd(name: "Connection", value: "close")
        } else if request.head.version.major == 1 && request.head.version.minor == 0 {
            headers.replaceOrAdd(name: "Connection", value: "keep-alive")
        }
        if faults.chunked, response.body != nil {
            headers.remove(name: "Content-Length")
            headers.replaceOrAdd(name: "Transfer-Encoding", value: "chunked")
        } else if let extra = faults.long, let body = response.body {
            // The whole body still goes out: the client reads the declared bytes and finds the
            // rest where the next response should begin.
            headers.replaceOrAdd(name: "Content-Length", value: String(max(body.readableBytes - extra, 0)))
        }
        let head = HTTPResponseHead(version: request.head.version, status: response.status, headers: headers)
        let body = request.isHead ? nil : response.body
        let start = { self.sendHead(head, body: body, faults: faults, closeAfter: closeAfter, context: context) }
        if faults.delay > 0 {
            pending = context.eventLoop.assumeIsolated().scheduleTask(in: .milliseconds(faults.delay), start)
        } else {
            start()
        }
    }

    private func sendHead(
        _ head: HTTPResponseHead, body: ByteBuffer?, faults: FaultOptions, closeAfter: Bool,
        context: ChannelHandlerContext
    ) {
        guard isActive else { return }
        let headWritten = context.write(wrapOutboundOut(.head(head)))
        if faults.stall {
            // Stays in flight until the client gives up and closes.
            context.flush()
            return
        }
        guard let body else {
            sendEnd(closeAfter: closeAfter, context: context)
            return
        }
        var limit = body.readableBytes
        var ending = BodyEnding.complete
        if let count = faults.reset {
            limit = min(count, limit)
            ending = .reset
        } else if let count = faults.short {
            limit = min(count, limit)
            ending = .close
        }
        let chunk = faults.drip?.bytes ?? (faults.chunked ? Self.defaultChunkSize : max(limit, 1))
        let slice = body.getSlice(at: body.readerIndex, length: limit) ?? body
        sendBody(
            slice, chunk: chunk, interval: faults.drip?.milliseconds ?? 0, ending: ending, closeAfter: closeAfter,
            lastWrite: headWritten, context: context)
    }

    /// Writes `remaining` in pieces of `chunk` bytes, `interval` ms apart, then ends as `ending` says.
    private func sendBody(
        _ remaining: ByteBuffer, chunk: Int, interval: Int64, ending: BodyEnding, closeAfter: Bool,
        lastWrite: EventLoopFuture<Void>, context: ChannelHandlerContext
    ) {
        guard isActive else { return }
        var remaining = remaining
        var lastWrite = lastWrite
        while let piece = remaining.readSlice(length: min(chunk, remaining.readableBytes)), piece.readableBytes > 0 {
            lastWrite = context.write(wrapOutboundOut(.body(.byteBuffer(piece))))
            if interval > 0 && remaining.readableBytes > 0 {
                context.flush()
                pending = context.eventLoop.assumeIsolated().scheduleTask(in: .milliseconds(interval)) {
                    [lastWrite] in
                    self.sendBody(
                        remaining, chunk: chunk, interval: interval, ending: ending, closeAfter: closeAfter,
                        lastWrite: lastWrite, context: context)
                }
                return
            }
        }
        switch ending {
        case .complete:
            sendEnd(closeAfter: closeAfter, context: context)
        case .close:
            // Close only once the bytes are in the socket, or the client would see fewer than asked.
            context.flush()
            lastWrite.assumeIsolated().whenComplete { _ in context.close(promise: nil) }
        case .reset:
            context.flush()
            lastWrite.assumeIsolated().whenComplete { _ in self.abort(context: context) }
        }
    }

    private func sendEnd(closeAfter: Bool, context: ChannelHandlerContext) {
        finishInFlight()
        let written = context.writeAndFlush(wrapOutboundOut(.end(nil)))
        if closeAfter {
            written.assumeIsolated().whenComplete { _ in context.close(promise: nil) }
        }
    }

    /// Closes with SO_LINGER 0, so the kernel sends RST instead of FIN: the client sees a reset.
    private func abort(context: ChannelHandlerContext) {
        guard isActive, let provider = context.channel as? any SocketOptionProvider else {
            context.close(promise: nil)
            return
        }
        provider.setSoLinger(linger(l_onoff: 1, l_linger: 0)).assumeIsolated().whenComplete { _ in
            context.close(promise: nil)
        }
    }
}
