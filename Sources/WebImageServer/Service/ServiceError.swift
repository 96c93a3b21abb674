#if Server
    import WebImage

    /// A request that ends in an error response: its HTTP status and a message safe to show (never
    /// a credential, a file path or a library internal).
    public struct ServiceError: Error, Sendable, Equatable, CustomStringConvertible {
        /// The HTTP status code.
        public var status: Int
        /// One line for the response body and the log.
        public var message: String
        /// Whether fetching the source failed (not the URL, the options or the processing): the
        /// failures a fallback image answers for.
        var isSourceFailure = false

        public init(status: Int, message: String) {
            self.status = status
            self.message = message
        }

        /// The same status and message: where the error arose is not part of it.
        public static func == (lhs: ServiceError, rhs: ServiceError) -> Bool {
            lhs.status == rhs.status && lhs.message == rhs.message
        }

        /// This error, marked as a failure to fetch the source.
        var fromSource: ServiceError {
            var marked = self
            marked.isSourceFailure = true
            return marked
        }

        public var description: String { "\(status): \(message)" }

        /// 400: the URL or an option is malformed.
        public static func badRequest(_ message: String) -> ServiceError { ServiceError(status: 400, message: message) }
        /// 403: a bad signature or a refused source.
        public static func forbidden(_ message: String) -> ServiceError { ServiceError(status: 403, message: message) }
        /// 404: the source does not exist, or the URL expired.
        public static func notFound(_ message: String) -> ServiceError { ServiceError(status: 404, message: message) }
        /// 422: the source is not an image this service can decode.
        public static func unprocessable(_ message: String) -> ServiceError {
            ServiceError(status: 422, message: message)
        }
        /// 502: the source server failed.
        public static func badGateway(_ message: String) -> ServiceError { ServiceError(status: 502, message: message) }
        /// 504: the source did not answer in time.
        public static func gatewayTimeout(_ message: String) -> ServiceError {
            ServiceError(status: 504, message: message)
        }
        /// 500: processing failed for a reason of ours.
        public static func internalError(_ message: String) -> ServiceError {
            ServiceError(status: 500, message: message)
        }
    }

    extension ServiceError: InFlightFailure {
        /// 499 (nginx's "client closed request"): the request went away before its result.
        public static let cancelled = ServiceError(status: 499, message: "the request was cancelled")
    }
#endif
