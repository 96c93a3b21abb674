import CWebP
import Foundation

extension WebPCoder {
    /// Encodes every frame with `WebPAnimEncoder`: timestamps from the frame durations (ms),
    /// the animation's loop count, lossy or lossless per `options`, at the animation method of
    /// `options.effort`. No key frame follows the first (libwebp's default): each frame is stored
    /// as a change to the one before, which wrote smaller files than Pillow's key frame every 3–5
    /// frames, in less time.
    func encodeAnimation(
        _ animation: ImageAnimation, orientation: ImageOrientation, options: ImageEncodeOptions
    ) throws(WebImageError) -> Data {
        let frames = try animation.allFrames()
        let first = try frames[0].bitmap.preparedForEncoding(orientation: orientation, options: options)
        let quality = options.lossless ? 75 : Self.quality(options.compressionQuality)
        var config = try Self.makeConfig(
            quality: quality, lossless: options.lossless, method: Self.animationMethod(options.effort))

        var encoderOptions = WebPAnimEncoderOptions()
        guard WebPAnimEncoderOptionsInit(&encoderOptions) != 0 else {
            throw .encodingFailed("libwebp's mux version does not match its headers")
        }
        encoderOptions.anim_params.loop_count = Int32(clamping: max(animation.loopCount, 0))
        guard let encoder = WebPAnimEncoderNew(Int32(first.width), Int32(first.height), &encoderOptions) else {
            throw .encodingFailed("libwebp could not create an animation encoder")
        }
        defer { WebPAnimEncoderDelete(encoder) }

        var timestamp = 0
        for (index, frame) in frames.enumerated() {
            let bitmap =
                index == 0 ? first : try frame.bitmap.preparedForEncoding(orientation: orientation, options: options)
            guard bitmap.size == first.size else {
                throw .encodingFailed("frame \(index) is \(bitmap.size), the canvas is \(first.size)")
            }
            var picture = WebPPicture()
            guard WebPPictureInit(&picture) != 0 else {
                throw .encodingFailed("libwebp's encoder version does not match its headers")
            }
            defer { WebPPictureFree(&picture) }
            try Self.importPixels(bitmap, into: &picture, argb: true)
            guard WebPAnimEncoderAdd(encoder, &picture, Int32(clamping: timestamp), &config) != 0 else {
                throw .encodingFailed("frame \(index): \(Self.lastError(encoder))")
            }
            let milliseconds =
                frame.duration.isFinite ? Int(clamping: frame.duration * 1000, rounding: .toNearestOrAwayFromZero) : 100
            timestamp += min(max(milliseconds, 0), 1 << 24)
        }
        guard WebPAnimEncoderAdd(encoder, nil, Int32(clamping: timestamp), nil) != 0 else {
            throw .encodingFailed(Self.lastError(encoder))
        }
        var output = WebPData()
        guard WebPAnimEncoderAssemble(encoder, &output) != 0, let bytes = output.bytes else {
            WebPDataClear(&output)
            throw .encodingFailed(Self.lastError(encoder))
        }
        defer { WebPDataClear(&output) }
        return Data(bytes: bytes, count: output.size)
    }

    private static func lastError(_ encoder: OpaquePointer) -> String {
        guard let message = WebPAnimEncoderGetError(encoder) else { return "libwebp animation encoder failed" }
        return String(validatingCString: message) ?? "libwebp animation encoder failed"
    }
}
