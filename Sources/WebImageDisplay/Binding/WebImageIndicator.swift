import Foundation
import WebImage

/// Shows that a target is loading (SDWebImage's `SDWebImageIndicator`): a spinner, a bar, a
/// terminal glyph. Set one with ``WebImageTarget/imageIndicator``. Called on the binding queue.
public protocol WebImageIndicator: AnyObject, Sendable {
    /// A load with a URL started.
    func startAnimating()
    /// The load ended, or the URL was nil.
    func stopAnimating()
    /// The load progressed (0...1). Optional.
    func updateProgress(_ fraction: Double)
}

extension WebImageIndicator {
    public func updateProgress(_ fraction: Double) {}
}

/// How a loaded image appears (SDWebImage's `SDWebImageTransition`), on a target with no
/// animation system of its own: hooks around the display.
///
/// Runs only for finished images from the network or an asynchronous disk query, or for any
/// finished image with `WebImageOptions/forceTransition`; never for memory hits otherwise,
/// and never for a load a newer one replaced. With `WebImageOptions/waitTransition` the
/// completion waits until ``animation`` calls its `done`.
public struct WebImageTransition: Sendable {
    /// Called on the binding queue with the target, the image, and a block to call when the
    /// effect ends.
    public typealias Animation =
        @Sendable (_ target: any WebImageTarget, _ image: Image?, _ done: @escaping @Sendable () -> Void) -> Void

    /// How long the effect should take; for the animation's use.
    public var duration: Duration
    /// Runs before the image is displayed.
    public var prepare:
        (@Sendable (_ target: any WebImageTarget, _ image: Image?, _ cacheType: ImageCacheType) -> Void)?
    /// Runs after the image is displayed; must call `done` once (nil: done at once).
    public var animation: Animation?
    /// Runs when the effect ended.
    public var completion: (@Sendable () -> Void)?
    /// Leave displaying the image to ``animation`` (SDWebImage's transition `avoidAutoSetImage`).
    public var avoidAutoSetImage: Bool

    public init(
        duration: Duration = .milliseconds(250),
        prepare: (@Sendable (_ target: any WebImageTarget, _ image: Image?, _ cacheType: ImageCacheType) -> Void)? =
            nil,
        animation: Animation? = nil, completion: (@Sendable () -> Void)? = nil, avoidAutoSetImage: Bool = false
    ) {
        self.duration = duration
        self.prepare = prepare
        self.animation = animation
        self.completion = completion
        self.avoidAutoSetImage = avoidAutoSetImage
    }
}
