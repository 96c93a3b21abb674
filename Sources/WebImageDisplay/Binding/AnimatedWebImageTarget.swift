import Foundation
import WebImage

/// A target that plays animations instead of showing their first frame: SDWebImage's
/// `SDAnimatedImageView`, without UIKit.
///
/// When a load for the target ends with an animated image, the binding shows the image as for
/// any target (its first frame), then makes an ``AnimatedImagePlayer`` for it, starts it unless
/// ``autoPlaysAnimatedImages`` is false, and hands it to ``displayWebImagePlayer(_:url:)``.
/// Draw the frames from the player's ``AnimatedImagePlayer/frameChanges(bufferingPolicy:)``.
///
/// The binding keeps the player. A new load for the same operation key (changing the URL) and a
/// target that goes away stop it and let it go: its frame sequences end, its buffered frames are
/// released, and the target is told with `nil`.
public protocol AnimatedWebImageTarget: WebImageTarget {
    /// Receives the player of the animation just loaded, or nil once the previous player was
    /// stopped because a new load began. Called on the binding queue, after
    /// ``WebImageTarget/displayWebImage(_:cacheType:url:)`` showed the first frame.
    func displayWebImagePlayer(_ player: AnimatedImagePlayer?, url: URL?)

    /// How this target's players play (default: real time, the image's loop count, the default
    /// frame budget).
    var animatedImagePlayerConfiguration: AnimatedImagePlayer.Configuration { get }

    /// Whether the binding starts each player (default true; SDAnimatedImageView's
    /// `autoPlayAnimatedImage`). When false, call ``AnimatedImagePlayer/play()`` yourself.
    var autoPlaysAnimatedImages: Bool { get }
}

extension AnimatedWebImageTarget {
    public var animatedImagePlayerConfiguration: AnimatedImagePlayer.Configuration { .init() }
    public var autoPlaysAnimatedImages: Bool { true }

    /// The player of the animation this target shows for `key` (nil: the latest key used), if any.
    public func currentImagePlayer(forKey key: String? = nil) -> AnimatedImagePlayer? {
        let entry = WebImageTargetRegistry.shared.entry(of: self)
        guard let key = key ?? entry?.latestKey else { return nil }
        return entry?.keys[key]?.player
    }
}
