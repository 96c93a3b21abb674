import CWebImageShims
import Foundation

extension PNGCoder {
    /// The zlib level used for encoding, chosen for speed. PNG is lossless, so
    /// `compressionQuality` does not apply (as in SDWebImage). Rows use the Up filter rather than
    /// libpng's adaptive choice: it encodes markedly faster for files a little larger (the
    /// figures are in Benchmarks/README.md).
    static let compressionLevel: Int32 = 3

    /// Encodes the upright pixels (``Image/orientation`` applied) of the still image or first
    /// frame as an 8-bit PNG, scaled down first to fit ``ImageEncodeOptions/maxPixelSize``.
    ///
    /// The result is RGBA, or RGB when the image has no alpha channel and every pixel is opaque.
    /// Alpha stays straight, so decoding an 8-bit RGBA PNG and encoding it again is bit-exact,
    /// including the colour of fully transparent pixels.
    public func encode(_ image: Image, as format: ImageFormat, options: ImageEncodeOptions) throws(WebImageError)
        -> Data
    {
        guard format == .png || format == .undefined else { throw .unsupportedFormat(format) }
        var bitmap = image.bitmap.applyingOrientation(image.orientation)
        if options.maxPixelSize.isPositive {
            let fitted = DecodeGeometry.scaledSize(
                bitmap.size, fitting: options.maxPixelSize, preserveAspectRatio: true, shouldScaleUp: false)
            bitmap = try bitmap.resampled(to: fitted)
        }
        let keepAlpha = image.hasAlpha || bitmap.containsTransparency
        guard let width = UInt32(exactly: bitmap.width), let height = UInt32(exactly: bitmap.height) else {
            throw .encodingFailed("PNG: \(bitmap.width)x\(bitmap.height) is too large for PNG")
        }
        var output: UnsafeMutablePointer<UInt8>?
        var length = 0
        let messageCapacity = 200
        var message = [CChar](repeating: 0, count: messageCapacity)
        let status = bitmap.pixels.withUnsafeBufferPointer { pixels in
            cwi_png_encode_rgba(
                pixels.baseAddress, width, height, keepAlpha ? 1 : 0, Self.compressionLevel,
                &output, &length, &message, messageCapacity)
        }
        guard status == 0, let output else {
            let text = message.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
            throw .encodingFailed("PNG: \(text.isEmpty ? "unknown libpng error" : text)")
        }
        return Data(bytesNoCopy: output, count: length, deallocator: .custom { pointer, _ in cwi_png_free(pointer) })
    }
}
