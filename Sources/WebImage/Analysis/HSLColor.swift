/// A colour as hue, saturation and lightness (HSL), each on 0...1: how swatches are judged
/// and how missing ones are built.
struct HSLColor: Hashable, Sendable {
    var hue: Double
    var saturation: Double
    var lightness: Double

    init(hue: Double, saturation: Double, lightness: Double) {
        self.hue = hue
        self.saturation = saturation
        self.lightness = lightness
    }

    init(_ color: RGBA8) {
        let r = Double(color.r) / 255
        let g = Double(color.g) / 255
        let b = Double(color.b) / 255
        let high = max(r, g, b)
        let low = min(r, g, b)
        let chroma = high - low
        lightness = (high + low) / 2
        guard chroma > 0 else {
            hue = 0
            saturation = 0
            return
        }
        saturation = chroma / (1 - abs(2 * lightness - 1))
        let sector: Double =
            if high == r {
                ((g - b) / chroma).truncatingRemainder(dividingBy: 6)
            } else if high == g {
                (b - r) / chroma + 2
            } else {
                (r - g) / chroma + 4
            }
        hue = (sector / 6 + 1).truncatingRemainder(dividingBy: 1)
    }

    /// The colour in RGB, opaque.
    var rgba: RGBA8 {
        let s = saturation.clamped(to: 0...1)
        let l = lightness.clamped(to: 0...1)
        let chroma = (1 - abs(2 * l - 1)) * s
        let sector = hue.clamped(to: 0...1) * 6
        let second = chroma * (1 - abs(sector.truncatingRemainder(dividingBy: 2) - 1))
        let (r, g, b): (Double, Double, Double) =
            switch sector {
            case ..<1: (chroma, second, 0)
            case ..<2: (second, chroma, 0)
            case ..<3: (0, chroma, second)
            case ..<4: (0, second, chroma)
            case ..<5: (second, 0, chroma)
            default: (chroma, 0, second)
            }
        let m = l - chroma / 2
        let byte = { (value: Double) in
            UInt8(clamping: Int(clamping: (value + m) * 255, rounding: .toNearestOrAwayFromZero))
        }
        return RGBA8(r: byte(r), g: byte(g), b: byte(b))
    }
}
