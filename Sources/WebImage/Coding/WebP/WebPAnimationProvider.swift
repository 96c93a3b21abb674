import CWebP
import Foundation

/// Decodes the frames of an animated WebP on demand (SDWebImageWebPCoder as an
/// `SDAnimatedImageCoder`).
///
/// Sequential access costs one frame decode per frame; asking for an earlier frame restarts
/// from the first. The only mutable state, the libwebp decoder, sits behind `state`'s lock;
/// every other stored property is an immutable Sendable value, so the class is checked `Sendable`.
final class WebPAnimationProvider: AnimatedImageProvider {
    let animatedImageData: Data
    let frameCount: Int
    let loopCount: Int
    private let durations: [Double]
    private let outputSize: PixelSize?
    private let canvas: PixelSize
    private let state: Locked<WebPAnimationDecoder?>

    /// A provider that opens its decoder on the first frame request.
    init(data: Data, container: WebPContainer, outputSize: PixelSize?) {
        animatedImageData = data
        frameCount = container.frameCount
        loopCount = container.loopCount
        durations = container.durations
        self.outputSize = outputSize
        canvas = PixelSize(width: container.width, height: container.height)
        state = Locked(nil)
    }

    /// A provider that takes over an open decoder.
    init(data: Data, container: WebPContainer, decoder: sending WebPAnimationDecoder) {
        animatedImageData = data
        frameCount = container.frameCount
        loopCount = container.loopCount
        durations = container.durations
        outputSize = decoder.outputSize
        canvas = decoder.canvas
        state = Locked(decoder)
    }

    func duration(at index: Int) -> Double {
        durations.indices.contains(index) ? durations[index] : 0
    }

    func frame(at index: Int) throws(WebImageError) -> ImageBitmap {
        try state.withLock { decoder throws(WebImageError) in
            if decoder == nil {
                decoder = try WebPAnimationDecoder(data: animatedImageData, outputSize: outputSize)
            }
            return try decoder!.frame(at: index)
        }
    }

    /// The two canvases libwebp keeps while the decoder is open; frames handed out are the
    /// caller's.
    var heldByteCount: Int {
        state.withLock { $0 == nil ? 0 : $0!.heldByteCount }
    }
}
