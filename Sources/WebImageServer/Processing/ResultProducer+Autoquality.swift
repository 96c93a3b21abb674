#if Server
    import Foundation
    import WebImage

    /// Autoquality's bisection over the qualities ``Autoquality/qualities(for:)`` allows, bounded:
    /// at most ``maxEncodes`` encodes and ``defaultTimeBudget``, after which the best file found so far
    /// is used.
    struct AutoqualitySearch {
        /// The most files one search writes (the 11 qualities of 70…80 take 4, all of 1…100 take 7).
        static let maxEncodes = 8
        /// How long one search may take before it settles for what it has (the first file is
        /// always written).
        static let defaultTimeBudget: Duration = .seconds(3)

        /// The file chosen, its quality, how many files the search wrote, and its DSSIM (`dssim` only).
        struct Outcome {
            let data: Data
            let quality: Int
            let encodes: Int
            let dssim: Double?
        }

        let settings: Autoquality
        let format: ImageFormat
        var timeBudget = Self.defaultTimeBudget

        /// Runs the search: `encode(q)` writes the file at quality `q`; for `dssim`, `decode` reads a
        /// file's pixels back to compare with `reference`, the pixels that were encoded, composited
        /// onto `background` as the encoder flattens them. Nil for the methods that choose nothing.
        func run(
            reference: ImageBitmap, background: RGBA8, encode: (Int) throws(WebImageError) -> Data,
            decode: (Data) throws(WebImageError) -> ImageBitmap
        ) throws(WebImageError) -> Outcome? {
            let budget = QualitySearch.Budget(
                probes: Self.maxEncodes, deadline: ContinuousClock.now.advanced(by: timeBudget))
            let qualities = settings.qualities(for: format)
            switch settings.method {
            case .none, .ml:
                return nil
            case .size:
                // Best quality first: the first step that fits is the highest quality that fits.
                let limit = Int(clamping: settings.target, rounding: .down)
                var smallest: Outcome?
                let search = try QualitySearch.firstFitting(steps: qualities.count, budget: budget) {
                    step throws(WebImageError) in
                    let quality = qualities.upperBound - step
                    let data = try encode(quality)
                    let made = Outcome(data: data, quality: quality, encodes: 0, dssim: nil)
                    if data.count < smallest?.data.count ?? .max { smallest = made }
                    return (made, data.count <= limit ? QualitySearch.Verdict.fits : .misses)
                }
                // None fits: the smallest file written, the lowest quality's after a full search.
                guard let chosen = search.fitting?.value ?? smallest else { return nil }
                return Outcome(data: chosen.data, quality: chosen.quality, encodes: search.probes, dssim: nil)
            case .dssim:
                // Worst quality first: the first step that fits is the lowest quality that fits.
                var closest: Outcome?
                let search = try QualitySearch.firstFitting(steps: qualities.count, budget: budget) {
                    step throws(WebImageError) in
                    let quality = qualities.lowerBound + step
                    let data = try encode(quality)
                    let measured = Dissimilarity.dssim(reference, try decode(data), background: background)
                    let made = Outcome(data: data, quality: quality, encodes: 0, dssim: measured)
                    // A file whose pixels cannot be compared (another size) ends the search as it is.
                    guard let dssim = measured else { return (made, QualitySearch.Verdict.fitsClosely) }
                    if dssim < closest?.dssim ?? .infinity { closest = made }
                    if dssim > settings.target + settings.allowedError { return (made, .misses) }
                    return (made, dssim >= settings.target - settings.allowedError ? .fitsClosely : .fits)
                }
                // None is close enough: the least different file, the highest quality's after a full search.
                guard let chosen = search.fitting?.value ?? closest else { return nil }
                return Outcome(data: chosen.data, quality: chosen.quality, encodes: search.probes, dssim: chosen.dssim)
            }
        }
    }

    extension ResultProducer {
        /// The service's autoquality settings with the URL's `autoquality` arguments.
        var autoquality: Autoquality { configuration.autoquality.replacing(options.autoquality) }

        /// `image` as `format` at the quality autoquality chooses; nil when it does not apply: its
        /// method is `none`, the format is lossless (or `encode` asks for lossless), the image is
        /// an animation, or it has more pixels than ``Autoquality/maxResultPixels``.
        func autoqualityEncoded(_ image: Image, as format: ImageFormat, options encode: ImageEncodeOptions)
            throws(WebImageError) -> Data?
        {
            let settings = autoquality
            guard settings.method != .none, Autoquality.lossyFormats.contains(format), !encode.lossless,
                image.animation == nil
            else { return nil }
            let reference = image.bitmap.applyingOrientation(image.orientation)
            if settings.maxResultPixels > 0, reference.size.pixelCount > settings.maxResultPixels { return nil }
            let coders = ImageCodersManager.shared
            var attempt = encode
            attempt.maxFileSize = nil
            let outcome = try AutoqualitySearch(settings: settings, format: format).run(
                reference: reference, background: encode.backgroundColor,
                encode: { quality throws(WebImageError) in
                    attempt.compressionQuality = Double(quality) / 100
                    return try coders.encode(image, as: format, options: attempt)
                },
                decode: { data throws(WebImageError) in try coders.decode(data, options: ImageDecodeOptions()).bitmap })
            return outcome?.data
        }
    }
#endif
