import Foundation
import WebImage

/// Anything that shows an image — a GTK widget wrapper, a terminal cell, a server-side
/// renderer's slot, a test double: the view-agnostic `UIView+WebCache`.
///
/// Adopt it by implementing ``displayWebImage(_:cacheType:url:)``; ``setImage(with:placeholder:options:context:progress:completed:)-(URL?,_,_,_,_,_)``
/// and the rest come with it. Per target and operation key (the context's
/// `WebImageContext/setImageOperationKey`, else the type's name) a new load cancels the
/// previous one, records its ``WebImageLoadState``, shows the placeholder first and the image
/// when it arrives.
///
/// **Where the image is set.** Every call into the target and into your blocks — display,
/// indicator, transition, progress and completion — runs on one `DispatchQueue`: the context's
/// `WebImageContext/callbackQueue` if given, else the target's ``imageCallbackQueue``
/// (default ``WebImageBinding/defaultQueue``, a serial queue that needs no run loop). Give a
/// **serial** queue and keep it per target: that is what guarantees an older load's image never
/// replaces a newer one's. A GTK or other main-loop UI returns a queue that its main thread
/// drains (`DispatchQueue.main` under `dispatchMain()` or an async `main`), or hops itself.
///
/// The binding holds targets weakly: a target that goes away has its loads cancelled, and no
/// callback reaches it or your blocks afterwards.
public protocol WebImageTarget: AnyObject, Sendable {
    /// Shows `image` (nil: show nothing). Called on the binding queue for the placeholder, for
    /// partial and final images, and by transitions.
    func displayWebImage(_ image: Image?, cacheType: ImageCacheType, url: URL?)

    /// The manager this target loads through (default `ImageManager/shared`).
    var imageManager: ImageManager { get }

    /// The queue display and blocks run on when the context names none (default
    /// ``WebImageBinding/defaultQueue``). Must be serial.
    var imageCallbackQueue: DispatchQueue { get }
}

extension WebImageTarget {
    public var imageManager: ImageManager { .shared }
    public var imageCallbackQueue: DispatchQueue { WebImageBinding.defaultQueue }
}

/// The completion of a target's load (SDWebImage's `SDExternalCompletionBlock`): image, error,
/// cache type, URL. Runs once when the load ends; with `WebImageOptions/avoidAutoSetImage`
/// also for each partial image (`image.isIncremental`). A load replaced by a newer one for the
/// same key ends with `WebImageError/cancelled`.
public typealias WebImageTargetCompletion =
    @Sendable (_ image: Image?, _ error: WebImageError?, _ cacheType: ImageCacheType, _ url: URL?) -> Void

/// The binding layer's shared pieces.
public enum WebImageBinding {
    /// The serial queue targets are updated on unless they or the context name another.
    public static let defaultQueue = DispatchQueue(label: "swift-web-image.binding")
}

/// Progress of a target's load for one key (SDWebImage's `SDWebImageLoadState`).
public struct WebImageLoadState: Sendable, Equatable {
    /// The URL being loaded (nil for a nil URL).
    public var url: URL?
    /// Bytes received so far.
    public var receivedSize: Int
    /// Bytes expected; -1 when unknown, 0 before the response.
    public var expectedSize: Int
    /// Whether the load ended (successfully or not).
    public var isFinished: Bool

    public init(url: URL?, receivedSize: Int = 0, expectedSize: Int = 0, isFinished: Bool = false) {
        self.url = url
        self.receivedSize = receivedSize
        self.expectedSize = expectedSize
        self.isFinished = isFinished
    }

    /// Received over expected, in 0...1; 0 while unknown. A load that ended without any
    /// progress report counts 1 of 1, as SDWebImage's `SDWebImageProgressUnitCountUnknown`.
    public var fractionCompleted: Double {
        guard expectedSize > 0 else { return 0 }
        return min(max(Double(receivedSize) / Double(expectedSize), 0), 1)
    }
}
