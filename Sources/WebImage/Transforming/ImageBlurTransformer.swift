import Foundation

/// A Gaussian blur (SDWebImage's `SDImageBlurTransformer`), key `SDImageBlurTransformer(%f)`.
///
/// `radius` is the Gaussian's standard deviation σ in pixels, as in Pillow's
/// `GaussianBlur(radius)` and SDWebImage (whose vImage path turns the radius into box sizes the
/// same way). The blur runs three extended box passes per direction whose combined variance is
/// exactly σ², so its cost does not grow with the radius. It works in premultiplied alpha (a
/// transparent pixel never darkens its neighbours) and extends the edge pixels outwards, so a
/// uniform image stays exactly uniform.
///
/// Blurring does not depend on orientation, so the result keeps the source's ``Image/orientation``
/// and metadata. An animation's frames are not blurred here: the result is the blurred poster.
///
/// Images of 256 K pixels or more are split into bands of rows (then columns) that run on those of
/// the library's CPU threads that stand idle (under load, one thread); the pixels are the same either
/// way.
///
/// Works on 8-bit pixels: the result has no ``Image/deepBitmap``.
public struct ImageBlurTransformer: ImageTransforming {
    /// The largest ``radius`` accepted, in pixels. A Gaussian this wide already flattens any
    /// image a decoder will produce into its mean, and the blur's scratch memory grows with the
    /// radius, so larger values are refused rather than worked on.
    public static let maximumRadius: Double = 1000

    /// The standard deviation σ of the Gaussian, in pixels, within 0...``maximumRadius``. 0
    /// leaves the image unchanged.
    public let radius: Double
    /// Whether a large image may be blurred on several cores at once (the default). Turn it off
    /// where the caller already keeps every core busy; the result is identical.
    public var usesMultipleCores: Bool = true

    /// A blur of standard deviation `radius` pixels. A radius outside 0...``maximumRadius``
    /// (NaN and the infinities included) is accepted here and rejected by
    /// ``transformedImage(_:forKey:)`` with ``WebImageError/invalidArgument(_:underlying:)``, so
    /// that keys stay cheap.
    public init(radius: Double) {
        self.radius = radius
    }

    public var transformerKey: String {
        String(format: "SDImageBlurTransformer(%f)", radius)
    }

    public func transformedImage(_ image: Image, forKey key: String) throws(WebImageError) -> Image {
        guard (0...Self.maximumRadius).contains(radius) else {
            throw .invalidArgument(
                "blur radius \(radius) must be a number within 0...\(Int(clamping: Self.maximumRadius))")
        }
        var result = image
        result.animation = nil
        result.isTransformed = true
        if radius > 0 {
            result.bitmap = image.bitmap.gaussianBlurred(sigma: radius, parallel: usesMultipleCores)
        }
        return result
    }
}
