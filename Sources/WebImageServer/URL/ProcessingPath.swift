#if Server
    import Foundation
    import WebImage

    /// A request path in imgproxy's format, split into its parts:
    /// `/{signature}/{options}/plain/{percent-encoded source}[@{ext}]` or
    /// `/{signature}/{options}/{base64url source}[.{ext}]`.
    ///
    /// Options are the segments before the source: each holds the argument separator `:` (or is
    /// `-`, which starts a chained pipeline), the source's first segment does not (`plain`, or
    /// base64url text). A base64url source may be split by `/` anywhere; its segments are joined
    /// again before decoding. With presets only, the first segment after the signature names
    /// presets (`thumb:sharp`) and the source follows.
    ///
    /// What proxies and CDNs do to paths is undone first, as imgproxy undoes it, and the signature
    /// covers the restored path: `%3A` in the options becomes `:`, and a plain source whose
    /// `scheme://` was squeezed to `scheme:/` gets its second slash back.
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
        /// ``ServiceError`` with status 400 for a path that is not in either format. With
        /// `onlyPresets`, the first segment is a `:`-separated list of presets, given as one
        /// `preset` option.
        public init(_ path: String, onlyPresets: Bool = false) throws(ServiceError) {
            guard path.hasPrefix("/") else { throw .badRequest("the path must start with '/'") }
            let afterSlash = path.dropFirst()
            guard let cut = afterSlash.firstIndex(of: "/") else {
                throw .badRequest("the path has no options or source after the signature")
            }
            signature = String(afterSlash[..<cut])
            let restored = Self.restored(String(afterSlash[afterSlash.index(after: cut)...]))
            signedPath = "/" + restored
            let segments = restored.split(separator: "/", omittingEmptySubsequences: false)
            var index = 0
            var options: [String] = []
            if onlyPresets {
                guard segments.count > 1 else { throw .badRequest("the path has no presets and source") }
                options = ["preset:" + segments[0]]
                index = 1
            } else {
                while index < segments.count, segments[index].contains(":") || segments[index] == "-" {
                    options.append(String(segments[index]))
                    index += 1
                }
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

        /// The path after the signature with what proxies do to it undone: `%3A` in the options
        /// (everything before `/plain/`, or the whole path without one) read as `:`, and a plain
        /// source starting `scheme:/x` restored to `scheme://x`.
        @_spi(Internals) public static func restored(_ path: String) -> String {
            let options: Substring
            let plain: Substring?
            if path.hasPrefix("plain/") {
                (options, plain) = ("", path.dropFirst("plain/".count))
            } else if let marker = path.range(of: "/plain/") {
                (options, plain) = (path[..<marker.lowerBound], path[marker.upperBound...])
            } else {
                (options, plain) = (Substring(path), nil)
            }
            let restoredOptions =
                options.contains("%3A") ? options.replacingOccurrences(of: "%3A", with: ":") : String(options)
            guard let plain else { return restoredOptions }
            let source = withSchemeSlashes(plain)
            return restoredOptions.isEmpty ? "plain/" + source : restoredOptions + "/plain/" + source
        }

        /// `scheme:/x` as `scheme://x` (a scheme: a letter, then letters, digits, `+`, `.` or `-`);
        /// anything else as it is. A scan, not a regular expression: it runs on every request.
        private static func withSchemeSlashes(_ source: Substring) -> String {
            let bytes = source.utf8
            guard let colon = bytes.firstIndex(of: UInt8(ascii: ":")), colon != bytes.startIndex else {
                return String(source)
            }
            let scheme = bytes[..<colon]
            func isLetter(_ byte: UInt8) -> Bool {
                (byte | 0x20) >= UInt8(ascii: "a") && (byte | 0x20) <= UInt8(ascii: "z")
            }
            guard let first = scheme.first, isLetter(first),
                scheme.allSatisfy({
                    isLetter($0) || ($0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9")) || "+.-".utf8.contains($0)
                })
            else { return String(source) }
            let rest = bytes[bytes.index(after: colon)...]
            guard rest.count >= 2, rest.first == UInt8(ascii: "/"), rest.dropFirst().first != UInt8(ascii: "/") else {
                return String(source)
            }
            return String(source[..<source.index(after: colon)]) + "/" + String(source[source.index(after: colon)...])
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
