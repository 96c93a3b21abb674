/// Tints with a colour and blend mode (SDWebImage's `SDImageTintTransformer`): the result is the
/// image with the colour composited over it (see ``ImageBlendMode``).
///
/// Key: `SDImageTintTransformer(#aarrggbb,%d)` — colour, `CGBlendMode` raw value.
///
/// With the default ``ImageBlendMode/sourceIn`` every pixel takes the colour and keeps its own
/// alpha (times the colour's), so fully transparent pixels stay transparent; ``ImageBlendMode/sourceAtop``
/// also keeps the image's alpha. Modes such as ``ImageBlendMode/multiply`` composite source-over
/// and so paint the colour into transparent areas, as CoreGraphics does.
///
/// Works on 8-bit pixels: the result has no ``Image/deepBitmap``.
public struct ImageTintTransformer: ImageTransforming {
    public let color: RGBA8
    public let blendMode: ImageBlendMode

    public init(color: RGBA8, blendMode: ImageBlendMode = .sourceIn) {
        self.color = color
        self.blendMode = blendMode
    }

    public var transformerKey: String {
        "SDImageTintTransformer(\(TransformerKeyFormat.color(color)),\(blendMode.rawValue))"
    }

    public func transformedImage(_ image: Image, forKey key: String) throws(WebImageError) -> Image {
        var bitmap = TransformSupport.uprightBitmap(of: image)
        let source = PremultipliedColor(color)
        let mode = blendMode
        // Images have few distinct colours next to each other; remembering the last pixel skips
        // most of the floating-point work on flat areas.
        var lastIn = RGBA8.clear
        var lastOut = mode.composite(source, onto: .clear).straight
        bitmap.pixels.withUnsafeMutableBufferPointer { pixels in
            var i = 0
            while i < pixels.count {
                let pixel = RGBA8(r: pixels[i], g: pixels[i + 1], b: pixels[i + 2], a: pixels[i + 3])
                if pixel != lastIn {
                    lastIn = pixel
                    lastOut = mode.composite(source, onto: PremultipliedColor(pixel)).straight
                }
                pixels[i] = lastOut.r
                pixels[i + 1] = lastOut.g
                pixels[i + 2] = lastOut.b
                pixels[i + 3] = lastOut.a
                i += 4
            }
        }
        let hasAlpha = image.hasAlpha || bitmap.containsTransparency
        return TransformSupport.result(bitmap, from: image, hasAlpha: hasAlpha)
    }
}
