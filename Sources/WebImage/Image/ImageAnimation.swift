import Foundation

/// One frame of an animation: a full-canvas bitmap (already composited) and how long it shows.
public struct ImageFrame: Sendable, Equatable {
    public var bitmap: ImageBitmap
    /// Seconds.
    public var duration: Double

    public init(bitmap: ImageBitmap, duration: Double) {
        self.bitmap = bitmap
        self.duration = duration
    }
}

/// Frame-by-frame access to an animation that is decoded on demand (`SDAnimatedImageProvider`).
///
/// Implementations are classes whose mutable state (decoder position, cached canvas) sits
/// behind a lock, so one provider can serve several threads.
public protocol AnimatedImageProvider: AnyObject, Sendable {
    /// The encoded animation the frames come from.
    var animatedImageData: Data { get }
    var frameCount: Int { get }
    /// 0 means loop forever.
    var loopCount: Int { get }
    /// Seconds frame `index` shows.
    func duration(at index: Int) -> Double
    /// Decodes (or returns a cached) full-canvas frame.
    func frame(at index: Int) throws(WebImageError) -> ImageBitmap
    /// Bytes of decoded pixels the provider keeps between calls.
    var heldByteCount: Int { get }
}

/// The frames of an animated image, either all decoded or decoded lazily from the source data.
///
/// SDWebImage decodes animated frames eagerly by default; a decoder switches to lazy frames when
/// asked to, or when eager frames would exceed ``ImageDecodeOptions/maxAnimationByteCount``.
public struct ImageAnimation: Sendable {
    enum Storage: Sendable {
        case decoded([ImageFrame])
        case lazy(any AnimatedImageProvider)
    }

    let storage: Storage
    /// How many times the animation plays; 0 means forever.
    public var loopCount: Int

    /// An animation whose frames are all in memory.
    public init(frames: [ImageFrame], loopCount: Int) {
        self.storage = .decoded(frames)
        self.loopCount = loopCount
    }

    /// An animation decoded frame by frame from `provider`.
    public init(provider: any AnimatedImageProvider) {
        self.storage = .lazy(provider)
        self.loopCount = provider.loopCount
    }

    public var frameCount: Int {
        switch storage {
        case .decoded(let frames): frames.count
        case .lazy(let provider): provider.frameCount
        }
    }

    /// Whether every frame is already decoded.
    public var isFullyDecoded: Bool {
        if case .decoded = storage { return true }
        return false
    }

    /// Seconds frame `index` shows.
    public func duration(at index: Int) -> Double {
        switch storage {
        case .decoded(let frames): frames[index].duration
        case .lazy(let provider): provider.duration(at: index)
        }
    }

    /// Seconds for one pass through every frame.
    public var totalDuration: Double {
        (0..<frameCount).reduce(0) { $0 + duration(at: $1) }
    }

    /// Frame `index`, decoding it if the frames are lazy.
    public func frame(at index: Int) throws(WebImageError) -> ImageFrame {
        switch storage {
        case .decoded(let frames): frames[index]
        case .lazy(let provider):
            ImageFrame(bitmap: try provider.frame(at: index), duration: provider.duration(at: index))
        }
    }

    /// Every frame, decoding all of them if they are lazy.
    public func allFrames() throws(WebImageError) -> [ImageFrame] {
        switch storage {
        case .decoded(let frames): frames
        case .lazy: try (0..<frameCount).map { index throws(WebImageError) in try frame(at: index) }
        }
    }

    /// Bytes of decoded pixels held for the frames.
    public var heldByteCount: Int {
        switch storage {
        case .decoded(let frames): frames.reduce(0) { $0 + $1.bitmap.byteCount }
        case .lazy(let provider): provider.heldByteCount
        }
    }
}
