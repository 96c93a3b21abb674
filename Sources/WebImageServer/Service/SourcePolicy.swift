#if Server
    import Foundation
    import WebImage

    /// Which source URLs the service fetches: http and https with a host, and, when prefixes are
    /// configured, only those starting with one of them (``AllowedSourcePattern``), checked after
    /// the configured rewriting (``SourceURLRewriting``).
    struct SourcePolicy {
        let configuration: ServiceConfiguration

        /// Characters a decoded source may keep as they are; anything else (a space, a quote,
        /// non-ASCII, a literal `%`) is percent-encoded again before the URL is parsed.
        private static let keptCharacters = CharacterSet.urlQueryAllowed.union(CharacterSet(charactersIn: "#"))

        /// The URL to fetch for `decoded`; `rewrites: false` skips the rewriting (a `watermark_url`
        /// unless ``ServiceConfiguration/watermarkPreprocessesURL``).
        func url(for decoded: String, rewrites: Bool = true) throws(ServiceError) -> URL {
            let source = rewrites ? configuration.sourceRewriting.rewrite(decoded) : decoded
            let parsed =
                URL(string: source)
                ?? source.addingPercentEncoding(withAllowedCharacters: Self.keptCharacters).flatMap(URL.init(string:))
            guard let url = parsed, let scheme = url.scheme?.lowercased(),
                scheme == "http" || scheme == "https", let host = url.host, !host.isEmpty
            else {
                throw .badRequest("the source must be an http or https URL")
            }
            let prefixes = configuration.allowedSourcePrefixes
            guard prefixes.isEmpty || prefixes.contains(where: { AllowedSourcePattern($0).matchesStart(of: source) })
            else {
                throw .forbidden("the source is not among the allowed sources")
            }
            return url
        }
    }
#endif
