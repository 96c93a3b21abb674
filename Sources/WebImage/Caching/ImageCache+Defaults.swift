import Foundation

extension ImageCache {
    /// A cache with a ``MemoryCache`` and a ``DiskCache`` in `directory`, by default
    /// ``DiskCache/defaultDirectory(namespace:)`` (`$XDG_CACHE_HOME/swift-web-image/<namespace>`).
    /// - Throws: ``WebImageError/diskCacheFailure(_:underlying:)`` if the directory cannot be created.
    public convenience init(
        namespace: String = "default", directory: URL? = nil, config: ImageCacheConfig = ImageCacheConfig()
    ) throws {
        let diskCache = try DiskCache(
            directory: directory ?? DiskCache.defaultDirectory(namespace: namespace), config: config)
        self.init(config: config, memoryCache: MemoryCache(config: config), diskCache: diskCache)
    }

    /// The cache of namespace "default" (`SDImageCache.sharedImageCache`).
    ///
    /// If its directory cannot be created (no home directory, a read-only or full file system),
    /// the shared cache still works from memory: its disk part then misses every read, and every
    /// disk write throws ``WebImageError/diskCacheFailure(_:underlying:)`` naming the directory and the
    /// reason. First use never crashes.
    public static let shared: ImageCache = makeShared(directory: DiskCache.defaultDirectory(namespace: "default"))

    static func makeShared(directory: URL, config: ImageCacheConfig = ImageCacheConfig()) -> ImageCache {
        let diskCache: any DiskCaching
        do {
            diskCache = try DiskCache(directory: directory, config: config)
        } catch {
            diskCache = UnavailableDiskCache(directory: directory, reason: "\(error)")
        }
        return ImageCache(config: config, memoryCache: MemoryCache(config: config), diskCache: diskCache)
    }
}
