import Foundation

/// Rotates by an angle in radians, counter-clockwise as shown, like SDWebImage's
/// `SDImageRotationTransformer`.
///
/// Key: `SDImageRotationTransformer(%f,%d)` — angle, fit size.
///
/// With `fitSize` the canvas is the rotated image's bounding box (sides rounded up); without it
/// the canvas keeps the source size, the rotated image centred and clipped. Uncovered canvas is
/// transparent. Multiples of 90° are exact pixel permutations; when the canvas keeps its size and
/// the sides differ by an odd number of pixels, the rotated image sits half a pixel up-left of
/// centre so that pixels stay whole (SDWebImage would resample). Other angles sample bilinearly
/// in premultiplied alpha with a transparent outside, which also antialiases the edges.
/// Quarter turns keep an ``Image/deepBitmap`` (turned the same way); other angles drop it.
public struct ImageRotationTransformer: ImageTransforming {
    /// Radians, counter-clockwise.
    public let angle: Double
    public let fitSize: Bool

    /// A non-finite angle throws ``WebImageError/invalidArgument(_:underlying:)`` when transforming.
    public init(angle: Double, fitSize: Bool = true) {
        self.angle = angle
        self.fitSize = fitSize
    }

    public var transformerKey: String {
        "SDImageRotationTransformer(\(TransformerKeyFormat.number(angle)),\(TransformerKeyFormat.flag(fitSize)))"
    }

    public func transformedImage(_ image: Image, forKey key: String) throws(WebImageError) -> Image {
        guard angle.isFinite else {
            throw .invalidArgument("rotation angle must be finite, got \(angle)")
        }
        let source = TransformSupport.uprightBitmap(of: image)
        let quarterTurns = angle / (Double.pi / 2)
        let nearest = quarterTurns.rounded()
        if abs(quarterTurns - nearest) < 1e-9 {
            // Reduce to 0...3 counter-clockwise quarter turns before converting (the remainder is small).
            let turns = Int(clamping: nearest.truncatingRemainder(dividingBy: 4) + 4) % 4
            return try rotatedByQuarterTurns(turns, source, image)
        }
        return try rotatedResampling(source, image)
    }

    private func rotatedByQuarterTurns(_ turns: Int, _ source: ImageBitmap, _ image: Image) throws(WebImageError)
        -> Image
    {
        // Showing pixels stored in EXIF orientation `.left` upright turns them a quarter
        // counter-clockwise, `.right` a quarter clockwise; reuse those exact permutations.
        let orientation: ImageOrientation =
            switch turns {
            case 1: .left
            case 2: .down
            case 3: .right
            default: .up
            }
        if let deep = TransformSupport.uprightDeepBitmap(of: image) {
            let rotated = deep.applyingOrientation(orientation)
            if fitSize || rotated.size == deep.size {
                return TransformSupport.result(deep: rotated, from: image, hasAlpha: image.hasAlpha)
            }
            return TransformSupport.result(
                deep: try rotated.placedCentred(on: deep.size), from: image, hasAlpha: true)
        }
        let rotated = source.applyingOrientation(orientation)
        if fitSize || rotated.size == source.size {
            return TransformSupport.result(rotated, from: image, hasAlpha: image.hasAlpha)
        }
        let canvas = try rotated.placedCentred(on: source.size)
        return TransformSupport.result(canvas, from: image, hasAlpha: true)
    }

