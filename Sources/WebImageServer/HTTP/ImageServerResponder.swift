#if Server
    import Foundation
    import HTTPTypes
    import Hummingbird
    import NIOCore
    import WebImage

    /// The HTTP front of an ``ImageService`` on Hummingbird: `GET /health`, `GET /metrics`
    /// (Prometheus text), `GET /` (a home page, when given), and every other `GET` path as an
    /// imgproxy-style image URL.
    public struct ImageServerResponder: HTTPResponder {
        public typealias Context = BasicRequestContext
        public let service: ImageService
        /// The HTML served at `/` (`webimage serve --demo`'s gallery); nil leaves `/` an image path.
        public let homePage: String?

        private static let traceparent = HTTPField.Name("traceparent")!
        private static let tracestate = HTTPField.Name("tracestate")!
        private static let hintNames = ClientHints.headerNames.compactMap { HTTPField.Name($0) }

        public init(service: ImageService, homePage: String? = nil) {
            self.service = service
            self.homePage = homePage
        }

        public func respond(to request: Request, context: Context) async throws -> Response {
            guard request.method == .get || request.method == .head else {
                return Response(
                    status: .methodNotAllowed,
                    headers: [.allow: "GET, HEAD", .contentType: "text/plain; charset=utf-8"],
                    body: ResponseBody(byteBuffer: ByteBuffer(string: "only GET and HEAD are served\n")))
            }
            guard let path = Self.route(request.uri.path, under: service.configuration.pathPrefix) else {
                return Response(
                    status: .notFound, headers: [.contentType: "text/plain; charset=utf-8"],
                    body: ResponseBody(byteBuffer: ByteBuffer(string: "not found\n")))
            }
            if path == "/health" {
                let draining = service.isDraining
                return Response(
                    status: draining ? .serviceUnavailable : .ok,
                    headers: [.contentType: "text/plain; charset=utf-8", .cacheControl: "no-cache"],
                    body: ResponseBody(byteBuffer: ByteBuffer(string: draining ? "draining" : "OK")))
            }
            if path == "/", let homePage {
                return Response(
                    status: .ok,
                    headers: [
                        .contentType: "text/html; charset=utf-8", .cacheControl: "no-cache",
                        .contentLength: String(homePage.utf8.count),
                    ],
                    body: ResponseBody(byteBuffer: ByteBuffer(string: request.method == .head ? "" : homePage)))
            }
            if path == "/metrics" {
                return Response(
                    status: .ok,
                    headers: [.contentType: "text/plain; version=0.0.4; charset=utf-8", .cacheControl: "no-cache"],
                    body: ResponseBody(byteBuffer: ByteBuffer(string: service.metricsText())))
            }
            var serviceRequest = ServiceRequest(
                path: path, accept: request.headers[.accept], ifNoneMatch: request.headers[.ifNoneMatch],
                ifModifiedSince: request.headers[.ifModifiedSince])
            serviceRequest.method = request.method.rawValue
            serviceRequest.authorization = request.headers[.authorization]
            if service.configuration.readsClientHints {
                let values = Self.hintNames.map { request.headers[$0] }
                serviceRequest.clientHints = ClientHints(
                    secCHDPR: values[0], dpr: values[1], secCHWidth: values[2], width: values[3])
            }
            if service.configuration.tracer != nil {
                serviceRequest.traceparent = request.headers[Self.traceparent]
                serviceRequest.tracestate = request.headers[Self.tracestate]
            }
            let answer = await service.respond(to: serviceRequest)
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

        /// The path below `prefix` (`/p/x` under `/p` is `/x`, `/p` alone is `/`), or nil when it
        /// is not under it. An empty prefix takes every path as it is.
        static func route(_ path: String, under prefix: String) -> String? {
            guard !prefix.isEmpty else { return path }
            guard path.hasPrefix(prefix) else { return nil }
            let rest = path.dropFirst(prefix.count)
            if rest.isEmpty { return "/" }
            return rest.hasPrefix("/") ? String(rest) : nil
        }
    }
#endif
