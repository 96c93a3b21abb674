#if ColorManagement
    /// Tells whether a conversion is, in effect, no conversion: a source whose profile is sRGB
    /// (most cameras and exports embed one) keeps its pixels untouched and costs nothing.
    enum ConversionProbe {
        /// A cube of 9 levels per channel plus the whole grey ramp: every place a tone curve or
        /// matrix that differs from sRGB's would show.
        private static let probe: ImageBitmap = {
            var pixels: [UInt8] = []
            let levels = stride(from: 0, through: 256, by: 32).map { UInt8(min($0, 255)) }
            for red in levels { for green in levels { for blue in levels { pixels += [red, green, blue, 255] } } }
            for level in 0...255 { pixels += [UInt8(level), UInt8(level), UInt8(level), 255] }
            return try! ImageBitmap(width: pixels.count / 4, height: 1, pixels: pixels)
        }()

        /// True when no probe pixel moves by more than one level.
        static func changesNoPixel(_ conversion: SRGBConversion) -> Bool {
            var converted = probe
            conversion.apply(to: &converted)
            return zip(probe.pixels, converted.pixels).allSatisfy { abs(Int($0) - Int($1)) <= 1 }
        }
    }
#endif