    private func rotatedResampling(_ source: ImageBitmap, _ image: Image) throws(WebImageError) -> Image {
        let cosine = cos(angle)
        let sine = sin(angle)
        let sourceWidth = Double(source.width)
        let sourceHeight = Double(source.height)
        var outSize = source.size
        if fitSize {
            // Trim rounding noise so that, say, 100×100 at 45° gives 142, not 143.
            let width = (abs(sourceWidth * cosine) + abs(sourceHeight * sine) - 1e-9).rounded(.up)
            let height = (abs(sourceWidth * sine) + abs(sourceHeight * cosine) - 1e-9).rounded(.up)
            outSize = PixelSize(
                width: max(1, try TransformSupport.pixelLength(width, "rotated width")),
                height: max(1, try TransformSupport.pixelLength(height, "rotated height")))
        }
        try TransformSupport.checkResultSize(outSize, "rotate")
        let sampler = BilinearSampler(source)
        let outWidth = outSize.width
        let centreX = Double(outSize.width) / 2
        let centreY = Double(outSize.height) / 2
        let bitmap = ImageBitmap(width: outSize.width, height: outSize.height) { dst in
            for dy in 0..<outSize.height {
                let ry = Double(dy) + 0.5 - centreY
                for dx in 0..<outWidth {
                    let rx = Double(dx) + 0.5 - centreX
                    // Inverse of a counter-clockwise (as shown, y down) rotation.
                    let sx = rx * cosine - ry * sine + sourceWidth / 2
                    let sy = rx * sine + ry * cosine + sourceHeight / 2
                    let pixel = sampler.sample(x: sx, y: sy).straight
                    let o = (dy * outWidth + dx) * 4
                    dst[o] = pixel.r
                    dst[o + 1] = pixel.g
                    dst[o + 2] = pixel.b
                    dst[o + 3] = pixel.a
                }
            }
        }
        return TransformSupport.result(bitmap, from: image, hasAlpha: true)
    }
}

/// Bilinear sampling of a bitmap in premultiplied alpha; outside the bitmap is transparent, so
/// edges fade over one pixel instead of aliasing.
struct BilinearSampler {
    let bitmap: ImageBitmap

    init(_ bitmap: ImageBitmap) { self.bitmap = bitmap }

    /// The colour at continuous coordinates (pixel centres at .5).
    func sample(x: Double, y: Double) -> PremultipliedColor {
        let fx = x - 0.5
        let fy = y - 0.5
        guard fx > -1, fy > -1, fx < Double(bitmap.width), fy < Double(bitmap.height) else { return .clear }
        let x0 = Int(clamping: fx, rounding: .down)
        let y0 = Int(clamping: fy, rounding: .down)
        let tx = fx - Double(x0)
        let ty = fy - Double(y0)
        let top = texel(x0, y0).scaled(by: 1 - tx).adding(texel(x0 + 1, y0).scaled(by: tx))
        let bottom = texel(x0, y0 + 1).scaled(by: 1 - tx).adding(texel(x0 + 1, y0 + 1).scaled(by: tx))
        return top.scaled(by: 1 - ty).adding(bottom.scaled(by: ty))
    }

    private func texel(_ x: Int, _ y: Int) -> PremultipliedColor {
        guard x >= 0, y >= 0, x < bitmap.width, y < bitmap.height else { return .clear }
        return PremultipliedColor(bitmap[x, y])
    }
}

extension ImageBitmap {
    /// This bitmap centred on a transparent canvas of `size` (clipped where it overhangs); the
    /// offset is rounded down so that pixels are copied whole.
    func placedCentred(on size: PixelSize) throws(WebImageError) -> ImageBitmap {
        try TransformSupport.checkResultSize(size, "canvas")
        var canvas = ImageBitmap(width: size.width, height: size.height, fill: .clear)
        // Shifting floors, so odd differences put the image half a pixel up and left, both axes alike.
        let offsetX = (size.width - width) >> 1
        let offsetY = (size.height - height) >> 1
        let fromX = max(0, -offsetX)
        let toX = min(width, size.width - offsetX)
        let fromY = max(0, -offsetY)
        let toY = min(height, size.height - offsetY)
        guard toX > fromX, toY > fromY else { return canvas }
        let rowBytes = (toX - fromX) * 4
        pixels.withUnsafeBufferPointer { src in
            canvas.pixels.withUnsafeMutableBufferPointer { dst in
                for y in fromY..<toY {
                    let from = (y * width + fromX) * 4
                    let to = ((y + offsetY) * size.width + fromX + offsetX) * 4
                    UnsafeMutableRawPointer(dst.baseAddress! + to).copyMemory(
                        from: src.baseAddress! + from, byteCount: rowBytes)
                }
            }
        }
        return canvas
    }
}
