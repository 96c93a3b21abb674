import Dispatch
import Foundation

@testable import WebImage

/// A dictionary-backed memory cache that counts lookups.
final class FakeMemoryCache: MemoryCaching {
    struct State {
        var images: [String: (image: Image, cost: Int)] = [:]
        var lookups = 0
    }
    let state = Locked(State())

    func image(forKey key: String) -> Image? {
        state.withLock { state in
            state.lookups += 1
            return state.images[key]?.image
        }
    }
    func setImage(_ image: Image, forKey key: String, cost: Int) {
        state.withLock { $0.images[key] = (image, cost) }
    }
    func removeImage(forKey key: String) { state.withLock { _ = $0.images.removeValue(forKey: key) } }
    func removeAllImages() { state.withLock { $0.images.removeAll() } }
    var totalCost: Int { state.withLock { $0.images.values.reduce(0) { $0 + $1.cost } } }
    var count: Int { state.withLock { $0.images.count } }
    var keys: Set<String> { state.withLock { Set($0.images.keys) } }
}

/// A dictionary-backed disk cache that counts reads, can fail writes, and can hold every read
/// until ``release()`` (to pin queries in flight).
final class FakeDiskCache: DiskCaching {
    struct State {
        var entries: [String: DiskCacheEntry] = [:]
        var reads = 0
        var failWrites = false
        /// Successful `setData` calls.
        var writes = 0
        var expired: Set<String> = []
    }
    let state = Locked(State())
    /// Signalled once per waiting read by ``release()``; nil = reads never wait.
    private let gate: DispatchSemaphore?
    private let waiting = Locked(0)

    init(holdingReads: Bool = false) {
        gate = holdingReads ? DispatchSemaphore(value: 0) : nil
    }

    /// Lets every read through from now on.
    func release() {
        // Enough permits for any test's readers.
        for _ in 0..<1000 { gate?.signal() }
    }

    var reads: Int { state.withLock { $0.reads } }
    var heldReads: Int { waiting.withLock { $0 } }

    func containsData(forKey key: String) -> Bool { state.withLock { $0.entries[key] != nil } }
    func data(forKey key: String) -> Data? { entry(forKey: key)?.data }
    func entry(forKey key: String) -> DiskCacheEntry? {
        state.withLock { $0.reads += 1 }
        if let gate {
            waiting.withLock { $0 += 1 }
            gate.wait()
        }
        return state.withLock { $0.entries[key] }
    }
    func setData(_ data: Data, forKey key: String, metadata: DiskCacheMetadata?) throws(WebImageError) {
        try state.withLock { state throws(WebImageError) in
            if state.failWrites { throw .diskCacheFailure("the fake disk is full") }
            state.entries[key] = DiskCacheEntry(data: data, metadata: metadata ?? DiskCacheMetadata())
            state.writes += 1
        }
    }
    func extendedData(forKey key: String) -> Data? { state.withLock { $0.entries[key]?.metadata.extendedData } }
    func setExtendedData(_ extendedData: Data?, forKey key: String) throws(WebImageError) {
        state.withLock { $0.entries[key]?.metadata.extendedData = extendedData }
    }
    func removeData(forKey key: String) { state.withLock { _ = $0.entries.removeValue(forKey: key) } }
    func removeAllData() throws(WebImageError) { state.withLock { $0.entries.removeAll() } }
    func removeExpiredData() throws(WebImageError) {
        state.withLock { state in
            for key in state.expired { state.entries.removeValue(forKey: key) }
        }
    }
    func cachePath(forKey key: String) -> String { "/fake-disk/\(key.utf8.count)" }
    var totalCount: Int { state.withLock { $0.entries.count } }
    var totalSize: Int { state.withLock { $0.entries.values.reduce(0) { $0 + $1.data.count } } }
    func storedData(forKey key: String) -> Data? { state.withLock { $0.entries[key]?.data } }
}

/// The shared registry, counting decodes and encodes.
final class CountingCoder: ImageCoding {
    private let counts = Locked((decodes: 0, encodes: 0, lastFormat: ImageFormat.undefined))
    var decodes: Int { counts.withLock { $0.decodes } }
    var encodes: Int { counts.withLock { $0.encodes } }
    var lastEncodedFormat: ImageFormat { counts.withLock { $0.lastFormat } }

    func canDecode(_ data: Data) -> Bool { ImageCodersManager.shared.canDecode(data) }
    func imageInfo(for data: Data) throws(WebImageError) -> ImageInfo {
        try ImageCodersManager.shared.imageInfo(for: data)
    }
    func decode(_ data: Data, options: ImageDecodeOptions) throws(WebImageError) -> Image {
        counts.withLock { $0.decodes += 1 }
        return try ImageCodersManager.shared.decode(data, options: options)
    }
    func canEncode(to format: ImageFormat) -> Bool { ImageCodersManager.shared.canEncode(to: format) }
    func encode(_ image: Image, as format: ImageFormat, options: ImageEncodeOptions) throws(WebImageError) -> Data {
        counts.withLock {
            $0.encodes += 1
            $0.lastFormat = format
        }
        return try ImageCodersManager.shared.encode(image, as: format, options: options)
    }
}

/// Small images and caches for the cache tests.
enum CacheFixtures {
    static func makeCache(
        holdingReads: Bool = false, config: ImageCacheConfig = ImageCacheConfig()
    ) -> (ImageCache, FakeMemoryCache, FakeDiskCache) {
        let memory = FakeMemoryCache()
        let disk = FakeDiskCache(holdingReads: holdingReads)
        return (ImageCache(config: config, memoryCache: memory, diskCache: disk), memory, disk)
    }

    static func opaqueImage(width: Int = 8, height: Int = 6) -> Image {
        Image(bitmap: ImageBitmap(width: width, height: height, fill: RGBA8(r: 200, g: 40, b: 10)), hasAlpha: false)
    }

    static func alphaImage() -> Image {
        Image(bitmap: ImageBitmap(width: 4, height: 4, fill: RGBA8(r: 0, g: 0, b: 255, a: 128)), hasAlpha: true)
    }

    static func animatedImage() -> Image {
        let frames = [RGBA8.white, RGBA8.black, RGBA8(r: 255, g: 0, b: 0)].map {
            ImageFrame(bitmap: ImageBitmap(width: 5, height: 5, fill: $0), duration: 0.1)
        }
        return Image(
            bitmap: frames[0].bitmap, animation: ImageAnimation(frames: frames, loopCount: 0), hasAlpha: false)
    }

    /// PNG bytes of an opaque 8×6 image.
    static func pngData(width: Int = 8, height: Int = 6) throws -> Data {
        try ImageCodersManager.shared.encode(opaqueImage(width: width, height: height), as: .png, options: .init())
    }
}
