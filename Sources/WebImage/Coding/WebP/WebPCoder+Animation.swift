import CWebP
import Foundation

extension WebPCoder {
    /// Decodes an animated WebP: the first frame only, every frame up front, or a lazy provider.
    func decodeAnimation(
        _ data: Data, canvas: PixelSize, scale: Double, options: ImageDecodeOptions
    ) throws(WebImageError) -> Image {
        let container = try data.withUnsafeBytesTyped { bytes throws(WebImageError) in try WebPContainer(bytes: bytes) }
        let target = DecodeGeometry.targetSize(
            storedSize: canvas, orientation: .up, frameCount: container.frameCount, options: options)
        let out = target ?? canvas
        let decoder = try WebPAnimationDecoder(data: data, outputSize: target)
        let metadata = data.withUnsafeBytes { WebPMetadata.read(options.readMetadata, in: $0) }

        if options.firstFrameOnly {
            let bitmap = try decoder.frame(at: 0)
            return Image(
                bitmap: bitmap, scale: scale, format: .webp, hasAlpha: container.hasAlpha, isThumbnail: target != nil,
                metadata: metadata)
        }

        // The decoder moves into the provider, so the choice is made here rather than in a closure.
        let (animation, poster) =
            options.decodesFramesEagerly(frameSize: out, frameCount: container.frameCount)
            ? try ImageAnimation.decodedEagerly(frameCount: container.frameCount, loopCount: container.loopCount) {
                index throws(WebImageError) in
                ImageFrame(bitmap: try decoder.frame(at: index), duration: container.durations[index])
            }
            : try ImageAnimation.onDemand(WebPAnimationProvider(data: data, container: container, decoder: decoder))
        return Image(
            bitmap: poster, scale: scale, format: .webp, animation: animation, hasAlpha: container.hasAlpha,
            isThumbnail: target != nil, metadata: metadata)
    }
}
