#if Server
    import WebImage

    /// An allowed-source prefix, where `*` matches any run of characters except `/` (imgproxy's
    /// `IMGPROXY_ALLOWED_SOURCES` rule): `https://*.example.com/` allows
    /// `https://cdn.example.com/a.png` and refuses `https://example.org/.example.com/a.png`.
    struct AllowedSourcePattern {
        /// The literal pieces between the `*`s.
        private let pieces: [Substring]

        init(_ pattern: String) {
            pieces = pattern.split(separator: "*", omittingEmptySubsequences: false)
        }

        /// Whether `source` starts with text the pattern matches.
        func matchesStart(of source: String) -> Bool {
            Self.matches(Substring(source), pieces[...])
        }

        private static func matches(_ text: Substring, _ pieces: ArraySlice<Substring>) -> Bool {
            guard let first = pieces.first, text.hasPrefix(first) else { return false }
            let rest = pieces.dropFirst()
            guard !rest.isEmpty else { return true }
            // A `*` follows `first`: try every end of a run without `/`.
            var remainder = text.dropFirst(first.count)
            while true {
                if matches(remainder, rest) { return true }
                guard let next = remainder.first, next != "/" else { return false }
                remainder = remainder.dropFirst()
            }
        }
    }
#endif
