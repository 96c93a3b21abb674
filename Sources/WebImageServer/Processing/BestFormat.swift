#if Server
    import WebImage

    /// imgproxy Pro's `best` format (`format:best`, the `.best` extension): the result is written
    /// in several candidate formats and the smallest file is sent.
    ///
    /// The rules, imgproxy's where its docs give them: candidates are the preferred formats, with
    /// AVIF, WebP and JPEG XL only when their `Accept` detection is on and the client names them
    /// (``OutputFormats/bestCandidates(accept:configuration:)``); an animation is written only in
    /// formats that animate, an image with alpha only in formats with alpha, and a still image
    /// into GIF only when it has at most 256 colours (GIF would quantise it). An image of low
    /// ``complexity(of:)`` (below ``BestFormatSettings/complexityThreshold``) may be written
    /// losslessly (PNG, lossless WebP, lossless JPEG XL): it tries those and the lossy formats, and
    /// the smallest file wins, so a flat graphic stays exact while a smooth photograph (which also
    /// scores low) is not sent as a lossless file many times the size of a lossy one. Another image
    /// tries the lossy formats only (at their quality, or autoquality's); when neither kind is among
    /// the candidates, the other kind is used. Above ``BestFormatSettings/maxResultPixels`` one
    /// format is picked by rule instead of trying them all.
    enum BestFormat {
        /// One way of writing the result: a format, and whether it is asked to be lossless (which
        /// makes WebP and JPEG XL lossless; PNG, GIF, TIFF and BMP are written as always).
        struct Attempt: Equatable {
            let format: ImageFormat
            let lossless: Bool
        }

        /// Formats written losslessly for simple images, in the order one is picked by rule.
        static let losslessOrder: [ImageFormat] = [.webp, .png, .jpegXL, .gif, .tiff, .bmp]
        /// Formats written lossily for complex images, in the order one is picked by rule (the
        /// quicker encoders first).
        static let lossyOrder: [ImageFormat] = [.webp, .jpeg, .avif, .jpegXL, .heic]

        /// The attempts for an image: `candidates` (in the service's order) narrowed to the
        /// formats that hold its alpha and animation, lossless or lossy by `complexity`; one of them
        /// when `pixels` is above the settings' limit. Empty when no candidate can hold the image.
        static func attempts(
            candidates: [ImageFormat], hasAlpha: Bool, animated: Bool, fitsPalette: Bool, complexity: Double,
            pixels: Int, settings: BestFormatSettings
        ) -> [Attempt] {
            let usable = candidates.filter {
                ImageCodersManager.shared.canEncode(to: $0)
                    && (!hasAlpha || OutputFormats.holdsAlpha.contains($0))
                    && (!animated || OutputFormats.holdsAnimation.contains($0))
                    && ($0 != .gif || animated || fitsPalette)
            }
            let lossless = usable.filter { losslessOrder.contains($0) }.map { Attempt(format: $0, lossless: true) }
            let lossy = usable.filter { lossyOrder.contains($0) }.map { Attempt(format: $0, lossless: false) }
            let simple = complexity < settings.complexityThreshold
            let attempts = simple ? lossless + lossy : (lossy.isEmpty ? lossless : lossy)
            guard settings.maxResultPixels > 0, pixels > settings.maxResultPixels else { return attempts }
            let order = simple ? losslessOrder + lossyOrder : lossyOrder + losslessOrder
            let picked = order.lazy.compactMap { format in
                attempts.first { $0.format == format && $0.lossless == simple }
                    ?? attempts.first { $0.format == format }
            }.first
            return picked.map { [$0] } ?? Array(attempts.prefix(1))
        }

        /// Whether `bitmap` has at most 256 distinct colours (alpha included), so that GIF holds it
        /// exactly. Stops at the 257th colour, which a photograph reaches within its first pixels.
        static func fitsPalette(_ bitmap: ImageBitmap) -> Bool {
            var seen = Set<UInt32>(minimumCapacity: 257)
            return bitmap.pixels.withUnsafeBufferPointer { rgba in
                for i in Swift.stride(from: 0, to: rgba.count - 3, by: 4) {
                    let colour =
                        UInt32(rgba[i]) << 24 | UInt32(rgba[i + 1]) << 16 | UInt32(rgba[i + 2]) << 8
                        | UInt32(rgba[i + 3])
                    if seen.insert(colour).inserted, seen.count > 256 { return false }
                }
                return true
            }
        }

        /// How busy an image is: the mean absolute difference of luma (0…255) between each pixel
        /// and its right and lower neighbours, over a grid of at most about 512×512 pixels. Flat
        /// graphics and smooth gradients score 0 to about 2 (only their edges count); photographs
        /// score several units and more, noise tens. imgproxy's default threshold of 5.5 separates
        /// them on this scale.
        static func complexity(of bitmap: ImageBitmap) -> Double {
            guard bitmap.width > 1, bitmap.height > 1 else { return 0 }
            let step = max(1, max(bitmap.width, bitmap.height) / 512)
            var total = 0.0
            var count = 0
            bitmap.pixels.withUnsafeBufferPointer { rgba in
                func luma(_ x: Int, _ y: Int) -> Double {
                    let i = (y * bitmap.width + x) * 4
                    return 0.299 * Double(rgba[i]) + 0.587 * Double(rgba[i + 1]) + 0.114 * Double(rgba[i + 2])
                }
                for y in Swift.stride(from: 0, to: bitmap.height - 1, by: step) {
                    for x in Swift.stride(from: 0, to: bitmap.width - 1, by: step) {
                        let here = luma(x, y)
                        total += abs(here - luma(x + 1, y)) + abs(here - luma(x, y + 1))
                        count += 2
                    }
                }
            }
            return count == 0 ? 0 : total / Double(count)
        }
    }

    /// The service's `best` format settings (imgproxy's `IMGPROXY_BEST_FORMAT_*`).
    public struct BestFormatSettings: Sendable, Equatable {
        /// Images whose ``BestFormat/complexity(of:)`` is below this are written losslessly
        /// (imgproxy's default: 5.5).
        public var complexityThreshold = 5.5
        /// Results with more pixels than this get one format picked by rule; 0: every candidate is tried.
        public var maxResultPixels = 0
        /// Use `best` when the URL names no format (instead of `Accept` or the source's format).
        public var byDefault = false
        /// Honour `skip_processing` (and the service's skip formats) when `best` is used; off:
        /// those sources are processed like any other.
        public var allowsSkips = false

        public init() {}
    }

    extension OutputFormats {
        /// The candidates of `best` for a request with `accept`: the preferred formats other than
        /// AVIF, WebP and JPEG XL, then those of them whose detection is on (automatic or
        /// enforced) and that `Accept` names, in imgproxy's order. `varies` says whether `Accept`
        /// was consulted (the response then carries `Vary: Accept`).
        static func bestCandidates(accept: String?, configuration: ServiceConfiguration)
            -> (formats: [ImageFormat], varies: Bool)
        {
            var formats = configuration.preferredFormats.filter {
                !negotiable.contains($0) && ImageCodersManager.shared.canEncode(to: $0)
            }
            let detected = (configuration.automaticFormat ? configuration.automaticFormats : [])
                .union(configuration.enforcedFormats)
            guard !detected.isEmpty else { return (formats, false) }
            let accepted = AcceptHeader(accept ?? "")
            formats += negotiable.filter {
                detected.contains($0) && ImageCodersManager.shared.canEncode(to: $0)
                    && accepted.allows($0.mimeType ?? "")
            }
            return (formats, true)
        }

        /// What the result key says of the output format: the format, the `best` candidates, or
        /// the source's choice.
        static func keyName(_ format: ImageFormat?, options: ProcessingOptions) -> String {
            if !options.bestFormats.isEmpty { return "best:" + options.bestFormats.map(\.name).joined(separator: ",") }
            return format?.name ?? "source"
        }
    }
#endif
