#if Server
    import WebImage

    /// Which formats the service writes, and which one a request gets.
    enum OutputFormats {
        /// A format named by an extension (`jpg`, `webp`, …) that an installed encoder writes.
        static func format(forExtension text: String) -> ImageFormat? {
            let format = ImageFormat(fileExtension: text)
            guard format != .undefined, ImageCodersManager.shared.canEncode(to: format) else { return nil }
            return format
        }

        /// The extensions ``format(forExtension:)`` accepts, for error messages.
        static var names: String {
            ImageFormat.allCases.filter { ImageCodersManager.shared.canEncode(to: $0) && $0 != .undefined }
                .compactMap(\.fileExtension).joined(separator: ", ")
        }

        /// The best format the client names in `Accept` that the service writes: AVIF, then WebP.
        /// Nil when it names neither (the source's format is used then).
        static func preferred(accept: String?) -> ImageFormat? {
            guard let accept else { return nil }
            let accepted = AcceptHeader(accept)
            return [ImageFormat.avif, .webp].first {
                ImageCodersManager.shared.canEncode(to: $0) && accepted.allows($0.mimeType ?? "")
            }
        }

        /// With no format chosen by the URL or `Accept`: the source's format when browsers show it
        /// and the service writes it (JPEG, PNG, GIF, WebP, AVIF), else PNG for an image with alpha
        /// and JPEG otherwise, so a HEIC, TIFF, BMP or JPEG XL source comes out viewable (as
        /// imgproxy's preferred formats do).
        static func fallback(source: ImageFormat, hasAlpha: Bool) -> ImageFormat {
            if webFormats.contains(source), ImageCodersManager.shared.canEncode(to: source) { return source }
            return hasAlpha ? .png : .jpeg
        }

        private static let webFormats: Set<ImageFormat> = [.jpeg, .png, .gif, .webp, .avif]
    }

    /// An `Accept` header's media ranges with a quality above zero (RFC 9110 §12.5.1).
    struct AcceptHeader {
        private var ranges: [(type: String, quality: Double)] = []

        init(_ header: String) {
            for item in header.split(separator: ",") {
                let parts = item.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
                guard let type = parts.first, !type.isEmpty else { continue }
                var quality = 1.0
                for parameter in parts.dropFirst() where parameter.hasPrefix("q=") {
                    quality = Double(parameter.dropFirst(2)) ?? 1
                }
                ranges.append((type, quality))
            }
        }

        /// Whether `mimeType` is listed explicitly with a quality above zero. Wildcards do not
        /// count: browsers send `*/*` whatever they decode, so only a named type is trusted.
        func allows(_ mimeType: String) -> Bool {
            ranges.contains { $0.type == mimeType && $0.quality > 0 }
        }
    }
#endif
