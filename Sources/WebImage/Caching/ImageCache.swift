import Dispatch
import Foundation
import Synchronization

/// The default image cache (`SDImageCache`): decoded images in a ``MemoryCaching`` cache, encoded
/// bytes in a ``DiskCaching`` cache.
///
/// Memory lookups run synchronously on the caller. Everything that touches files (reads,
/// decodes of disk hits, writes, sweeps) runs on a private concurrent dispatch queue, never on
/// the caller's thread and never on Swift's cooperative pool, so blocking file I/O cannot starve
/// other tasks. Concurrent queries for the same key and decode options share one disk read and
/// one decode.
public final class ImageCache: ImageCaching {
    /// The settings this cache was made with.
    public let config: ImageCacheConfig
    /// Where decoded images are kept.
    public let memoryCache: any MemoryCaching
    /// Where encoded bytes are kept.
    public let diskCache: any DiskCaching

    /// Disk work runs here (see the type's documentation).
    let ioQueue = DispatchQueue(label: "swift-web-image.ImageCache.io", qos: .utility, attributes: .concurrent)
    /// Disk queries under way, keyed by what makes their results interchangeable.
    let inFlight = Locked(InFlightTable())
    private let pathProvider = Locked<(@Sendable (String) -> String?)?>(nil)

    /// A cache made of the given parts.
    public init(
        config: ImageCacheConfig = ImageCacheConfig(), memoryCache: any MemoryCaching, diskCache: any DiskCaching
    ) {
        self.config = config
        self.memoryCache = memoryCache
        self.diskCache = diskCache
    }

    /// An extra, read-only place to look on a disk miss (`additionalCachePathBlock`): given a
    /// key, the path of a file holding its bytes, or nil. Such hits carry no metadata and are
    /// never removed, even if they fail to decode.
    public var additionalCachePathProvider: (@Sendable (String) -> String?)? {
        get { pathProvider.withLock { $0 } }
        set { pathProvider.withLock { $0 = newValue } }
    }

    /// Where the disk entry for `key` lives, or nil for an empty key.
    public func cachePath(forKey key: String) -> String? {
        key.isEmpty ? nil : diskCache.cachePath(forKey: key)
    }

    /// Runs file work on ``ioQueue`` and waits for it without blocking the caller's thread.
    func offCaller<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            ioQueue.async {
                continuation.resume(with: Result { try work() })
            }
        }
    }

    /// As ``offCaller(_:)`` for work that cannot fail.
    func offCaller<T: Sendable>(_ work: @escaping @Sendable () -> T) async -> T {
        await withCheckedContinuation { continuation in
            ioQueue.async {
                continuation.resume(returning: work())
            }
        }
    }
}
