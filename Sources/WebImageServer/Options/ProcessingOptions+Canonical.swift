#if Server
    import Foundation
    import WebImage

    extension ProcessingOptions {
        /// The options that change the result's bytes, in one fixed order and spelling, defaults
        /// left out: equal strings mean equal results, whatever names and order the URL used.
        /// `expires`, `filename` and `return_attachment` shape only the response and are left out;
        /// the security options stay in, so that a result made under one limit never answers a
        /// request with a stricter one;
        /// the format is part of the result key instead. Chained pipelines follow, each after a `-`.
        /// The string parses back to the same options.
        public var canonicalString: String {
            var parts: [String] = []
            func add(_ name: String, _ values: Any...) {
                parts.append(([name] + values.map { "\($0)" }).joined(separator: ":"))
            }
            add("rt", resizingType.rawValue)
            if width != 0 || height != 0 { add("s", width, height) }
            if dpr != 1 { add("dpr", dpr) }
            if zoomX != 1 || zoomY != 1 { add("z", zoomX, zoomY) }
            if minWidth != 0 { add("mw", minWidth) }
            if minHeight != 0 { add("mh", minHeight) }
            if enlarge { add("el", 1) }
            if let extend { add("ex", 1, extend.gravity.canonical) }
            if let extendAspectRatio { add("exar", 1, extendAspectRatio.gravity.canonical) }
            if !padding.isZero { add("pd", padding.top, padding.right, padding.bottom, padding.left) }
            if let maxResultDimension { add("mrd", maxResultDimension) }
            if let maxSourcePixels { add("msr", Double(maxSourcePixels) / 1_000_000) }
            if let maxSourceBytes { add("msfs", maxSourceBytes) }
            if let maxAnimationFrames { add("maf", maxAnimationFrames) }
            if let maxAnimationFramePixels { add("mafr", Double(maxAnimationFramePixels) / 1_000_000) }
            if flipHorizontal || flipVertical { add("fl", flipHorizontal ? 1 : 0, flipVertical ? 1 : 0) }
            if gravity != .center { add("g", gravity.canonical) }
            if let crop {
                if let gravity = crop.gravity {
                    add("c", crop.width, crop.height, gravity.canonical)
                } else {
                    add("c", crop.width, crop.height)
                }
            }
            if let cropAspectRatio { add("car", cropAspectRatio.ratio, cropAspectRatio.enlarges ? 1 : 0) }
            if let quality { add("q", quality) }
            for (format, quality) in formatQualities.sorted(by: { $0.key.rawValue < $1.key.rawValue }) {
                add("fq", format.name, quality)
            }
            if let trim {
                add(
                    "t", trim.threshold, trim.color.map { String($0.hex.prefix(6)) } ?? "",
                    trim.equalHorizontal ? 1 : 0,
                    trim.equalVertical ? 1 : 0)
            }
            if pixelate > 1 { add("pix", pixelate) }
            if !skipProcessingFormats.isEmpty {
                parts.append(
                    (["skp"] + skipProcessingFormats.map(\.name).sorted()).joined(separator: ":"))
            }
            if raw { add("raw", 1) }
            if let watermark {
                let position: String
                switch watermark.position {
                case .anchored(let anchor): position = anchor.rawValue
                case .replicate: position = "re"
                case .chess: position = "ch"
                }
                add("wm", watermark.opacity, position, watermark.x, watermark.y, watermark.scale)
            }
            parts += customWatermarkCanonicalParts
            if let background { add("bg", background.hex) }
            if blur != 0 { add("bl", blur) }
            if sharpen != 0 { add("sh", sharpen) }
            if rotate != 0 { add("rot", rotate) }
            if !autoRotate { add("ar", 0) }
            if !stripMetadata { add("sm", 0) }
            if !stripColorProfile { add("scp", 0) }
            if !keepCopyright { add("kcr", 0) }
            if enforceThumbnail { add("eth", 1) }
            if preserveHDR { add("ph", 1) }
            if let maxBytes { add("mb", maxBytes) }
            if let autoquality, !autoquality.isEmpty { parts.append(autoquality.canonical) }
            if let cacheBuster { add("cb", cacheBuster) }
            parts += colourAndDetailCanonicalParts
            if cornerRadius != 0 { add("wirc", cornerRadius) }
            if let tint { add("witn", tint.hex) }
            for pipeline in chained { parts += ["-", pipeline.canonicalString] }
            return parts.joined(separator: "/")
        }
    }

    extension ProcessingOptions.Gravity {
        var canonical: String {
            switch self {
            case .smart: "sm"
            case .focusPoint(let x, let y): "fp:\(x):\(y)"
            case .anchored(let anchor, let x, let y): "\(anchor.rawValue):\(x):\(y)"
            }
        }
    }

    extension RGBA8 {
        var hex: String { String(format: "%02x%02x%02x%02x", r, g, b, a) }
    }
#endif
