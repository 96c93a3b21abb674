import Foundation
import NIOCore
import NIOHTTP1
import WebImage

/// Answers one connection's requests for ``FakeS3``.
final class FakeS3Handler: WholeRequestResponder {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    private let state: Locked<FakeS3.State>
    var request = WholeRequestAssembler()

    init(state: Locked<FakeS3.State>) {
        self.state = state
    }

    func respond(to head: HTTPRequestHead, body: Data, context: ChannelHandlerContext) {
        let path = percentDecoded(head.uri.split(separator: "?", maxSplits: 1).first ?? "")
        let record = TestOrigin.RecordedRequest(
            method: head.method.rawValue, uri: head.uri, headers: head.headers.map { ($0.name, $0.value) })
        let (fault, object): (FakeS3.Fault?, Data?) = state.withLock { state in
            state.requests.append(record)
            guard state.fault == nil, Self.isSigned(head.headers) else { return (state.fault, state.objects[path]) }
            switch head.method {
            case .PUT: state.objects[path] = body
            case .DELETE: state.objects[path] = nil
            default: break
            }
            return (nil, state.objects[path])
        }
        switch fault {
        case .stall:
            return
        case .cutOff:
            guard let object else { return send(404, body: Data(), context: context) }
            send(200, body: object.prefix(object.count / 2), announcing: object.count, context: context)
            context.close(promise: nil)
        case .status(let status):
            send(status, body: Data("<Error><Code>Injected</Code></Error>".utf8), context: context)
        case nil:
            guard Self.isSigned(head.headers) else {
                return send(403, body: Data("<Error><Code>AccessDenied</Code></Error>".utf8), context: context)
            }
            switch head.method {
            case .GET, .HEAD:
                if let object {
                    send(200, body: object, announcing: object.count, omitBody: head.method == .HEAD, context: context)
                } else {
                    send(404, body: Data("<Error><Code>NoSuchKey</Code></Error>".utf8), context: context)
                }
            case .PUT: send(200, body: Data(), context: context)
            case .DELETE: send(204, body: Data(), context: context)
            default: send(405, body: Data(), context: context)
            }
        }
    }

    /// `AWS4-HMAC-SHA256 Credential=…, SignedHeaders=…, Signature=<64 hex>` and an `x-amz-date`.
    static func isSigned(_ headers: HTTPHeaders) -> Bool {
        guard let value = headers.first(name: "Authorization"), headers.first(name: "x-amz-date") != nil else {
            return false
        }
        let parts = value.split(separator: " ", maxSplits: 1)
        guard parts.count == 2, parts[0] == "AWS4-HMAC-SHA256" else { return false }
        let fields = parts[1].split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        guard fields.count == 3, fields[0].hasPrefix("Credential="), fields[1].hasPrefix("SignedHeaders="),
            fields[2].hasPrefix("Signature=")
        else { return false }
        let signature = fields[2].dropFirst("Signature=".count)
        return signature.count == 64 && signature.allSatisfy(\.isHexDigit)
    }

    private func send(
        _ status: Int, body: Data, announcing length: Int? = nil, omitBody: Bool = false,
        context: ChannelHandlerContext
    ) {
        var headers = HTTPHeaders()
        headers.add(name: "Content-Length", value: String(length ?? body.count))
        headers.add(name: "Content-Type", value: "application/octet-stream")
        let head = HTTPResponseHead(version: .http1_1, status: HTTPResponseStatus(statusCode: status), headers: headers)
        context.write(wrapOutboundOut(.head(head)), promise: nil)
        if !omitBody, !body.isEmpty {
            context.write(wrapOutboundOut(.body(.byteBuffer(ByteBuffer(bytes: body)))), promise: nil)
        }
        context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
    }
}
