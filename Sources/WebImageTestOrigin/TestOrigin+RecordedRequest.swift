import NIOHTTP1
import WebImage

extension TestOrigin {
    /// One request head as the origin received it.
    public struct RecordedRequest: Sendable {
        /// The method, e.g. `GET`.
        public var method: String
        /// The request target as sent: path and query.
        public var uri: String
        /// Header fields in the order received, names as the client spelled them.
        public var headers: [(String, String)]

        public init(method: String, uri: String, headers: [(String, String)]) {
            self.method = method
            self.uri = uri
            self.headers = headers
        }

        /// The first value of the header `name`, compared case-insensitively; `nil` when absent.
        public func header(_ name: String) -> String? {
            let wanted = name.lowercased()
            return headers.first { $0.0.lowercased() == wanted }?.1
        }
    }
}

/// What the origin keeps per request: the NIO head as is, turned into a ``TestOrigin/RecordedRequest``
/// only when a test asks, so the benchmark's request path stays cheap.
struct RecordedHead: Sendable {
    var method: HTTPMethod
    var uri: String
    var headers: HTTPHeaders

    var publicValue: TestOrigin.RecordedRequest {
        TestOrigin.RecordedRequest(
            method: method.rawValue, uri: uri, headers: headers.map { ($0.name, $0.value) })
    }
}
