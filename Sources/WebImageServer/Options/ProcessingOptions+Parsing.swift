#if Server
    import Foundation
    import WebImage

    extension ProcessingOptions {
        /// Parses option segments (`name:arg:arg`) in order; a later option overrides an earlier
        /// one. Every malformed or unknown option is a 400 naming it. `presets` gives the names
        /// `preset`/`pr` may use; its `default` preset, when it has one, applies first. Options the
        /// URL and presets do not give keep their value in `defaults` (the service's settings), or
        /// take the one the Client Hints in `hints` give (as imgproxy applies them, before presets).
        ///
        /// A `-` segment starts a chained pipeline (see ``chained``), and so may a preset's.
        public init(
            segments: [String], presets: ProcessingPresets = ProcessingPresets(),
            defaults: ProcessingOptions = ProcessingOptions(), hints: ClientHints = ClientHints()
        ) throws(ServiceError) {
            var start = defaults
            hints.apply(to: &start)
            let leading = presets.segments["default"] != nil ? ["preset:default"] : []
            try self.init(pipelines: presets.pipelines(of: leading + segments), startingFrom: start)
        }

        /// Parses each pipeline's option segments (no presets left in them). Each pipeline after the
        /// first starts with every per-pipeline option at its default; the request's options (see
        /// ``takeRequestOptions(from:)``) run on through the chain, so the last value given wins.
        init(pipelines: [[String]], startingFrom start: ProcessingOptions) throws(ServiceError) {
            var current = start
            var parsed: [ProcessingOptions] = []
            for (index, pipeline) in pipelines.enumerated() {
                if index > 0 {
                    let previous = current
                    current = ProcessingOptions()
                    current.takeRequestOptions(from: previous)
                }
                try current.apply(segments: pipeline)
                parsed.append(current)
            }
            self = parsed.first ?? start
            if let last = parsed.last { takeRequestOptions(from: last) }
            chained = parsed.dropFirst().map { pipeline in
                var pipeline = pipeline
                pipeline.takeRequestOptions(from: ProcessingOptions())
                return pipeline
            }
        }

        /// Applies option segments in order (presets already expanded).
        mutating func apply(segments: [String]) throws(ServiceError) {
            for segment in segments {
                let parts = segment.split(separator: ":", omittingEmptySubsequences: false).map(String.init)
                let name = parts[0]
                guard let apply = Self.parsers[name] else {
                    throw .badRequest("unknown processing option '\(name)'")
                }
                try apply(&self, OptionArguments(name: name, values: Array(parts.dropFirst())))
            }
        }

        /// Each option under its long and short names (and imgproxy's `ext` for `format`).
        static let parsers:
            [String: @Sendable (inout ProcessingOptions, OptionArguments) throws(ServiceError) -> Void] = {
                let table:
                    [([String], @Sendable (inout ProcessingOptions, OptionArguments) throws(ServiceError) -> Void)] = [
                        (["resize", "rs"], { o, a throws(ServiceError) in try o.applyResize(a) }),
                        (["size", "s"], { o, a throws(ServiceError) in try o.applySize(a, from: 0) }),
                        (
                            ["resizing_type", "rt"],
                            { o, a throws(ServiceError) in o.resizingType = try a.single(a.resizingType) }
                        ),
                        (["width", "w"], { o, a throws(ServiceError) in o.width = try a.singleInteger(atLeast: 0) }),
                        (["height", "h"], { o, a throws(ServiceError) in o.height = try a.singleInteger(atLeast: 0) }),
                        (["dpr"], { o, a throws(ServiceError) in o.dpr = try a.singleNumber(above: 0) }),
                        (["zoom", "z"], { o, a throws(ServiceError) in (o.zoomX, o.zoomY) = try a.zoom() }),
                        (
                            ["min-width", "mw"],
                            { o, a throws(ServiceError) in o.minWidth = try a.singleInteger(atLeast: 0) }
                        ),
                        (
                            ["min-height", "mh"],
                            { o, a throws(ServiceError) in o.minHeight = try a.singleInteger(atLeast: 0) }
                        ),
                        (["enlarge", "el"], { o, a throws(ServiceError) in o.enlarge = try a.single(a.boolean) }),
                        (["extend", "ex"], { o, a throws(ServiceError) in o.extend = try a.extend(a.values) }),
                        (
                            ["extend_aspect_ratio", "extend_ar", "exar"],
                            { o, a throws(ServiceError) in o.extendAspectRatio = try a.extend(a.values) }
                        ),
                        (["padding", "pd"], { o, a throws(ServiceError) in o.padding = try a.padding(o.padding) }),
                        (
                            ["flip", "fl"],
                            { o, a throws(ServiceError) in
                                (o.flipHorizontal, o.flipVertical) = try a.flip(o.flipHorizontal, o.flipVertical)
                            }
                        ),
                        (
                            ["gravity", "g"],
                            { o, a throws(ServiceError) in o.gravity = try a.gravity(a.values, allowsSmart: true) }
                        ),
                        (["crop", "c"], { o, a throws(ServiceError) in o.crop = try a.crop() }),
                        (
                            ["crop_aspect_ratio", "crop_ar", "car"],
                            { o, a throws(ServiceError) in o.cropAspectRatio = try a.cropAspectRatio() }
                        ),
                        (["quality", "q"], { o, a throws(ServiceError) in o.quality = try a.single(a.quality) }),
                        (
                            ["format_quality", "fq"],
                            { o, a throws(ServiceError) in
                                o.formatQualities.merge(try a.formatQualities()) { $1 }
                                o.formatQualities = o.formatQualities.filter { $0.value > 0 }
                            }
                        ),
                        (["trim", "t"], { o, a throws(ServiceError) in o.trim = try a.trim() }),
                        (
                            ["pixelate", "pix"],
                            { o, a throws(ServiceError) in o.pixelate = try a.singleInteger(atLeast: 0) }
                        ),
                        (
                            ["skip_processing", "skp"],
                            { o, a throws(ServiceError) in o.skipProcessingFormats.formUnion(try a.formats()) }
                        ),
                        (["raw"], { o, a throws(ServiceError) in o.raw = try a.single(a.boolean) }),
                        (["watermark", "wm"], { o, a throws(ServiceError) in o.watermark = try a.watermark() }),
                        (["format", "f", "ext"], { o, a throws(ServiceError) in try o.applyFormat(a) }),
                        (["autoquality", "aq"], { o, a throws(ServiceError) in o.autoquality = try a.autoquality() }),
                        (["background", "bg"], { o, a throws(ServiceError) in o.background = try a.background() }),
                        (
                            ["blur", "bl"],
                            { o, a throws(ServiceError) in o.blur = try a.singleNumber(in: Self.filterSigmaRange) }
                        ),
                        (
                            ["sharpen", "sh"],
                            { o, a throws(ServiceError) in o.sharpen = try a.singleNumber(in: Self.filterSigmaRange) }
                        ),
                        (["rotate", "rot"], { o, a throws(ServiceError) in o.rotate = try a.single(a.rightAngle) }),
                        (
                            ["auto_rotate", "ar"],
                            { o, a throws(ServiceError) in o.autoRotate = try a.single(a.boolean) }
                        ),
                        (
                            ["strip_metadata", "sm"],
                            { o, a throws(ServiceError) in o.stripMetadata = try a.single(a.boolean) }
                        ),
                        (
                            ["keep_copyright", "kcr"],
                            { o, a throws(ServiceError) in o.keepCopyright = try a.single(a.boolean) }
                        ),
                        (
                            ["enforce_thumbnail", "eth"],
                            { o, a throws(ServiceError) in o.enforceThumbnail = try a.single(a.boolean) }
                        ),
                        (
                            ["preserve_hdr", "ph"],
                            { o, a throws(ServiceError) in o.preserveHDR = try a.single(a.boolean) }
                        ),
                        (
                            ["strip_color_profile", "scp"],
                            { o, a throws(ServiceError) in o.stripColorProfile = try a.single(a.boolean) }
                        ),
                        (["max_bytes", "mb"], { o, a throws(ServiceError) in o.maxBytes = try a.single(a.maxBytes) }),
                        (
                            ["cachebuster", "cb"],
                            { o, a throws(ServiceError) in o.cacheBuster = a.values.joined(separator: ":") }
                        ),
                        (
                            ["expires", "exp"],
                            { o, a throws(ServiceError) in o.expires = try a.singleInteger(atLeast: Int.min) }
                        ),
                        (["filename", "fn"], { o, a throws(ServiceError) in o.filename = try a.filename() }),
                        (
                            ["return_attachment", "att"],
                            { o, a throws(ServiceError) in o.returnAttachment = try a.single(a.boolean) }
                        ),
                        (
                            ["max_src_resolution", "msr"],
                            { o, a throws(ServiceError) in o.maxSourcePixels = try a.single(a.megapixels) }
                        ),
                        (
                            ["max_src_file_size", "msfs"],
                            { o, a throws(ServiceError) in o.maxSourceBytes = try a.singleInteger(atLeast: 0) }
                        ),
                        (
                            ["max_animation_frames", "maf"],
                            { o, a throws(ServiceError) in o.maxAnimationFrames = try a.singleInteger(atLeast: 1) }
                        ),
                        (
                            ["max_animation_frame_resolution", "mafr"],
                            { o, a throws(ServiceError) in o.maxAnimationFramePixels = try a.single(a.megapixels) }
                        ),
                        (
                            ["max_result_dimension", "mrd"],
                            { o, a throws(ServiceError) in o.maxResultDimension = try a.singleInteger(atLeast: 0) }
                        ),
                        // imgproxy Pro's colour and detail options (OptionArguments+Filters.swift).
                        (
                            ["resizing_algorithm", "ra"],
                            { o, a throws(ServiceError) in o.resizingAlgorithm = try a.single(a.resizingAlgorithm) }
                        ),
                        (
                            ["adjust", "a"],
                            { o, a throws(ServiceError) in
                                (o.brightness, o.contrast, o.saturation) = try a.adjust(
                                    (o.brightness, o.contrast, o.saturation))
                            }
                        ),
                        (
                            ["brightness", "br"],
                            { o, a throws(ServiceError) in o.brightness = try a.single(a.brightness) }
                        ),
                        (["contrast", "co"], { o, a throws(ServiceError) in o.contrast = try a.single(a.factor) }),
                        (["saturation", "sa"], { o, a throws(ServiceError) in o.saturation = try a.single(a.factor) }),
                        (["monochrome", "mc"], { o, a throws(ServiceError) in o.monochrome = try a.monochrome() }),
                        (["duotone", "dt"], { o, a throws(ServiceError) in o.duotone = try a.duotone() }),
                        (["colorize", "col"], { o, a throws(ServiceError) in o.colorize = try a.colorize() }),
                        (
                            ["unsharp_masking", "ush"],
                            { o, a throws(ServiceError) in o.unsharpMasking = try a.unsharpMasking(o.unsharpMasking) }
                        ),
                        (["blur_areas", "ba"], { o, a throws(ServiceError) in o.blurAreas = try a.blurAreas() }),
                        (
                            ["progressive_blur", "pbl"],
                            { o, a throws(ServiceError) in o.progressiveBlur = try a.progressiveBlur() }
                        ),
                        (["gradient", "gr"], { o, a throws(ServiceError) in o.gradient = try a.gradient() }),
                        (
                            ["background_alpha", "bga"],
                            { o, a throws(ServiceError) in o.backgroundAlpha = try a.single(a.fraction) }
                        ),
                        (
                            ["wi_round_corner", "wirc"],
                            { o, a throws(ServiceError) in o.cornerRadius = try a.singleNumber(atLeast: 0) }
                        ),
                        (["wi_tint", "witn"], { o, a throws(ServiceError) in o.tint = try a.single(a.hexColour) }),
                    ]
                var parsers:
                    [String: @Sendable (inout ProcessingOptions, OptionArguments) throws(ServiceError) -> Void] = [:]
                for (names, parser) in table + customWatermarkParsers {
                    for name in names { parsers[name] = parser }
                }
                return parsers
            }()

        /// The sigmas `blur` and `sharpen` accept, in pixels. imgproxy accepts any number of at least
        /// 0; here a sigma above the library's ``ImageBlurTransformer/maximumRadius`` (or not finite)
        /// is a 400, since the blur refuses it.
        static let filterSigmaRange = 0...ImageBlurTransformer.maximumRadius

        /// `rs:type:width:height:enlarge:extend…`: every argument optional (empty keeps the default).
        private mutating func applyResize(_ arguments: OptionArguments) throws(ServiceError) {
            try arguments.count(atMost: 8)
            if let type = arguments.values.first, !type.isEmpty { resizingType = try arguments.resizingType(type) }
            try applySize(arguments, from: 1)
        }

        /// `s:width:height:enlarge:extend…` (or the same arguments of `rs` after its type).
        private mutating func applySize(_ arguments: OptionArguments, from start: Int) throws(ServiceError) {
            let values = Array(arguments.values.dropFirst(start))
            try arguments.count(atMost: start + 7)
            if values.count > 0, !values[0].isEmpty { width = try arguments.integer(values[0], in: 0...) }
            if values.count > 1, !values[1].isEmpty { height = try arguments.integer(values[1], in: 0...) }
            if values.count > 2, !values[2].isEmpty { enlarge = try arguments.boolean(values[2]) }
            if values.count > 3, !values[3].isEmpty { extend = try arguments.extend(Array(values[3...])) }
        }
    }
#endif
