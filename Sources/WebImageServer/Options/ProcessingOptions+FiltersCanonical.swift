#if Server
    import WebImage

    extension ProcessingOptions {
        /// The canonical segments of imgproxy Pro's colour and detail options (part of
        /// ``canonicalString``): each option that is not at its default, with every argument written
        /// out, so that the segments parse back to the same values.
        var colourAndDetailCanonicalParts: [String] {
            var parts: [String] = []
            func add(_ name: String, _ values: Any...) {
                parts.append(([name] + values.map { "\($0)" }).joined(separator: ":"))
            }
            func colour(_ color: RGBA8) -> String { String(color.hex.prefix(6)) }
            func ramp(_ ramp: Ramp) -> String { "\(ramp.angle):\(ramp.start):\(ramp.stop)" }
            if resizingAlgorithm != .lanczos3 { add("ra", resizingAlgorithm.rawValue) }
            if adjustsColour { add("a", brightness, contrast, saturation) }
            if let monochrome { add("mc", monochrome.intensity, colour(monochrome.color)) }
            if let duotone { add("dt", duotone.intensity, colour(duotone.dark), colour(duotone.light)) }
            if let colorize { add("col", colorize.opacity, colour(colorize.color), colorize.keepsAlpha ? 1 : 0) }
            if unsharpMasking != UnsharpMasking() {
                add("ush", unsharpMasking.mode.rawValue, unsharpMasking.weight, unsharpMasking.divider)
            }
            if let blurAreas {
                let areas = blurAreas.areas.map { "\($0.left):\($0.top):\($0.width):\($0.height)" }
                add("ba", blurAreas.sigma, areas.joined(separator: ":"))
            }
            if let progressiveBlur { add("pbl", progressiveBlur.sigma, ramp(progressiveBlur.ramp)) }
            if let gradient { add("gr", gradient.opacity, colour(gradient.color), ramp(gradient.ramp)) }
            if backgroundAlpha != 1 { add("bga", backgroundAlpha) }
            return parts
        }
    }
#endif
