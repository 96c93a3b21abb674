#if Server
    import Crypto
    import Foundation
    import WebImage

    /// One processed image ready to send.
    @_spi(Internals) public struct ProcessedResult: Sendable {
        @_spi(Internals) public var data: Data
        package var contentType: String
        /// A strong validator: a digest of the bytes, so the same result always has the same ETag.
        var etag: String
        /// When the result was made (its `Last-Modified` when the source sent none).
        var created: Date
        /// What the source's response said about it: `Last-Modified` (sent on as the result's),
        /// `Cache-Control` and its freshness (sent on with `--cache-control-passthrough`).
        var source = SourceCaching()

        init(data: Data, contentType: String, etag: String? = nil, created: Date = Date()) {
            self.data = data
            self.contentType = contentType
            self.etag = etag ?? Self.etag(of: data)
            self.created = Date(timeIntervalSince1970: created.timeIntervalSince1970.rounded(.down))
        }

        /// What every image answer allows a browser that shows it: no scripts, no loads but
        /// `data:` images, inline styles, in a sandbox (imgproxy's header).
        static let contentSecurityPolicy = "default-src 'none'; style-src 'unsafe-inline'; img-src data:; sandbox"

        static func etag(of data: Data) -> String {
            let digest = SHA256.hash(data: data)
            return "\"" + digest.prefix(16).map { String(format: "%02x", $0) }.joined() + "\""
        }

        /// The `Last-Modified` sent: the source's when it sent a valid one, else when the result was made.
        var lastModified: Date { source.lastModified.flatMap(HTTPDate.parse) ?? created }

        /// The response: 304 when the request's validators match (a 200 answer only), else the
        /// bytes, with the caching, `Vary` and `Content-Disposition` headers the options call for.
        func response(to request: ServiceRequest, options: ProcessingOptions, policy: ResponsePolicy)
            -> ServiceResponse
        {
            var headers: [(name: String, value: String)] = [
                ("Cache-Control", policy.cacheControl(expires: options.expires, source: source)),
                ("ETag", etag),
                ("Last-Modified", HTTPDate.format(lastModified)),
            ]
            if !policy.vary.isEmpty { headers.append(("Vary", policy.vary.joined(separator: ", "))) }
            if policy.status == 200, isNotModified(request) {
                return ServiceResponse(status: 304, headers: headers, body: Data())
            }
            headers.insert(("Content-Type", contentType), at: 0)
            headers.append(("Content-Disposition", disposition(options)))
            // imgproxy's policy: an answer opened by itself (an SVG above all) runs nothing and loads nothing.
            headers.append(("Content-Security-Policy", Self.contentSecurityPolicy))
            return ServiceResponse(status: policy.status, headers: headers, body: data)
        }

        /// RFC 9110 §13.1: `If-None-Match` decides when present; otherwise `If-Modified-Since`.
        private func isNotModified(_ request: ServiceRequest) -> Bool {
            if let tags = request.ifNoneMatch {
                return tags.split(separator: ",").contains {
                    let tag = $0.trimmingCharacters(in: .whitespaces)
                    return tag == "*" || tag == etag || tag == "W/" + etag
                }
            }
            if let since = request.ifModifiedSince.flatMap(HTTPDate.parse) { return lastModified <= since }
            return false
        }

        private func disposition(_ options: ProcessingOptions) -> String {
            let kind = options.returnAttachment ? "attachment" : "inline"
            let format = ImageFormat(mimeType: contentType)
            let ext = format.fileExtension ?? "bin"
            let base = options.filename ?? "image"
            let name = base.hasSuffix("." + ext) ? base : base + "." + ext
            func isSafe(_ scalar: Unicode.Scalar) -> Bool {
                scalar.isASCII && scalar != "\"" && scalar != "\\" && scalar.value >= 0x20
            }
            // Names are nearly always safe already: then no new string is built.
            let safe =
                name.unicodeScalars.allSatisfy(isSafe)
                ? name : String(String.UnicodeScalarView(name.unicodeScalars.map { isSafe($0) ? $0 : "_" }))
            return "\(kind); filename=\"\(safe)\""
        }
    }

    /// What a source's response said about caching it, kept with each result made from it.
    struct SourceCaching: Sendable, Equatable {
        /// The source's `Last-Modified`, as sent.
        var lastModified: String?
        /// The source's `Cache-Control`, as sent.
        var cacheControl: String?
        /// Until when the source's response said it is fresh (from `Cache-Control` or `Expires`).
        var expiration: Date?

        init(lastModified: String? = nil, cacheControl: String? = nil, expiration: Date? = nil) {
            self.lastModified = lastModified
            self.cacheControl = cacheControl
            self.expiration = expiration
        }

        /// What a source's cache entry metadata says.
        init(_ metadata: DiskCacheMetadata) {
            self.init(
                lastModified: metadata.lastModified, cacheControl: metadata.cacheControl,
                expiration: metadata.expirationDate)
        }
    }

    /// The cache key of a result: the canonical options, the output format (or how it will be
    /// chosen), and the source.
    enum ResultKey {
        static func make(options: ProcessingOptions, format: ImageFormat?, source: URL) -> String {
            "result:\(options.canonicalString)|\(OutputFormats.keyName(format, options: options))|\(source.absoluteString)"
        }
    }
#endif
