import Foundation

extension PNGCoder: AnimatedImageCoding {
    /// A provider that composites an APNG's frames on demand. Throws
    /// ``WebImageError/badImageData(_:underlying:)`` for a still PNG.
    public func animatedImageProvider(for data: Data, options: ImageDecodeOptions) throws(WebImageError)
        -> any AnimatedImageProvider
    {
        let info = try imageInfo(for: data)
        guard let container = try Self.animation(in: data) else {
            throw .badImageData("the PNG is not animated (no acTL chunk)")
        }
        return try APNGAnimationProvider(
            data: data, container: container, orientation: info.orientation, options: options)
    }

    /// The APNG container of `data`, or nil for a still PNG.
    static func animation(in data: Data) throws(WebImageError) -> APNGContainer? {
        try data.withUnsafeBytesTyped { (bytes: UnsafeRawBufferPointer) throws(WebImageError) in
            try APNGContainer.parse(bytes)
        }
    }

    /// Every frame composited (eagerly while they fit ``ImageDecodeOptions/maxAnimationByteCount``,
    /// else on demand), resampled to the thumbnail size and turned upright as a still would be.
    /// With ``ImageDecodeOptions/firstFrameOnly``, the first frame as a still image.
    func decodeAnimation(
        _ data: Data, container: APNGContainer, header: PNGHeader, orientation: ImageOrientation,
        metadata: ImageMetadata, options: ImageDecodeOptions
    ) throws(WebImageError) -> Image {
        let scale = options.scaleFactor >= 1 ? options.scaleFactor : 1
        let canvas = PixelSize(width: container.canvasWidth, height: container.canvasHeight)
        guard canvas == PixelSize(width: header.width, height: header.height) else {
            throw .badImageData("APNG: the canvas is not the size libpng read from IHDR")
        }
        let frameCount = options.firstFrameOnly ? 1 : container.frames.count
        let first = container.frames[0]
        let hasAlpha = header.hasAlpha || first.width != canvas.width || first.height != canvas.height
        let shown = options.applyOrientation ? ImageOrientation.up : orientation
        let output = APNGFrameOutput(canvas: canvas, orientation: orientation, frameCount: frameCount, options: options)
        guard options.decodesFramesEagerly(frameSize: output.size ?? canvas, frameCount: frameCount) else {
            let provider = try APNGAnimationProvider(
                data: data, container: container, orientation: orientation, options: options)
            return Image(
                bitmap: try provider.frame(at: 0), scale: scale, orientation: shown, format: .png,
                animation: ImageAnimation(provider: provider), hasAlpha: hasAlpha, isThumbnail: output.size != nil,
                metadata: metadata)
        }
        var compositor = APNGCompositor(container: container, data: data)
        var frames: [ImageFrame] = []
        for index in 0..<frameCount {
            try compositor.renderNext()
            let duration = container.frames[index].duration
            frames.append(ImageFrame(bitmap: try output.bitmap(compositor.canvas), duration: duration))
        }
        return Image(
            bitmap: frames[0].bitmap, scale: scale, orientation: shown, format: .png,
            animation: options.firstFrameOnly ? nil : ImageAnimation(frames: frames, loopCount: container.loopCount),
            hasAlpha: hasAlpha, isThumbnail: output.size != nil, metadata: metadata)
    }
}

/// How a composited canvas becomes a delivered frame: resampled to the thumbnail size (if one
/// applies) and turned upright (unless the options keep the orientation).
struct APNGFrameOutput {
    /// The resampled size in stored orientation, or nil for the canvas size.
    let size: PixelSize?
    let orientation: ImageOrientation?

    init(canvas: PixelSize, orientation: ImageOrientation, frameCount: Int, options: ImageDecodeOptions) {
        size = DecodeGeometry.targetSize(
            storedSize: canvas, orientation: orientation, frameCount: frameCount, options: options)
        self.orientation = options.applyOrientation && orientation != .up ? orientation : nil
    }

    func bitmap(_ canvas: ImageBitmap) throws(WebImageError) -> ImageBitmap {
        let sized = try size.map { size throws(WebImageError) in try canvas.resampled(to: size) } ?? canvas
        return orientation.map { sized.applyingOrientation($0) } ?? sized
    }
}

/// Composites an APNG's frames on demand, keeping the last canvas: frames asked for in order
/// cost one frame each; going backwards starts again from the first. Thread-safe: the
/// compositor sits behind a lock.
final class APNGAnimationProvider: AnimatedImageProvider {
    private struct State {
        var compositor: APNGCompositor
        var last: (index: Int, bitmap: ImageBitmap)?
    }

    let animatedImageData: Data
    private let container: APNGContainer
    private let output: APNGFrameOutput
    private let state: Locked<State>

    init(data: Data, container: APNGContainer, orientation: ImageOrientation, options: ImageDecodeOptions)
        throws(WebImageError)
    {
        try DecodeGeometry.checkPixelLimit(
            width: container.canvasWidth, height: container.canvasHeight, options: options)
        animatedImageData = data
        self.container = container
        output = APNGFrameOutput(
            canvas: PixelSize(width: container.canvasWidth, height: container.canvasHeight),
            orientation: orientation, frameCount: container.frames.count, options: options)
        state = Locked(State(compositor: APNGCompositor(container: container, data: data)))
    }

    var frameCount: Int { container.frames.count }
    var loopCount: Int { container.loopCount }

    func duration(at index: Int) -> Double {
        container.frames.indices.contains(index) ? container.frames[index].duration : 0
    }

    func frame(at index: Int) throws(WebImageError) -> ImageBitmap {
        guard container.frames.indices.contains(index) else {
            throw .invalidArgument("frame index \(index) is outside 0..<\(frameCount)")
        }
        let output = output
        return try state.withLock { state throws(WebImageError) in
            if let last = state.last, last.index == index { return last.bitmap }
            if state.compositor.renderedIndex >= index { state.compositor.reset() }
            state.last = nil
            while state.compositor.renderedIndex < index { try state.compositor.renderNext() }
            let bitmap = try output.bitmap(state.compositor.canvas)
            state.last = (index, bitmap)
            return bitmap
        }
    }

    var heldByteCount: Int {
        // Without resampling or turning, the last frame shares the canvas's storage.
        let copies = output.size != nil || output.orientation != nil
        return state.withLock { $0.compositor.heldByteCount + (copies ? $0.last?.bitmap.byteCount ?? 0 : 0) }
    }
}
