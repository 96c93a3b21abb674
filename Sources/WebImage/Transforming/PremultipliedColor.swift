/// An RGBA colour with premultiplied alpha, channels in 0...1: the space where compositing and
/// filtering are linear, so transparent pixels never tint their neighbours.
struct PremultipliedColor {
    var r: Double
    var g: Double
    var b: Double
    var a: Double

    init(r: Double, g: Double, b: Double, a: Double) {
        self.r = r
        self.g = g
        self.b = b
        self.a = a
    }

    init(_ color: RGBA8) {
        let a = Double(color.a) / 255
        let k = a / 255
        self.init(r: Double(color.r) * k, g: Double(color.g) * k, b: Double(color.b) * k, a: a)
    }

    static let clear = PremultipliedColor(r: 0, g: 0, b: 0, a: 0)

    func scaled(by factor: Double) -> PremultipliedColor {
        PremultipliedColor(r: r * factor, g: g * factor, b: b * factor, a: a * factor)
    }

    func adding(_ other: PremultipliedColor) -> PremultipliedColor {
        PremultipliedColor(r: r + other.r, g: g + other.g, b: b + other.b, a: a + other.a)
    }

    /// Back to straight 8-bit channels (rounded; fully transparent becomes all zero).
    var straight: RGBA8 {
        let alpha = min(max(a, 0), 1)
        let a8 = (alpha * 255).rounded()
        guard a8 > 0 else { return .clear }
        func channel(_ value: Double) -> UInt8 {
            UInt8(clamping: value / alpha * 255, rounding: .toNearestOrAwayFromZero)
        }
        return RGBA8(r: channel(r), g: channel(g), b: channel(b), a: UInt8(clamping: a8))
    }
}
