#if Server
    import Foundation
    import WebImage

    /// A request path in imgproxy's format, split into its parts:
    /// `/{signature}/{options}/plain/{percent-encoded source}[@{ext}]` or
    /// `/{signature}/{options}/{base64url source}[.{ext}]`.
    ///
    /// Options are the segments before the source: each holds the argument separator `:`, the
    /// source's first segment does not (`plain`, or base64url text). A base64url source may be split
    /// by `/` anywhere; its segments are joined again before decoding.
    public struct ProcessingPath: Sendable, Equatable {
        /// The first segment: a signature, or anything when signing is off.
        public var signature: String
        /// What the signature covers: the rest of the path, leading `/` included, exactly as sent.
        public var signedPath: String
        /// The option segments in order, such as `rs:fill:300:200`.
        public var optionSegments: [String]
        /// The source URL, decoded.
        public var source: String
        /// The output format's extension (`png`, `webp`, …) when the path names one.
        public var formatExtension: String?

        /// Splits `path` (the raw request path, still percent-encoded). Throws a
        /// ``ServiceError`` with status 400 for a path that is not in either format.
        public init(_ path: String) throws(ServiceError) {
            guard path.hasPrefix("/") else { throw .badRequest("the path must start with '/'") }
            let afterSlash = path.dropFirst()
            guard let cut = afterSlash.firstIndex(of: "/") else {
                throw .badRequest("the path has no options or source after the signature")
            }
            signature = String(afterSlash[..<cut])
            signedPath = String(afterSlash[cut...])
            let segments = afterSlash[afterSlash.index(after: cut)...].split(
                separator: "/", omittingEmptySubsequences: false)
            var index = 0
            var options: [String] = []
            while index < segments.count, segments[index].contains(":") {
                options.append(String(segments[index]))
                index += 1
            }
            optionSegments = options
            let sourceSegments = segments[index...]
            guard let first = sourceSegments.first, !first.isEmpty else {
                throw .badRequest("the path has no source URL")
            }
            if first == "plain", sourceSegments.count > 1 {
                (source, formatExtension) = try Self.plainSource(sourceSegments.dropFirst().joined(separator: "/"))
            } else {
                (source, formatExtension) = try Self.encodedSource(sourceSegments.joined())
            }
        }

        /// `http://host/a.jpg@webp`: one `@` at most; the URL is percent-decoded.
        private static func plainSource(_ text: String) throws(ServiceError) -> (String, String?) {
            let parts = text.split(separator: "@", omittingEmptySubsequences: false)
            guard parts.count <= 2 else {
                throw .badRequest("the plain source has more than one '@' (write a literal '@' as %40)")
            }
            guard let decoded = String(parts[0]).removingPercentEncoding, !decoded.isEmpty else {
                throw .badRequest("the plain source is empty or badly percent-encoded")
            }
            return (decoded, parts.count == 2 ? String(parts[1]) : nil)
        }

        /// base64url text without padding (padding is tolerated), then an optional `.ext`.
        private static func encodedSource(_ text: String) throws(ServiceError) -> (String, String?) {
            let parts = text.split(separator: ".", omittingEmptySubsequences: false)
            guard parts.count <= 2 else { throw .badRequest("the encoded source has more than one '.'") }
            guard let data = Data(base64URLEncoded: parts[0]), let decoded = String(data: data, encoding: .utf8),
                !decoded.isEmpty
            else {
                throw .badRequest("the source is neither 'plain/…' nor valid base64url")
            }
            return (decoded, parts.count == 2 ? String(parts[1]) : nil)
        }
    }
#endif
