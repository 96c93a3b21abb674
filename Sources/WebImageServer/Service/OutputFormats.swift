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

        /// The formats `Accept` may choose, in imgproxy's order of preference.
        static let negotiable: [ImageFormat] = [.jpegXL, .avif, .webp]

        /// The format a request gets from its URL's format (`requested`) and its `Accept` header,
        /// as imgproxy chooses it: with no format in the URL, the first of JPEG XL, AVIF and WebP
        /// that is `automatic` or `enforced` and that `Accept` names; with one, the first that is
        /// `enforced` and named, else the URL's. `varies` says whether `Accept` was consulted
        /// (the response then carries `Vary: Accept`). A nil format leaves the choice to the source
        /// (``fallback(source:hasAlpha:animated:preferred:)``).
        static func negotiate(
            requested: ImageFormat?, accept: String?, automatic: Set<ImageFormat>, enforced: Set<ImageFormat>
        ) -> (format: ImageFormat?, varies: Bool) {
            let candidates = requested == nil ? automatic.union(enforced) : enforced
            guard !candidates.isEmpty else { return (requested, false) }
            let accepted = AcceptHeader(accept ?? "")
            let chosen = negotiable.first {
                candidates.contains($0) && ImageCodersManager.shared.canEncode(to: $0)
                    && accepted.allows($0.mimeType ?? "")
            }
            return (chosen ?? requested, true)
        }

        /// The format written when neither the URL nor `Accept` chose one, as imgproxy picks it:
        /// the source's own when it is one of `preferred` (and written here), else the first of
        /// `preferred` that can hold the result's alpha and animation, else the first of them.
        /// With no usable preference, PNG for alpha and JPEG otherwise.
        static func fallback(source: ImageFormat, hasAlpha: Bool, animated: Bool, preferred: [ImageFormat])
            -> ImageFormat
        {
            let usable = preferred.filter { ImageCodersManager.shared.canEncode(to: $0) }
            if usable.contains(source) { return source }
            let fitting = usable.first {
                (!hasAlpha || holdsAlpha.contains($0)) && (!animated || holdsAnimation.contains($0))
            }
            return fitting ?? usable.first ?? (hasAlpha ? .png : .jpeg)
        }

        /// The formats the service writes with an alpha channel.
        static let holdsAlpha: Set<ImageFormat> = [.png, .gif, .webp, .avif, .jpegXL, .tiff, .heic, .ico]
        /// The formats the service writes as animations (PNG as APNG).
        static let holdsAnimation: Set<ImageFormat> = [.gif, .webp, .avif, .png, .jpegXL]

        /// The default of ``ServiceConfiguration/preferredFormats``: imgproxy's JPEG, PNG and GIF,
        /// and WebP and AVIF, which every current browser shows, so that those sources stay as they are.
        static let defaultPreferred: [ImageFormat] = [.jpeg, .png, .gif, .webp, .avif]
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
