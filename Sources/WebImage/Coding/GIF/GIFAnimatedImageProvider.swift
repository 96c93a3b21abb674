import Foundation

/// Composites a GIF's frames on demand (SDWebImage's `SDAnimatedImageProvider` for GIF).
///
/// Keeps the parsed frame table and the last composited canvas, so asking for frames in order
/// costs one frame's decoding each; going backwards starts again from the first frame.
/// Thread-safe: the canvas and decoder sit behind a lock.
final class GIFAnimatedImageProvider: AnimatedImageProvider {
    private struct State {
        var compositor: GIFCompositor
        /// The last frame handed out, at the output size, with its index.
        var last: (index: Int, bitmap: ImageBitmap)?
    }

    public let animatedImageData: Data
    private let container: GIFContainer
    /// The size frames are resampled to, or nil for the canvas size.
    private let outputSize: PixelSize?
    private let state: Locked<State>

    /// Parses `data` and checks the canvas against ``ImageDecodeOptions/maxPixelCount``.
    /// A thumbnail size or byte limit in `options` resamples every frame.
    public convenience init(data: Data, options: ImageDecodeOptions) throws(WebImageError) {
        try self.init(data: data, container: try GIFContainer.parse(data), options: options)
    }

    init(data: Data, container: GIFContainer, options: ImageDecodeOptions) throws(WebImageError) {
        try DecodeGeometry.checkPixelLimit(width: container.width, height: container.height, options: options)
        animatedImageData = data
        self.container = container
        outputSize = DecodeGeometry.targetSize(
            storedSize: PixelSize(width: container.width, height: container.height), orientation: .up,
            frameCount: container.frames.count, options: options)
        state = Locked(State(compositor: GIFCompositor(container: container, maxPixelCount: options.maxPixelCount)))
    }

    public var frameCount: Int { container.frames.count }

    public var loopCount: Int { container.loopCount }

    /// Whether frames are resampled to a thumbnail size.
    public var isThumbnail: Bool { outputSize != nil }

    public func duration(at index: Int) -> Double {
        guard container.frames.indices.contains(index) else { return 0 }
        return container.frames[index].duration
    }

    /// Frame `index` composited on the full canvas. Throws ``WebImageError/invalidArgument(_:underlying:)``
    /// for an index out of range.
    public func frame(at index: Int) throws(WebImageError) -> ImageBitmap {
        guard container.frames.indices.contains(index) else {
            throw .invalidArgument("frame index \(index) is outside 0..<\(frameCount)")
        }
        let data = animatedImageData
        let outputSize = outputSize
        return try state.withLock { state throws(WebImageError) in
            if let last = state.last, last.index == index { return last.bitmap }
            if state.compositor.renderedIndex >= index { state.compositor.reset() }
            state.last = nil
            while state.compositor.renderedIndex < index {
                try state.compositor.renderNext(from: data)
            }
            let bitmap = try GIFCoder.output(state.compositor.bitmap, size: outputSize)
            state.last = (index, bitmap)
            return bitmap
        }
    }

    /// The canvas, the decoder's scratch buffers and, for thumbnails, the last resampled frame.
    public var heldByteCount: Int {
        state.withLock { state in
            state.compositor.heldByteCount + (outputSize != nil ? state.last?.bitmap.byteCount ?? 0 : 0)
        }
    }
}
