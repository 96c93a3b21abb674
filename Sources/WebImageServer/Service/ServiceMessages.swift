#if Server
    import Foundation
    import WebImage

    /// What the service needs from an HTTP request: the raw path and the headers it reads.
    public struct ServiceRequest: Sendable {
        /// The path as sent, still percent-encoded, without the query.
        public var path: String
        public var accept: String?
        public var ifNoneMatch: String?
        public var ifModifiedSince: String?
        /// The Client Hints the request carries, read when the service reads them.
        public var clientHints = ClientHints()
        /// The `Authorization` header, checked when the service has a secret.
        public var authorization: String?
        /// `GET` or `HEAD`, for the server span's name.
        public var method = "GET"
        /// The W3C trace context the request carries, continued when tracing.
        public var traceparent: String?
        public var tracestate: String?

        public init(path: String, accept: String? = nil, ifNoneMatch: String? = nil, ifModifiedSince: String? = nil) {
            self.path = path
            self.accept = accept
            self.ifNoneMatch = ifNoneMatch
            self.ifModifiedSince = ifModifiedSince
        }
    }

    /// What the service answers: status, headers and body, independent of the HTTP server.
    public struct ServiceResponse: Sendable, Equatable {
        public var status: Int
        /// Header names in their canonical case, in the order they are sent.
        public var headers: [(name: String, value: String)]
        public var body: Data

        public init(status: Int, headers: [(name: String, value: String)], body: Data) {
            self.status = status
            self.headers = headers
            self.body = body
        }

        /// The value of header `name` (case-insensitive), if present.
        public func header(_ name: String) -> String? {
            headers.first { $0.name.caseInsensitiveCompare(name) == .orderedSame }?.value
        }

        public static func == (lhs: ServiceResponse, rhs: ServiceResponse) -> Bool {
            lhs.status == rhs.status && lhs.body == rhs.body
                && lhs.headers.map { "\($0.name): \($0.value)" } == rhs.headers.map { "\($0.name): \($0.value)" }
        }

        /// An error response: its message as plain text, never cached.
        static func failure(_ error: ServiceError) -> ServiceResponse {
            ServiceResponse(
                status: error.status,
                headers: [("Content-Type", "text/plain; charset=utf-8"), ("Cache-Control", "no-cache")],
                body: Data((error.message + "\n").utf8))
        }
    }
#endif
