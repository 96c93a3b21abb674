import Foundation
import NIOCore
import NIOHTTP1
import WebImage

/// Collects one request's head and body as its parts arrive, for the fakes that answer only
/// once a request is whole (``FakeS3``, ``OTLPReceiver``).
struct WholeRequestAssembler {
    private var head: HTTPRequestHead?
    private var body = Data()

    /// Takes one part; at a request's end returns the whole request and starts over.
    mutating func received(_ part: HTTPServerRequestPart) -> (head: HTTPRequestHead, body: Data)? {
        switch part {
        case .head(let head):
            self.head = head
            body = Data()
        case .body(let buffer):
            body.append(contentsOf: buffer.readableBytesView)
        case .end:
            guard let head else { return nil }
            self.head = nil
            return (head, body)
        }
        return nil
    }
}

/// A connection's handler for a fake that answers whole requests: the assembling and the
/// closing on an error are written once here, the answer in ``respond(to:body:context:)``.
protocol WholeRequestResponder: ChannelInboundHandler where InboundIn == HTTPServerRequestPart {
    var request: WholeRequestAssembler { get set }
    func respond(to head: HTTPRequestHead, body: Data, context: ChannelHandlerContext)
}

extension WholeRequestResponder {
    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        if let (head, body) = request.received(unwrapInboundIn(data)) {
            respond(to: head, body: body, context: context)
        }
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        context.close(promise: nil)
    }
}
