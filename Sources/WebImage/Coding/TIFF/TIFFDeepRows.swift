#if TIFF
    import CWebImageShims

    /// Turns the rows of a TIFF page with more than 8 bits a sample into 16-bit RGBA with straight
    /// alpha: 16-bit samples as they are, 32-bit floats (linear light) encoded with the sRGB
    /// transfer curve, clamped to 0…1, NaN read as 0 (alpha is linear and only clamped); gray copied
    /// to RGB; associated alpha divided out; opaque alpha where there is none.
    struct TIFFDeepRows {
        let width: Int
        let samples: Int
        let isFloat: Bool
        let isAssociated: Bool

        init(_ layout: cwi_tiff_deep_layout, width: Int) {
            self.width = width
            samples = Int(layout.samples)
            isFloat = layout.is_float != 0
            isAssociated = layout.associated != 0
        }

        /// Bytes of one stored row.
        var rowByteCount: Int { width * samples * (isFloat ? 4 : 2) }

        /// One stored row into `output`'s first `width × 4` values.
        func convert(_ row: UnsafeRawBufferPointer, into output: UnsafeMutableBufferPointer<UInt16>) {
            let hasAlpha = samples == 2 || samples == 4
            let colours = hasAlpha ? samples - 1 : samples
            if isFloat {
                let values = row.bindMemory(to: Float.self)
                for x in 0..<width {
                    let base = x * samples
                    let alpha = hasAlpha ? Self.unit(values[base + colours]) : 1
                    for channel in 0..<3 {
                        var colour = values[base + min(channel, colours - 1)]
                        if isAssociated { colour = alpha > 0 ? colour / alpha : 0 }
                        output[x * 4 + channel] = SRGBTransfer.sixteenBit(fromLinear: Double(colour))
                    }
                    output[x * 4 + 3] = sixteenBit(alpha * 65535)
                }
                return
            }
            let values = row.bindMemory(to: UInt16.self)
            for x in 0..<width {
                let base = x * samples
                let alpha = hasAlpha ? UInt32(values[base + colours]) : 65535
                for channel in 0..<3 {
                    var value = UInt32(values[base + min(channel, colours - 1)])
                    if isAssociated { value = alpha == 0 ? 0 : min(65535, (value * 65535 + alpha / 2) / alpha) }
                    output[x * 4 + channel] = UInt16(value)
                }
                output[x * 4 + 3] = UInt16(alpha)
            }
        }

        /// `value` clamped to 0…1, NaN read as 0.
        private static func unit(_ value: Float) -> Float {
            value > 0 ? min(value, 1) : 0
        }
    }
#endif
