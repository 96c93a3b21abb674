/// How a tint colour combines with the image, named and numbered as `CGBlendMode` (the raw value
/// appears in ``ImageTintTransformer`` keys). The image is the destination and the colour the
/// source, as when CoreGraphics fills the image's rectangle with the colour.
///
/// The separable modes composite source-over with the W3C Compositing formula
/// `co = cs·(1−αb) + cb·(1−αs) + αs·αb·B(Cb, Cs)`; the Porter-Duff modes use `co = cs·Fa + cb·Fb`.
/// The non-separable modes (hue, saturation, color, luminosity) and plusDarker are not offered.
public enum ImageBlendMode: Int32, Sendable, CaseIterable {
    case normal = 0
    case multiply = 1
    case screen = 2
    case overlay = 3
    case darken = 4
    case lighten = 5
    case colorDodge = 6
    case colorBurn = 7
    case softLight = 8
    case hardLight = 9
    case difference = 10
    case exclusion = 11
    case clear = 16
    case copy = 17
    case sourceIn = 18
    case sourceOut = 19
    case sourceAtop = 20
    case destinationOver = 21
    case destinationIn = 22
    case destinationOut = 23
    case destinationAtop = 24
    case xor = 25
    case plusLighter = 27
}

extension ImageBlendMode {
    /// `source` (the colour) composited onto `destination` (an image pixel), premultiplied.
    func composite(_ source: PremultipliedColor, onto destination: PremultipliedColor) -> PremultipliedColor {
        let sa = source.a
        let da = destination.a
        if let (fa, fb) = porterDuffFactors(sa: sa, da: da) {
            return source.scaled(by: fa).adding(destination.scaled(by: fb))
        }
        if self == .plusLighter {
            return PremultipliedColor(
                r: min(source.r + destination.r, 1), g: min(source.g + destination.g, 1),
                b: min(source.b + destination.b, 1), a: min(sa + da, 1))
        }
        func channel(_ cs: Double, _ cb: Double) -> Double {
            // Straight colours for the blend function; premultiplied everywhere else.
            let straightS = sa > 0 ? cs / sa : 0
            let straightB = da > 0 ? cb / da : 0
            return cs * (1 - da) + cb * (1 - sa) + sa * da * blend(straightB, straightS)
        }
        return PremultipliedColor(
            r: channel(source.r, destination.r), g: channel(source.g, destination.g),
            b: channel(source.b, destination.b), a: sa + da * (1 - sa))
    }

    /// Porter-Duff `(Fa, Fb)` for the compositing modes; nil for the separable blend modes.
    private func porterDuffFactors(sa: Double, da: Double) -> (Double, Double)? {
        switch self {
        case .clear: (0, 0)
        case .copy: (1, 0)
        case .sourceIn: (da, 0)
        case .sourceOut: (1 - da, 0)
        case .sourceAtop: (da, 1 - sa)
        case .destinationOver: (1 - da, 1)
        case .destinationIn: (0, sa)
        case .destinationOut: (0, 1 - sa)
        case .destinationAtop: (1 - da, sa)
        case .xor: (1 - da, 1 - sa)
        case .normal: (1, 1 - sa)
        default: nil
        }
    }

    /// The separable blend function `B(Cb, Cs)` on straight colours.
    private func blend(_ cb: Double, _ cs: Double) -> Double {
        switch self {
        case .multiply: return cb * cs
        case .screen: return cb + cs - cb * cs
        case .overlay: return ImageBlendMode.hardLight.blend(cs, cb)
        case .darken: return min(cb, cs)
        case .lighten: return max(cb, cs)
        case .colorDodge:
            if cb == 0 { return 0 }
            return cs >= 1 ? 1 : min(1, cb / (1 - cs))
        case .colorBurn:
            if cb >= 1 { return 1 }
            return cs <= 0 ? 0 : 1 - min(1, (1 - cb) / cs)
        case .hardLight:
            return cs <= 0.5 ? cb * 2 * cs : ImageBlendMode.screen.blend(cb, 2 * cs - 1)
        case .softLight:
            if cs <= 0.5 { return cb - (1 - 2 * cs) * cb * (1 - cb) }
            let d = cb <= 0.25 ? ((16 * cb - 12) * cb + 4) * cb : cb.squareRoot()
            return cb + (2 * cs - 1) * (d - cb)
        case .difference: return abs(cb - cs)
        case .exclusion: return cb + cs - 2 * cb * cs
        default: return cs
        }
    }
}
