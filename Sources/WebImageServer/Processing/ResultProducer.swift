#if Server
    import Foundation
    import Tracing
    import WebImage

    /// Source bytes to result bytes, in two steps: ``prepare(_:format:)`` reads the header and plans
    /// (cheap, no pixels), and either passes the source through (nothing to change) or hands back
    /// what ``produce(_:)`` needs to decode no larger than the plan needs, process every frame and
    /// encode (the CPU work, which the service runs on its processing threads).
    @_spi(Internals) public struct ResultProducer: Sendable {
        let configuration: ServiceConfiguration
        let options: ProcessingOptions
        /// The `decode`, `process` and `encode` spans, under `traceParent` (they may run on another thread).
        let tracing: ServiceTracing
        let traceParent: ServiceContext?
        /// The mark each pipeline places (by index; nil or missing: none), upright.
        let watermarks: [ImageBitmap?]

        package init(
            configuration: ServiceConfiguration, options: ProcessingOptions,
            tracing: ServiceTracing = ServiceTracing(tracer: nil), traceParent: ServiceContext? = nil,
            watermarks: [ImageBitmap?] = []
        ) {
            self.configuration = configuration
            self.options = options
            self.tracing = tracing
            self.traceParent = traceParent
            self.watermarks = watermarks
        }

        /// A producer with no tracing, for the fuzzer, which makes results outside a service.
        @_spi(Internals) public init(untracedWith configuration: ServiceConfiguration, options: ProcessingOptions) {
            self.init(configuration: configuration, options: options)
        }

        /// What reading the header decided: the source's own bytes are the result, or they are to
        /// be processed.
        package enum Preparation: Sendable {
            case passThrough(ProcessedResult)
            case process(Prepared)
        }

        /// A source to process: its bytes, header and plan, and the format to write.
        package struct Prepared: Sendable {
            let data: Data
            let info: ImageInfo
            let plan: ProcessingPlan
            let requested: ImageFormat?
            /// Whether the source is drawn at the size the plan needs (SVG) rather than decoded.
            var isVector: Bool { info.format == .svg }
            /// Pixels of the source as stored (an SVG's as drawn), a frame: what decoding it costs,
            /// roughly.
            package var sourcePixels: Int {
                let stored = PixelSize(width: info.width, height: info.height)
                return (isVector ? plan.decodeSize(turned: false, enlarges: true) ?? stored : stored).pixelCount
            }
        }

        /// Reads `data`'s header and plans; throws for a source over the limits or options that do
        /// not fit it.
        package func prepare(_ data: Data, format requested: ImageFormat?) throws(ServiceError) -> Preparation {
            do {
                // With enforce_thumbnail, the plan is made for the embedded thumbnail, which is what is decoded.
                var thumbnailFirst = ImageDecodeOptions()
                thumbnailFirst.prefersEmbeddedThumbnail = options.enforceThumbnail
                let info = try ImageCodersManager.shared.imageInfo(for: data, options: thumbnailFirst)
                let shown =
                    options.autoRotate
                    ? PixelSize(width: info.width, height: info.height)
                    : (info.orientation.swapsDimensions
                        ? PixelSize(width: info.height, height: info.width)
                        : PixelSize(width: info.width, height: info.height))
                let isVector = info.format == .svg
                try checkLimits(data, info: info, shown: shown)
                if options.skipProcessingFormats.contains(info.format),
                    options.format == nil || options.format == info.format,
                    options.bestFormats.isEmpty || configuration.bestFormat.allowsSkips
                {
                    return .passThrough(try sourceAsItIs(data, info: info))
                }
                if options.format == .svg {
                    guard isVector else { throw ServiceError.unprocessable("SVG is answered for SVG sources only") }
                    return .passThrough(try sourceAsItIs(data, info: info))
                }
                let plan = try ProcessingPlan(source: shown, options: options, vectorSource: isVector)
                if isVector ? answersSVG(plan) : passesThrough(data, info: info, plan: plan, requested: requested) {
                    return .passThrough(try sourceAsItIs(data, info: info))
                }
                let prepared = Prepared(data: data, info: info, plan: plan, requested: requested)
                if isVector, prepared.sourcePixels > maxSourcePixels {
                    let drawn = plan.decodeSize(turned: false, enlarges: true) ?? shown
                    throw WebImageError.imageTooLarge(width: drawn.width, height: drawn.height, limit: maxSourcePixels)
                }
                return .process(prepared)
            } catch {
                throw Self.serviceError(error)
            }
        }

        /// The watermark step of pipeline `index`, when it asks for one and has a mark: the mark
        /// shaped by the pipeline's `watermark_size`, `watermark_rotate` and `watermark_shadow`.
        private func watermarking(_ pipeline: ProcessingOptions, index: Int) throws(ServiceError) -> Watermarking? {
            guard let placement = pipeline.watermark, index < watermarks.count, let mark = watermarks[index] else {
                return nil
            }
            let shaping = WatermarkShaping(
                options: pipeline.customWatermark, placementScale: placement.scale,
                pixelLimit: configuration.maxSourcePixels)
            return Watermarking(
                mark: shaping.changesMark ? try shaping.shaped(mark) : mark, options: placement,
                baseOpacity: configuration.watermarkOpacity)
        }

        /// The source pixel limit: the URL's `max_src_resolution` (unless 0), else the service's.
        var maxSourcePixels: Int {
            if let pixels = options.maxSourcePixels, pixels > 0 { return pixels }
            return configuration.maxSourcePixels
        }

        /// The most frames a result keeps: the URL's `max_animation_frames`, else the service's
        /// (imgproxy's `IMGPROXY_MAX_ANIMATION_FRAMES`); 1 makes a still of the first frame.
        private var maxFrames: Int { max(1, options.maxAnimationFrames ?? configuration.maxAnimationFrames) }

        /// The frames of `info` a result is made from.
        private func framesUsed(_ info: ImageInfo) -> Int { min(max(1, info.frameCount), maxFrames) }

        /// The service's limits, or the URL's security options in their place, as imgproxy checks
        /// them: bytes; then for an animation with a per-frame limit, a frame's pixels, and otherwise
        /// the pixels of every frame used together.
        private func checkLimits(_ data: Data, info: ImageInfo, shown: PixelSize) throws {
            if let bytes = options.maxSourceBytes, bytes > 0, data.count > bytes {
                throw ServiceError.unprocessable("the source is larger than allowed")
            }
            // An SVG has no pixels of its own: what it is drawn at is checked once planned.
            if info.format == .svg { return }
            let frames = framesUsed(info)
            let framePixels =
                [options.maxAnimationFramePixels, configuration.maxAnimationFramePixels]
                .compactMap { $0 }.first { $0 > 0 } ?? 0
            if frames > 1, framePixels > 0 {
                guard shown.pixelCount <= framePixels else {
                    throw ServiceError.unprocessable(
                        "the animation's frames have \(shown.pixelCount) pixels, above the limit of \(framePixels)")
                }
                return
            }
            let (total, overflows) = shown.pixelCount.multipliedReportingOverflow(by: frames)
            guard !overflows, total <= maxSourcePixels else {
                if frames == 1 {
                    throw WebImageError.imageTooLarge(width: shown.width, height: shown.height, limit: maxSourcePixels)
                }
                throw ServiceError.unprocessable(
                    "the \(frames) frames used have \(overflows ? "too many" : String(total)) pixels together, above the limit of \(maxSourcePixels)"
                )
            }
        }

        /// `image` with at most ``maxFrames`` frames, the first ones; a still when one is left.
        private func keepingFirstFrames(_ image: Image) throws(WebImageError) -> Image {
            guard let animation = image.animation, animation.frameCount > maxFrames else { return image }
            var kept = image
            if maxFrames == 1 {
                kept.animation = nil
            } else {
                let frames = try (0..<maxFrames).map { index throws(WebImageError) in try animation.frame(at: index) }
                kept.animation = ImageAnimation(frames: frames, loopCount: animation.loopCount)
            }
            return kept
        }

        /// Decodes, processes and encodes a prepared source.
        package func produce(_ prepared: Prepared) throws(ServiceError) -> ProcessedResult {
            do {
                let coders = ImageCodersManager.shared
                // Kept orientation: the decoder reads the size box as shown, so turn it too.
                let swapsBox = !options.autoRotate && prepared.info.orientation.swapsDimensions
                var image = try tracing.span("decode", parent: traceParent) { () throws(WebImageError) in
                    try keepingFirstFrames(
                        coders.decode(
                            prepared.data,
                            options: decodeOptions(prepared.plan, swapsBox: swapsBox, enlarges: prepared.isVector)))
                }
                if keepsCopyrightOnly { image.metadata = image.metadata.keepingCopyright() }
                let processed = try tracing.span("process", parent: traceParent) { () throws(ServiceError) in
                    var result = image
                    for (index, pipeline) in options.pipelines.enumerated() {
                        result = try run(pipeline, index: index, on: result, planned: index == 0 ? prepared.plan : nil)
                    }
                    return result
                }
                let (bytes, format) = try tracing.span("encode", parent: traceParent) { () throws(WebImageError) in
                    try encoded(processed, prepared: prepared)
                }
                return ProcessedResult(data: bytes, contentType: format.mimeType ?? "application/octet-stream")
            } catch {
                throw Self.serviceError(error)
            }
        }

        /// One pipeline's processing of `image`: trimmed when it asks for it, then every frame
        /// processed by the plan (`planned`, made before decoding for the first pipeline; the later
        /// ones plan for the previous one's result).
        private func run(_ pipeline: ProcessingOptions, index: Int, on image: Image, planned: ProcessingPlan?)
            throws(ServiceError) -> Image
        {
            var image = image
            do {
                let plan: ProcessingPlan
                if let trimmedPlan = try trimmed(&image, by: pipeline) {
                    plan = trimmedPlan
                } else if let planned {
                    plan = planned
                } else {
                    plan = try ProcessingPlan(source: image.bitmap.size, options: pipeline)
                }
                return try ImageProcessor(
                    options: pipeline, plan: plan, watermark: watermarking(pipeline, index: index)
                )
                .transformedImage(
                    image, forKey: "", animated: true, maxAnimationByteCount: configuration.maxAnimationBytes)
            } catch {
                throw Self.serviceError(error)
            }
        }

        /// Cuts a still image's border when `pipeline` asks for it, and plans again for what is left;
        /// nil when there is nothing to trim. The cut is made on the pixels as stored (before the
        /// orientation is applied), as imgproxy makes it.
        private func trimmed(_ image: inout Image, by pipeline: ProcessingOptions) throws(ServiceError)
            -> ProcessingPlan?
        {
            guard let trim = pipeline.trim, image.animation == nil else { return nil }
            let region = Trimming.region(of: image.bitmap, trim)
            guard region.width != image.bitmap.width || region.height != image.bitmap.height else { return nil }
            do {
                let deep = try image.deepBitmap?.cropped(to: region)
                image.bitmap = try image.bitmap.cropped(to: region)
                image.deepBitmap = deep
            } catch {
                throw Self.serviceError(error)
            }
            let turns = pipeline.autoRotate && image.orientation.swapsDimensions
            let shown = PixelSize(
                width: turns ? region.height : region.width, height: turns ? region.width : region.height)
            return try ProcessingPlan(source: shown, options: pipeline)
        }

        /// Both steps on the calling thread.
        @_spi(Internals) public func produce(from data: Data, format requested: ImageFormat?) throws(ServiceError)
            -> ProcessedResult
        {
            switch try prepare(data, format: requested) {
            case .passThrough(let result): return result
            case .process(let prepared): return try produce(prepared)
            }
        }

        private static func serviceError(_ error: any Error) -> ServiceError {
            switch error {
            case let error as ServiceError: error
            case let error as WebImageError: ServiceErrorMapping.map(error)
            default: .internalError("processing failed")
            }
        }

        /// Whether the source's own bytes are the result: the same format, upright, nothing to
        /// crop, scale, filter, re-encode or strip. They are sent without being decoded.
        private func passesThrough(_ data: Data, info: ImageInfo, plan: ProcessingPlan, requested: ImageFormat?) -> Bool
        {
            let format =
                requested
                ?? OutputFormats.fallback(
                    source: info.format, hasAlpha: info.hasAlpha, animated: framesUsed(info) > 1,
                    preferred: configuration.preferredFormats)
            guard format == info.format, info.orientation == .up, info.frameCount <= maxFrames else { return false }
            // The source's bytes hold more than the embedded thumbnail asked for.
            if options.enforceThumbnail, EmbeddedThumbnails.info(in: data) != nil { return false }
            guard asksForNoProcessing(plan), options.quality == nil, options.maxBytes == nil,
                options.formatQualities[format] == nil, options.bestFormats.isEmpty,
                autoquality.method == .none || !Autoquality.lossyFormats.contains(format)
            else { return false }
            if options.stripColorProfile, let profile = MetadataProbe.iccProfile(in: data),
                !ColorManagement.isSRGB(profile)
            {
                return false
            }
            return !options.stripMetadata || MetadataProbe.kinds(in: data).isDisjoint(with: [.exif, .xmp])
        }

        /// Stripping metadata but the copyright: EXIF and XMP are read, reduced to their copyright
        /// and author tags (``ImageMetadata/keepingCopyright()``) and written.
        private var keepsCopyrightOnly: Bool { options.stripMetadata && options.keepCopyright }

        /// Whether the request leaves the pixels as they are: no crop, scale, turn, filter, effect or
        /// added canvas (what it asks of the encoder aside).
        func asksForNoProcessing(_ plan: ProcessingPlan) -> Bool {
            plan.cropSize == plan.rotatedSource && plan.scaledSize == plan.rotatedSource
                && plan.resultSize == plan.rotatedSource && plan.finalSize == plan.resultSize
                && options.chained.isEmpty && options.rotate == 0 && !options.flipHorizontal && !options.flipVertical
                && options.trim == nil && (options.watermark == nil || (watermarks.first ?? nil) == nil)
                && options.pixelate <= 1 && options.blur == 0 && options.sharpen == 0 && options.background == nil
                && options.cornerRadius == 0 && options.tint == nil && !options.usesColourOrDetailOptions
        }

        private func decodeOptions(_ plan: ProcessingPlan, swapsBox: Bool, enlarges: Bool) -> ImageDecodeOptions {
            var decode = ImageDecodeOptions()
            decode.maxPixelCount = maxSourcePixels
            decode.maxAnimationByteCount = configuration.maxAnimationBytes
            decode.applyOrientation = options.autoRotate
            decode.readMetadata = options.stripMetadata && !options.keepCopyright ? [.iccProfile] : .all
            decode.convertToSRGB = options.stripColorProfile
            decode.preservesHighBitDepth = options.preserveHDR
            // A still is made of the first frame: the others are never decoded.
            decode.firstFrameOnly = maxFrames == 1
            decode.prefersEmbeddedThumbnail = options.enforceThumbnail
            let turned = options.rotate == 90 || options.rotate == 270
            // Trimming looks at every pixel of the source, so it is decoded whole.
            if options.trim == nil, let size = plan.decodeSize(turned: turned != swapsBox, enlarges: enlarges) {
                decode.thumbnailPixelSize = size
            }
            return decode
        }
    }
#endif
