import Foundation
import HTTPTypes
import Hummingbird
import Logging
import NIOCore

/// The HTTP front of an ``ImageService`` on Hummingbird: `GET /health`, `GET /metrics`
/// (Prometheus text), and every other `GET` path as an imgproxy-style image URL.
public struct ImageServerResponder: HTTPResponder {
    public typealias Context = BasicRequestContext
    public let service: ImageService

    public init(service: ImageService) {
        self.service = service
    }

    public func respond(to request: Request, context: Context) async throws -> Response {
        guard request.method == .get || request.method == .head else {
            return Response(
                status: .methodNotAllowed, headers: [.allow: "GET, HEAD", .contentType: "text/plain; charset=utf-8"],
                body: ResponseBody(byteBuffer: ByteBuffer(string: "only GET and HEAD are served\n")))
        }
        let path = request.uri.path
        if path == "/health" {
            return Response(
                status: .ok, headers: [.contentType: "text/plain; charset=utf-8", .cacheControl: "no-cache"],
                body: ResponseBody(byteBuffer: ByteBuffer(string: "OK")))
        }
        if path == "/metrics" {
            return Response(
                status: .ok,
                headers: [.contentType: "text/plain; version=0.0.4; charset=utf-8", .cacheControl: "no-cache"],
                body: ResponseBody(byteBuffer: ByteBuffer(string: service.metricsText())))
        }
        let answer = await service.respond(
            to: ServiceRequest(
                path: path, accept: request.headers[.accept], ifNoneMatch: request.headers[.ifNoneMatch],
                ifModifiedSince: request.headers[.ifModifiedSince]))
        var headers = HTTPFields()
        for (name, value) in answer.headers {
            if let field = HTTPField.Name(name) { headers.append(HTTPField(name: field, value: value)) }
        }
        let body = request.method == .head ? ByteBuffer() : ByteBuffer(bytes: answer.body)
        headers[.contentLength] = String(answer.body.count)
        return Response(
            status: HTTPResponse.Status(code: answer.status), headers: headers,
            body: ResponseBody(byteBuffer: body))
    }
}

/// Builds the Hummingbird application that serves an ``ImageService``.
public enum ImageServer {
    /// An application listening on `host`:`port` (loopback by default; port 0 picks a free one).
    /// `onListening` gets the address actually bound, once the server accepts connections.
    /// Running it as a service (`runService()`) stops on SIGTERM or SIGINT: it stops accepting,
    /// finishes the requests in flight, then returns.
    public static func application(
        service: ImageService, host: String = "127.0.0.1", port: Int = 8080, logger: Logger? = nil,
        onListening: @escaping @Sendable (_ host: String, _ port: Int) async -> Void = { _, _ in }
    ) -> some ApplicationProtocol {
        Application(
            responder: ImageServerResponder(service: service),
            configuration: ApplicationConfiguration(address: .hostname(host, port: port), serverName: "webimage"),
            onServerRunning: { channel in
                let address = channel.localAddress
                await onListening(address?.ipAddress ?? host, address?.port ?? port)
            },
            logger: logger)
    }
}
