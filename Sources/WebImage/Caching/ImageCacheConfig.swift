import Foundation

/// Which file date ages a disk-cache entry (`SDImageCacheConfigExpireType`).
public enum DiskCacheExpireType: Sendable {
    /// Last read (SDWebImage's default in code, despite its header saying modification).
    case accessDate
    case modificationDate
    case creationDate
    case changeDate
}

/// Settings of an ``ImageCache`` (`SDImageCacheConfig`). Defaults follow SDWebImage except where
/// a doc comment says why not.
public struct ImageCacheConfig: Sendable {
    /// The folder whose namespace subfolders hold the disk caches made after it is set
    /// (SDWebImage's `SDImageCacheConfig.defaultDiskCacheDirectory`): ``ImageCache/init(namespace:directory:config:)``
    /// without a directory, and ``ImageCache/shared`` if set before its first use. Nil (the
    /// default) means `$XDG_CACHE_HOME/swift-web-image`, else `~/.cache/swift-web-image`. Caches
    /// already open keep their folder.
    public static var defaultDiskCacheDirectory: URL? {
        get { defaultDirectory.withLock { $0 } }
        set { defaultDirectory.withLock { $0 = newValue?.standardizedFileURL } }
    }
    private static let defaultDirectory = Locked<URL?>(nil)

    /// Keep decoded images in memory (default true).
    public var shouldCacheImagesInMemory = true
    /// Age limit in seconds (default one week); negative never expires, 0 expires everything at
    /// the next sweep.
    public var maxDiskAge: TimeInterval = 604_800
    /// Byte limit on disk; 0 = unlimited (SDWebImage's default). Enforced on every store (trim
    /// oldest-first to half the limit), not only on sweeps.
    public var maxDiskSize = 0
    /// Byte limit of the memory cache: decoded images, their keys and bookkeeping
    /// (``MemoryCache/cost(of:forKey:)``). **Differs from SDWebImage** (0 = unlimited, left to
    /// NSCache): Linux has no memory-warning signal to purge on, so the default is a bounded
    /// share of physical memory — see ``defaultMaxMemoryCost``.
    public var maxMemoryCost = ImageCacheConfig.defaultMaxMemoryCost
    /// Count limit in memory; 0 = unlimited.
    public var maxMemoryCount = 0
    /// Images costing more than this fraction of ``maxMemoryCost`` are not kept in memory (one huge
    /// image should not flush everything else).
    public var maxMemoryEntryFraction = 0.1
    /// Which date ages disk entries (default access date, as SDWebImage's code).
    public var diskCacheExpireType: DiskCacheExpireType = .accessDate

    public init() {}

    /// 20 % of physical memory, capped at 512 MiB.
    public static var defaultMaxMemoryCost: Int {
        let share = Int(ProcessInfo.processInfo.physicalMemory / 5)
        return min(share, 512 << 20)
    }
}
