import Foundation

extension Image {
    /// The longest side, in pixels, an image is shrunk to before its BlurHash is computed.
    static let blurHashInputSide = 64

    /// The image's [BlurHash](https://blurha.sh): a short text from which a blurred
    /// placeholder of the image can be drawn, as imgproxy's `/info` returns for
    /// `blurhash:x:y`.
    ///
    /// `components` are the numbers of horizontal and vertical cosine components, 1...9 each;
    /// more show more detail and make a longer text (`4 + 2 × x × y` characters). Anything else
    /// throws ``WebImageError/invalidArgument(_:underlying:)``.
    ///
    /// The image is analysed as shown (``orientation`` applied). It is first shrunk to at most
    /// 64 pixels on its longer side with an area average: the hash keeps
    /// nine cosines a side at most, which 64 pixels carry just as well, and it makes the cost
    /// the same for every image. BlurHash has no alpha: translucent pixels are mixed, in linear
    /// light, with the image's average visible colour, so a transparent background takes the
    /// colour of what stands on it instead of black; a fully transparent image hashes as black.
    public func blurHash(components: (x: Int, y: Int) = (x: 4, y: 3)) throws(WebImageError) -> String {
        guard (1...9).contains(components.x), (1...9).contains(components.y) else {
            throw .invalidArgument("BlurHash components must be 1...9 each, got \(components.x)x\(components.y)")
        }
        let bitmap = AnalysisInput.upright(self, fittingWithin: Self.blurHashInputSide)
        let linear = BlurHashEncoding.linearPixels(bitmap)
        let factors = BlurHashEncoding.factors(
            linear, width: bitmap.width, height: bitmap.height, components: components)
        return BlurHashEncoding.text(factors: factors, components: components)
    }
}

/// The steps of the BlurHash format: cosine factors in linear light, then their base-83 text.
enum BlurHashEncoding {
    /// Each pixel's linear-light RGB, translucent pixels composited over the alpha-weighted
    /// average colour (so that colour hidden under alpha 0 never shows).
    static func linearPixels(_ bitmap: ImageBitmap) -> [SIMD3<Double>] {
        let table = SRGBTransfer.linearOfByte
        var colours: [SIMD3<Double>] = []
        var alphas: [Double] = []
        colours.reserveCapacity(bitmap.width * bitmap.height)
        alphas.reserveCapacity(bitmap.width * bitmap.height)
        var weighted = SIMD3<Double>()
        var coverage = 0.0
        bitmap.pixels.withUnsafeBufferPointer { p in
            for i in stride(from: 0, to: p.count, by: 4) {
                let colour = SIMD3(table[Int(p[i])], table[Int(p[i + 1])], table[Int(p[i + 2])])
                let alpha = Double(p[i + 3]) / 255
                colours.append(colour)
                alphas.append(alpha)
                weighted += colour * alpha
                coverage += alpha
            }
        }
        guard coverage < Double(alphas.count) else { return colours }  // opaque
        let background = coverage > 0 ? weighted / coverage : SIMD3<Double>()
        for i in colours.indices {
            colours[i] = colours[i] * alphas[i] + background * (1 - alphas[i])
        }
        return colours
    }

    /// The `x × y` factors, row by row of vertical frequency: the mean of the pixels times
    /// `cos(π·i·px/width)·cos(π·j·py/height)`, doubled for every factor but the first (DC).
    static func factors(
        _ pixels: [SIMD3<Double>], width: Int, height: Int, components: (x: Int, y: Int)
    ) -> [SIMD3<Double>] {
        let cosX = cosines(count: components.x, length: width)
        let cosY = cosines(count: components.y, length: height)
        var factors: [SIMD3<Double>] = []
        factors.reserveCapacity(components.x * components.y)
        for j in 0..<components.y {
            for i in 0..<components.x {
                var sum = SIMD3<Double>()
                for py in 0..<height {
                    let fy = cosY[j * height + py]
                    for px in 0..<width {
                        sum += pixels[py * width + px] * (cosX[i * width + px] * fy)
                    }
                }
                let normalisation: Double = i == 0 && j == 0 ? 1 : 2
                factors.append(sum * (normalisation / Double(width * height)))
            }
        }
        return factors
    }

    /// `cos(π·k·p/length)` for `k` in `0..<count` and `p` in `0..<length`, `k` major.
    private static func cosines(count: Int, length: Int) -> [Double] {
        (0..<count).flatMap { k in
            (0..<length).map { p in cos(Double.pi * Double(k) * Double(p) / Double(length)) }
        }
    }

    /// The text: size flag, quantised maximum of the AC factors, DC colour, then each AC factor.
    static func text(factors: [SIMD3<Double>], components: (x: Int, y: Int)) -> String {
        var text: [UInt8] = []
        text.reserveCapacity(4 + 2 * factors.count)
        Base83.append((components.x - 1) + (components.y - 1) * 9, length: 1, to: &text)
        let ac = factors.dropFirst()
        var maximum = 1.0
        if !ac.isEmpty {
            let largest = ac.map { max(abs($0.x), abs($0.y), abs($0.z)) }.max() ?? 0
            let quantised = Int(clamping: (largest * 166 - 0.5).rounded(.down).clamped(to: 0...82))
            maximum = Double(quantised + 1) / 166
            Base83.append(quantised, length: 1, to: &text)
        } else {
            Base83.append(0, length: 1, to: &text)
        }
        let dc = factors.first ?? SIMD3<Double>()
        let dcValue =
            SRGBTransfer.byte(fromLinear: dc.x) << 16 | SRGBTransfer.byte(fromLinear: dc.y) << 8
            | SRGBTransfer.byte(fromLinear: dc.z)
        Base83.append(dcValue, length: 4, to: &text)
        for factor in ac {
            let r = quantisedAC(factor.x, maximum)
            let g = quantisedAC(factor.y, maximum)
            let b = quantisedAC(factor.z, maximum)
            Base83.append(r * 19 * 19 + g * 19 + b, length: 2, to: &text)
        }
        return String(decoding: text, as: UTF8.self)
    }

    /// An AC factor on 0...18: the signed square root of its share of the maximum, 9 for zero.
    private static func quantisedAC(_ value: Double, _ maximum: Double) -> Int {
        let share = value / maximum
        let root = share < 0 ? -(-share).squareRoot() : share.squareRoot()
        return Int(clamping: (root * 9 + 9.5).rounded(.down).clamped(to: 0...18))
    }
}
