#if Server
    import Foundation
    import WebImage

    extension ResultProducer {
        /// The result's bytes and format: the `best` candidates' smallest file when the request
        /// has them (``ProcessingOptions/bestFormats``), else the requested format, or the one the
        /// source and the preferred formats give.
        func encoded(_ image: Image, prepared: Prepared) throws(WebImageError) -> (data: Data, format: ImageFormat) {
            if !options.bestFormats.isEmpty, let best = try bestEncoded(image) { return best }
            let format =
                prepared.requested
                ?? OutputFormats.fallback(
                    source: prepared.info.format, hasAlpha: image.hasAlpha, animated: image.animation != nil,
                    preferred: configuration.preferredFormats)
            return (try encoded(image, as: format), format)
        }

        /// `image` as `format`, losslessly when asked (WebP, JPEG XL), else at autoquality's
        /// quality when it applies, and within `max_bytes` when that is set.
        func encoded(_ image: Image, as format: ImageFormat, lossless: Bool = false) throws(WebImageError) -> Data {
            var encode = encodeOptions(format)
            encode.lossless = lossless
            if let chosen = try autoqualityEncoded(image, as: format, options: encode) {
                guard let limit = encode.maxFileSize, chosen.count > limit else { return chosen }
            }
            return try ImageCodersManager.shared.encode(image, as: format, options: encode)
        }

        /// The smallest file of
        /// ``BestFormat/attempts(candidates:hasAlpha:animated:fitsPalette:complexity:pixels:settings:)``;
        /// nil when no candidate holds the image.
        private func bestEncoded(_ image: Image) throws(WebImageError) -> (data: Data, format: ImageFormat)? {
            let animated = image.animation != nil
            let attempts = BestFormat.attempts(
                candidates: options.bestFormats, hasAlpha: image.hasAlpha, animated: animated,
                fitsPalette: !animated && options.bestFormats.contains(.gif) && BestFormat.fitsPalette(image.bitmap),
                complexity: BestFormat.complexity(of: image.bitmap), pixels: image.bitmap.size.pixelCount,
                settings: configuration.bestFormat)
            var smallest: (data: Data, format: ImageFormat)?
            for attempt in attempts {
                let data = try encoded(image, as: attempt.format, lossless: attempt.lossless)
                if data.count < smallest?.data.count ?? .max { smallest = (data, attempt.format) }
            }
            return smallest
        }

        /// The encoder settings the options and the service give `format`.
        func encodeOptions(_ format: ImageFormat) -> ImageEncodeOptions {
            var encode = ImageEncodeOptions()
            let quality = options.quality ?? options.formatQualities[format] ?? configuration.quality(for: format)
            encode.compressionQuality = Double(quality) / 100
            encode.keptMetadata = options.stripMetadata && !options.keepCopyright ? [.iccProfile] : .all
            encode.maxFileSize = options.maxBytes
            encode.backgroundColor = options.background ?? .white
            return encode
        }
    }
#endif
