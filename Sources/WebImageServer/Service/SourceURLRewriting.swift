#if Server
    import Foundation
    import WebImage

    /// How a decoded source becomes the URL fetched, as imgproxy's `IMGPROXY_URL_REPLACEMENTS` and
    /// `IMGPROXY_BASE_URL` make it: the first replacement whose pattern matches the start of the
    /// source rewrites that start, then a base URL is put in front of a source that does not
    /// already start with it.
    public struct SourceURLRewriting: Sendable, Equatable {
        /// A pattern for the start of a source, where `*` matches any run of characters but `/`,
        /// and its replacement, where `${1}`, `${2}`… stand for what the stars matched.
        public struct Replacement: Sendable, Equatable {
            public var pattern: String
            public var replacement: String

            public init(pattern: String, replacement: String) {
                self.pattern = pattern
                self.replacement = replacement
            }

            /// `source` with its start rewritten, or nil when the pattern does not match it.
            func apply(to source: String) -> String? {
                let literals = pattern.split(separator: "*", omittingEmptySubsequences: false).map(String.init)
                var captures: [Substring] = []
                var rest = Substring(source)
                for (index, literal) in literals.enumerated() {
                    if index == 0 {
                        guard rest.hasPrefix(literal) else { return nil }
                        rest = rest.dropFirst(literal.count)
                        continue
                    }
                    // A star: the shortest run without '/' that the next literal follows (or the
                    // longest, when the pattern ends with the star).
                    let isLast = index == literals.count - 1 && literal.isEmpty
                    let run = rest.prefix { $0 != "/" }
                    var taken: Int?
                    for length in (isLast ? Array((0...run.count).reversed()) : Array(0...run.count)) {
                        if rest.dropFirst(length).hasPrefix(literal) {
                            taken = length
                            break
                        }
                    }
                    guard let taken else { return nil }
                    captures.append(rest.prefix(taken))
                    rest = rest.dropFirst(taken + literal.count)
                }
                var replaced = replacement
                for (index, capture) in captures.enumerated().reversed() {
                    replaced = replaced.replacingOccurrences(of: "${\(index + 1)}", with: String(capture))
                }
                return replaced + rest
            }
        }

        public var replacements: [Replacement] = []
        /// Put in front of every source that does not start with it (empty: nothing).
        public var baseURL = ""

        public init(replacements: [Replacement] = [], baseURL: String = "") {
            self.replacements = replacements
            self.baseURL = baseURL
        }

        /// Parses `pattern=replacement` pairs (imgproxy's `;`-separated list, one pair each here).
        public static func replacements(_ pairs: [String]) throws(ServiceError) -> [Replacement] {
            var parsed: [Replacement] = []
            for pair in pairs where !pair.trimmingCharacters(in: .whitespaces).isEmpty {
                let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                guard parts.count == 2, !parts[0].isEmpty else {
                    throw .badRequest("URL replacement '\(pair)' is not PATTERN=REPLACEMENT")
                }
                parsed.append(Replacement(pattern: String(parts[0]), replacement: String(parts[1])))
            }
            return parsed
        }

        public func rewrite(_ source: String) -> String {
            var rewritten = source
            for replacement in replacements {
                if let applied = replacement.apply(to: rewritten) {
                    rewritten = applied
                    break
                }
            }
            if !baseURL.isEmpty, !rewritten.hasPrefix(baseURL) { rewritten = baseURL + rewritten }
            return rewritten
        }
    }
#endif
