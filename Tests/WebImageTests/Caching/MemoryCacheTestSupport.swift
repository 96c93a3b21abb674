@testable import WebImage

/// Helpers shared by the `MemoryCache` tests.
enum MemoryCacheFixture {
    /// A cache with the given limits; `fraction` 1 lets one entry use the whole cost limit.
    static func cache(costLimit: Int = 0, countLimit: Int = 0, fraction: Double = 1) -> MemoryCache {
        var config = ImageCacheConfig()
        config.maxMemoryCost = costLimit
        config.maxMemoryCount = countLimit
        config.maxMemoryEntryFraction = fraction
        return MemoryCache(config: config)
    }

    /// A small image whose width tags it, so a test can tell which image came back.
    static func image(tag: Int) -> Image {
        Image(bitmap: ImageBitmap(width: tag, height: 1, fill: .clear))
    }
}
