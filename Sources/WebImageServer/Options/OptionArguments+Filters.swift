#if Server
    import WebImage

    /// The arguments of imgproxy Pro's colour and detail options. Every number is checked for its
    /// range (NaN, the infinities and huge values included) before anything uses it.
    extension OptionArguments {
        /// A finite number within `range`.
        func number(_ text: String, in range: ClosedRange<Double>) throws(ServiceError) -> Double {
            guard let value = Double(text), range.contains(value) else {
                throw failure("'\(text)' is not a number within \(range.lowerBound)...\(range.upperBound)")
            }
            return value
        }

        /// A fraction 0…1 (an intensity, an opacity, an alpha, a relative position).
        func fraction(_ text: String) throws(ServiceError) -> Double {
            try number(text, in: 0...1)
        }

        /// `RGB` or `RRGGBB`, as imgproxy's hex colours are written: opaque.
        func opaqueColour(_ text: String) throws(ServiceError) -> RGBA8 {
            let digits = text.hasPrefix("#") ? text.dropFirst() : Substring(text)
            guard digits.count == 3 || digits.count == 6 else {
                throw failure("'\(text)' is not a colour RGB or RRGGBB")
            }
            return try hexColour(text)
        }

        /// `brightness`: a whole number -255…255.
        func brightness(_ text: String) throws(ServiceError) -> Int {
            guard let value = Int(text), (-255...255).contains(value) else {
                throw failure("'\(text)' is not a brightness, a whole number from -255 to 255")
            }
            return value
        }

        /// `contrast` and `saturation`: a factor within ``ImageColorAdjustTransformer/factorRange``.
        func factor(_ text: String) throws(ServiceError) -> Double {
            try number(text, in: ImageColorAdjustTransformer.factorRange)
        }

        /// `a:brightness[:contrast[:saturation]]`; an empty argument keeps that value.
        func adjust(_ current: (Int, Double, Double)) throws(ServiceError) -> (Int, Double, Double) {
            guard !values.isEmpty else { throw failure("takes 1 to 3 arguments") }
            try count(atMost: 3)
            var (brightness, contrast, saturation) = current
            if !values[0].isEmpty { brightness = try self.brightness(values[0]) }
            if values.count > 1, !values[1].isEmpty { contrast = try factor(values[1]) }
            if values.count > 2, !values[2].isEmpty { saturation = try factor(values[2]) }
            return (brightness, contrast, saturation)
        }

        /// `mc:intensity[:color]`; an intensity of 0 turns it off.
        func monochrome() throws(ServiceError) -> ProcessingOptions.Monochrome? {
            guard !values.isEmpty, values.count <= 2 else { throw failure("takes 1 or 2 arguments") }
            let intensity = try fraction(values[0])
            guard intensity > 0 else { return nil }
            var monochrome = ProcessingOptions.Monochrome(intensity: intensity)
            if values.count > 1, !values[1].isEmpty { monochrome.color = try opaqueColour(values[1]) }
            return monochrome
        }

        /// `dt:intensity[:color1[:color2]]`; an intensity of 0 turns it off.
        func duotone() throws(ServiceError) -> ProcessingOptions.Duotone? {
            guard !values.isEmpty, values.count <= 3 else { throw failure("takes 1 to 3 arguments") }
            let intensity = try fraction(values[0])
            guard intensity > 0 else { return nil }
            var duotone = ProcessingOptions.Duotone(intensity: intensity)
            if values.count > 1, !values[1].isEmpty { duotone.dark = try opaqueColour(values[1]) }
            if values.count > 2, !values[2].isEmpty { duotone.light = try opaqueColour(values[2]) }
            return duotone
        }

        /// `col:opacity[:color[:keep_alpha]]`; an opacity of 0 turns it off.
        func colorize() throws(ServiceError) -> ProcessingOptions.Colorize? {
            guard !values.isEmpty, values.count <= 3 else { throw failure("takes 1 to 3 arguments") }
            let opacity = try fraction(values[0])
            guard opacity > 0 else { return nil }
            var colorize = ProcessingOptions.Colorize(opacity: opacity)
            if values.count > 1, !values[1].isEmpty { colorize.color = try opaqueColour(values[1]) }
            if values.count > 2, !values[2].isEmpty { colorize.keepsAlpha = try boolean(values[2]) }
            return colorize
        }

        /// `ush:mode[:weight[:divider]]`; an empty argument keeps that value.
        func unsharpMasking(
            _ current: ProcessingOptions.UnsharpMasking
        ) throws(ServiceError) -> ProcessingOptions.UnsharpMasking {
            try count(atMost: 3)
            typealias Masking = ProcessingOptions.UnsharpMasking
            var masking = current
            if let mode = values.first, !mode.isEmpty {
                guard let parsed = Masking.Mode(rawValue: mode) else {
                    throw failure("'\(mode)' is not a mode (auto, none or always)")
                }
                masking.mode = parsed
            }
            if values.count > 1, !values[1].isEmpty {
                let weight = try number(values[1], above: 0)
                guard weight <= Masking.maximumWeight else {
                    throw failure("'\(values[1])' is not a weight above 0 and at most \(Masking.maximumWeight)")
                }
                masking.weight = weight
            }
            if values.count > 2, !values[2].isEmpty {
                masking.divider = try number(values[2], in: Masking.dividerRange)
            }
            return masking
        }

        /// `ba:sigma[:left:top:width:height…]`: fractions 0…1 of the source, up to
        /// ``ProcessingOptions/BlurAreas/maximumCount`` areas; a sigma of 0, or no area, turns it off.
        func blurAreas() throws(ServiceError) -> ProcessingOptions.BlurAreas? {
            let limit = ProcessingOptions.BlurAreas.maximumCount
            guard !values.isEmpty, (values.count - 1) % 4 == 0 else {
                throw failure("takes a sigma and then four numbers (left:top:width:height) per area")
            }
            try count(atMost: 1 + 4 * limit)
            let sigma = try number(values[0], in: ProcessingOptions.filterSigmaRange)
            var areas: [ProcessingOptions.Area] = []
            for index in stride(from: 1, to: values.count, by: 4) {
                areas.append(
                    ProcessingOptions.Area(
                        left: try fraction(values[index]), top: try fraction(values[index + 1]),
                        width: try fraction(values[index + 2]), height: try fraction(values[index + 3])))
            }
            guard sigma > 0, !areas.isEmpty else { return nil }
            return ProcessingOptions.BlurAreas(sigma: sigma, areas: areas)
        }

        /// `pbl:sigma[:direction[:start[:stop]]]`; a sigma of 0 turns it off.
        func progressiveBlur() throws(ServiceError) -> ProcessingOptions.ProgressiveBlur? {
            guard !values.isEmpty, values.count <= 4 else { throw failure("takes 1 to 4 arguments") }
            let sigma = try number(values[0], in: ProcessingOptions.filterSigmaRange)
            let ramp = try ramp(from: 1)
            return sigma > 0 ? ProcessingOptions.ProgressiveBlur(sigma: sigma, ramp: ramp) : nil
        }

        /// `gr:opacity[:color[:direction[:start[:stop]]]]`; an opacity of 0 turns it off.
        func gradient() throws(ServiceError) -> ProcessingOptions.Gradient? {
            guard !values.isEmpty, values.count <= 5 else { throw failure("takes 1 to 5 arguments") }
            let opacity = try fraction(values[0])
            var gradient = ProcessingOptions.Gradient(opacity: opacity)
            if values.count > 1, !values[1].isEmpty { gradient.color = try opaqueColour(values[1]) }
            gradient.ramp = try ramp(from: 2)
            return opacity > 0 ? gradient : nil
        }

        /// `direction[:start[:stop]]` from argument `first` on; empty or missing ones keep the defaults.
        private func ramp(from first: Int) throws(ServiceError) -> ProcessingOptions.Ramp {
            var ramp = ProcessingOptions.Ramp()
            if values.count > first, !values[first].isEmpty { ramp.angle = try direction(values[first]) }
            if values.count > first + 1, !values[first + 1].isEmpty { ramp.start = try fraction(values[first + 1]) }
            if values.count > first + 2, !values[first + 2].isEmpty { ramp.stop = try fraction(values[first + 2]) }
            return ramp
        }

        /// `down`, `left`, `up`, `right`, or degrees clockwise (any finite number), as 0..<360.
        func direction(_ text: String) throws(ServiceError) -> Double {
            switch text {
            case "down": return 0
            case "left": return 90
            case "up": return 180
            case "right": return 270
            default:
                guard let degrees = Double(text), degrees.isFinite else {
                    throw failure("'\(text)' is not a direction (down, up, left, right or degrees)")
                }
                let turned = degrees.truncatingRemainder(dividingBy: 360)
                let angle = turned < 0 ? turned + 360 : turned
                // -0 and a remainder so close below 0 that adding 360 rounds to 360 are both 0.
                return angle == 0 || angle >= 360 ? 0 : angle
            }
        }

        func resizingAlgorithm(_ text: String) throws(ServiceError) -> ProcessingOptions.ResizingAlgorithm {
            guard let algorithm = ProcessingOptions.ResizingAlgorithm(rawValue: text) else {
                throw failure("'\(text)' is not an algorithm (nearest, linear, cubic, lanczos2 or lanczos3)")
            }
            return algorithm
        }
    }
#endif
