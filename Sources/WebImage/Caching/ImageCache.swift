import Foundation

/// The default image cache (`SDImageCache`): decoded images in a ``MemoryCaching`` cache, encoded
/// bytes in a ``DiskCaching`` cache.
///
/// Memory lookups run synchronously on the caller. Nothing that may wait for the disk runs on
/// the caller's thread or Swift's cooperative pool: writes, sweeps and reads of cold files run on
/// the library's file threads, a fixed set of four, and decodes on its CPU threads. A disk hit
/// whose bytes the page cache holds is read and decoded in one hop on a CPU thread (the read
/// cannot wait: `preadv2` with `RWF_NOWAIT`). Concurrent queries for the same key and decode
/// options share one disk read and one decode.
public final class ImageCache: ImageCaching {
    /// The settings this cache was made with.
    public let config: ImageCacheConfig
    /// Where decoded images are kept.
    public let memoryCache: any MemoryCaching
    /// Where encoded bytes are kept.
    public let diskCache: any DiskCaching

    /// Where file work runs.
    let io = FileIOExecutor.shared
    /// Disk reads under way, shared by queries whose results are interchangeable.
    let diskReads = InFlightTable<DiskReadKey, DiskRead, Never, WebImageError>()
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

    // MARK: Query

    /// Looks for `key` in memory, then on disk, as `cacheType` allows (`queryCacheOperationForKey`).
    ///
    /// - A memory hit is found synchronously on the caller, with no hop to another executor.
    ///   With ``WebImageOptions/decodeFirstFrameOnly`` an animation comes back as its first
    ///   frame; with ``WebImageOptions/queryMemoryData`` the bytes are read from disk too.
    /// - The disk is read and decoded off the caller (see the type's discussion); concurrent
    ///   queries for the same key and decode options share that work. Bytes that fail to decode
    ///   are removed and the query misses.
    /// - When the context asks for a thumbnail of a full-size key, the thumbnail is looked up
    ///   and kept in memory under the thumbnail key (``CacheKeys/thumbnailed(_:size:preserveAspectRatio:)``),
    ///   and a thumbnail result carries no data. A disk hit is copied to memory only if the
    ///   context's `storeCacheType` (default `.all`) includes memory.
    ///
    /// An empty key or a `cacheType` of `.none` misses. Throws ``WebImageError/cancelled`` if
    /// the task is cancelled while the disk is read.
    nonisolated(nonsending) public func queryImage(
        forKey key: String, options: WebImageOptions = [], context: WebImageContext? = nil,
        cacheType: ImageCacheType = .all
    ) async throws(WebImageError) -> ImageCacheQueryResult {
        guard !key.isEmpty, cacheType != .none else { return .miss }
        if Task.isCancelled { throw .cancelled }
        let memoryKey = Self.memoryKey(forKey: key, context: context)
        if cacheType != .disk, let image = memoryHit(forKey: memoryKey, options: options) {
            // As SDWebImage: a memory-only query never reads the disk, even for queryMemoryData.
            guard options.contains(.queryMemoryData), cacheType != .memory else {
                return ImageCacheQueryResult(image: image, cacheType: .memory)
            }
            let diskCache = self.diskCache
            let entry = await io.run { diskCache.entry(forKey: key) }
            if Task.isCancelled { throw .cancelled }
            return ImageCacheQueryResult(
                image: image, data: image.isThumbnail ? nil : entry?.data, cacheType: .memory, metadata: entry?.metadata
            )
        }
        guard cacheType.includesDisk else { return .miss }
        let decodeOptions = ImageDecodeOptions(context: context, options: options, cacheKey: key)
        let read = try await readFromDisk(forKey: key, options: decodeOptions, coder: context?.imageCoder)
        guard let image = read.image else { return .miss }
        if (context?.storeCacheType ?? .all).includesMemory {
            storeImageToMemory(image, forKey: memoryKey)
        }
        return ImageCacheQueryResult(
            image: image, data: image.isThumbnail ? nil : read.data, cacheType: .disk, metadata: read.metadata)
    }

    /// The memory hit for `memoryKey`, shaped by the options.
    func memoryHit(forKey memoryKey: String, options: WebImageOptions) -> Image? {
        guard let image = memoryCache.image(forKey: memoryKey) else { return nil }
        return options.contains(.decodeFirstFrameOnly) ? Self.firstFrame(of: image) : image
    }

    // MARK: Memory

    /// The image in memory for `key`, or nil. Synchronous and cheap: no I/O, no decode.
    public func imageFromMemoryCache(forKey key: String) -> Image? {
        key.isEmpty ? nil : memoryCache.image(forKey: key)
    }

    /// Keeps `image` in memory under `key` at what the entry really takes,
    /// ``MemoryCache/cost(of:forKey:)`` (nothing when the config turns memory caching off or the
    /// key is empty).
    public func storeImageToMemory(_ image: Image, forKey key: String) {
        guard config.shouldCacheImagesInMemory, !key.isEmpty else { return }
        memoryCache.setImage(image, forKey: key, cost: MemoryCache.cost(of: image, forKey: key))
    }

    /// Empties the memory cache; the disk is untouched.
    public func clearMemory() {
        memoryCache.removeAllImages()
    }

    /// The key a decoded image lives under in memory. SDWebImage 5's rule: an image decoded as a
    /// thumbnail from full-size bytes belongs under the thumbnail key, never under the full key
    /// (that would hand a small image to someone asking for the full one).
    static func memoryKey(forKey key: String, context: WebImageContext?) -> String {
        guard let size = context?.imageThumbnailPixelSize, size.width > 0 || size.height > 0 else { return key }
        let preserve = context?.imagePreserveAspectRatio ?? true
        let transformerKey = CacheKeys.thumbnailTransformerKey(size, preserveAspectRatio: preserve)
        // A key that already names this thumbnail is the thumbnail key.
        if key.contains(transformerKey) { return key }
        return CacheKeys.thumbnailed(key, size: size, preserveAspectRatio: preserve)
    }

    /// `image` reduced to its first frame, as a still (``WebImageOptions/decodeFirstFrameOnly``
    /// on a memory hit).
    static func firstFrame(of image: Image) -> Image {
        guard image.animation != nil else { return image }
        var still = image
        still.animation = nil
        return still
    }

    // MARK: Disk reads

    /// Reads and decodes `key` from disk. Queries for the same key, decode options and coder
    /// share one read and one decode (Kingfisher #966 read the same file once per caller); a
    /// coder that is a value (whose identity cannot be compared) reads on its own.
    func readFromDisk(forKey key: String, options: ImageDecodeOptions, coder: (any ImageCoding)?)
        async throws(WebImageError) -> DiskRead
    {
        let decoder: any ImageCoding = coder ?? ImageCodersManager.shared
        guard let readKey = DiskReadKey(key: key, options: options, coder: coder) else {
            let read = await withCheckedContinuation { continuation in
                readAndDecode(key, options: options, decoder: decoder, isWanted: { true }) {
                    continuation.resume(returning: $0)
                }
            }
            if Task.isCancelled { throw .cancelled }
            return read
        }
        if Task.isCancelled { throw .cancelled }
        // The read and the decode complete the shared work from their threads: no task of its
        // own, and no hop back before the subscribers resume.
        return try await diskReads.subscribe(readKey, priority: Task.currentPriority) { [self] work in
            readAndDecode(key, options: options, decoder: decoder, isWanted: { !work.isAbandoned }) {
                work.complete(.success($0))
            }
        }.value()
    }

    /// Reads `key` and decodes it, then calls `done` on the thread that decoded. A hit the page
    /// cache holds whole is read and decoded in one hop, on a CPU thread (the read is a copy from
    /// memory); anything that may wait for the disk (a cold file, a custom ``DiskCaching``, the
    /// additional path) is read on the file threads first and decoded on a CPU thread after.
    /// Once `isWanted` says nobody waits any more, the work stops and answers a miss.
    private func readAndDecode(
        _ key: String, options: ImageDecodeOptions, decoder: any ImageCoding,
        isWanted: @escaping @Sendable () -> Bool, done: @escaping @Sendable (DiskRead) -> Void
    ) {
        ThreadPoolExecutor.cpu.execute { [self] in
            guard isWanted() else { return done(.miss) }
            if case .read(let bytes) = readResidentBytes(forKey: key) {
                return done(decode(bytes, forKey: key, options: options, decoder: decoder))
            }
            io.enqueue { [self] in
                guard let bytes = readBytes(forKey: key, isWanted: isWanted) else { return done(.miss) }
                ThreadPoolExecutor.cpu.execute { [self] in
                    guard isWanted() else { return done(.miss) }
                    done(decode(bytes, forKey: key, options: options, decoder: decoder))
                }
            }
        }
    }

    /// What a read that cannot wait for the disk found.
    private enum ResidentRead {
        /// The bytes of the entry, or nil for a miss.
        case read(DiskBytes?)
        /// The read may wait for the disk: it belongs on the file threads.
        case mustWait
    }

    /// Reads `key` from the default disk cache if its bytes are all in the page cache.
    private func readResidentBytes(forKey key: String) -> ResidentRead {
        guard let diskCache = diskCache as? DiskCache else { return .mustWait }
        switch diskCache.residentEntry(forKey: key) {
        case .entry(let entry):
            return .read(
                entry.data.isEmpty ? nil : DiskBytes(data: entry.data, metadata: entry.metadata, fromDiskCache: true))
        case .none:
            // The additional path is a file of the caller's: it may be cold.
            return additionalCachePathProvider == nil ? .read(nil) : .mustWait
        case .notResident:
            return .mustWait
        }
    }

    /// What a disk read found for a key, before it is decoded.
    struct DiskBytes: Sendable {
        let data: Data
        let metadata: DiskCacheMetadata?
        /// From the disk cache (not the additional path): a corrupt one is removed.
        let fromDiskCache: Bool
    }

    /// Reads `key` from the disk cache, else from the additional path, unless `isWanted` says
    /// nobody waits any more; nil for nothing (or nothing wanted).
    func readBytes(forKey key: String, isWanted: () -> Bool) -> DiskBytes? {
        guard isWanted() else { return nil }
        if let entry = diskCache.entry(forKey: key) {
            return entry.data.isEmpty ? nil : DiskBytes(data: entry.data, metadata: entry.metadata, fromDiskCache: true)
        }
        guard let path = additionalCachePathProvider?(key), !path.isEmpty, !path.contains("\0"),
            let data = try? Data(contentsOf: URL(fileURLWithPath: path)), !data.isEmpty
        else { return nil }
        return DiskBytes(data: data, metadata: nil, fromDiskCache: false)
    }

    /// Decodes what ``readBytes(forKey:isWanted:)`` found. Bytes from the disk cache that are
    /// bad image data are removed (on the file threads): a corrupt entry must not keep failing
    /// (or be served) on every later query. Other decode failures only miss.
    func decode(_ bytes: DiskBytes?, forKey key: String, options: ImageDecodeOptions, decoder: any ImageCoding)
        -> DiskRead
    {
        guard let bytes else { return .miss }
        do throws(WebImageError) {
            return DiskRead(
                image: try decoder.decode(bytes.data, options: options), data: bytes.data, metadata: bytes.metadata)
        } catch {
            if error.code == .badImageData, bytes.fromDiskCache {
                io.enqueue { [diskCache] in diskCache.removeData(forKey: key) }
            }
            // Anything else is not corruption: this request's limits (imageTooLarge) or its coder
            // (unsupportedFormat) cannot take the bytes, but other requests can. Keep the entry.
            return .miss
        }
    }

    // MARK: Store

    /// Stores `image` in memory and its bytes on disk, as `cacheType` allows (`storeImage`).
    ///
    /// Memory keeps `image` (cost ``MemoryCache/cost(of:forKey:)``) when the config allows. The disk keeps
    /// `data`, or, without data, `image` encoded in SDWebImage's format (its own format if
    /// known, GIF for animations, PNG with alpha, JPEG otherwise) by the context's coder or the
    /// shared registry, with the context's encode options. Encoding and writing run on the file
    /// threads. With neither image nor data, or an empty key, nothing happens.
    /// Throws the encoder's error, or ``WebImageError/Code/diskCacheFailure`` when the write fails.
    public func store(
        _ image: Image?, data: Data? = nil, metadata: DiskCacheMetadata? = nil, forKey key: String,
        options: WebImageOptions = [], context: WebImageContext? = nil, cacheType: ImageCacheType = .all
    ) async throws(WebImageError) {
        guard !key.isEmpty, image != nil || data != nil else { return }
        if cacheType.includesMemory, let image {
            storeImageToMemory(image, forKey: key)
        }
        guard cacheType.includesDisk else { return }
        let coder = context?.imageCoder
        let encodeOptions = context?.imageEncodeOptions ?? ImageEncodeOptions()
        // With bytes to write, the queued work must not keep the decoded image alive.
        let imageToEncode = data == nil ? image : nil
        try await io.run { [self] () throws(WebImageError) in
            let bytes: Data
            if let data {
                bytes = data
            } else if let imageToEncode {
                bytes = try Self.encodeForDisk(imageToEncode, coder: coder, options: encodeOptions)
            } else {
                return
            }
            try storeImageDataToDisk(bytes, forKey: key, metadata: metadata)
        }
    }

    /// Writes `data` to disk under `key`, synchronously on the caller; memory is untouched
    /// (`storeImageDataToDisk`). An empty key is a no-op.
    /// Throws ``WebImageError/Code/diskCacheFailure`` when the write fails.
    public func storeImageDataToDisk(_ data: Data, forKey key: String, metadata: DiskCacheMetadata? = nil)
        throws(WebImageError)
    {
        guard !key.isEmpty else { return }
        try diskCache.setData(data, forKey: key, metadata: metadata)
    }

    /// Queues a write of `data` under `key` on the file threads and returns at once; `onFailure`
    /// gets the error if the write fails. For stores nobody waits for.
    func storeImageDataToDiskInBackground(
        _ data: Data, forKey key: String, metadata: DiskCacheMetadata?,
        onFailure: @escaping @Sendable (WebImageError) -> Void
    ) {
        io.enqueue { [self] in
            do throws(WebImageError) {
                try storeImageDataToDisk(data, forKey: key, metadata: metadata)
            } catch {
                onFailure(error)
            }
        }
    }

    /// SDWebImage's choice of bytes for an image stored without data.
    static func encodeForDisk(_ image: Image, coder: (any ImageCoding)?, options: ImageEncodeOptions)
        throws(WebImageError) -> Data
    {
        let format = ImageCodersManager.defaultEncodingFormat(for: image)
        let encoder: any ImageCoding = coder ?? ImageCodersManager.shared
        return try encoder.encode(image, as: format, options: options)
    }
}

/// What a disk read produced: the decoded image (nil on a miss), the bytes and their metadata.
struct DiskRead: Sendable {
    var image: Image?
    var data: Data?
    var metadata: DiskCacheMetadata?

    static let miss = DiskRead()
}

/// What makes two disk reads interchangeable: the same key, decode options and coder object.
/// Hashing leaves the options out (they are only `Equatable`); equality checks them.
struct DiskReadKey: Hashable, Sendable {
    let key: String
    let options: ImageDecodeOptions
    /// The context's coder object, or nil for the shared registry.
    let coder: ObjectIdentifier?

    /// Nil for a coder that is a value: its identity cannot be compared, so it never shares.
    init?(key: String, options: ImageDecodeOptions, coder: (any ImageCoding)?) {
        if let coder {
            guard let identity = ObjectIdentifier(instance: coder) else { return nil }
            self.coder = identity
        } else {
            self.coder = nil
        }
        self.key = key
        self.options = options
    }

    static func == (lhs: DiskReadKey, rhs: DiskReadKey) -> Bool {
        lhs.key == rhs.key && lhs.coder == rhs.coder && lhs.options == rhs.options
    }

    func hash(into hasher: inout Hasher) {
        hasher.combine(key)
        hasher.combine(coder)
    }
}

/// Where a cache operation looks or writes (`SDImageCacheType`, same raw values).
public enum ImageCacheType: Int, Sendable, Codable, CaseIterable {
    /// Nowhere: a query skips the cache, a store keeps nothing.
    case none = 0
    case disk = 1
    case memory = 2
    /// Memory and disk.
    case all = 3

    public var includesMemory: Bool { self == .memory || self == .all }
    public var includesDisk: Bool { self == .disk || self == .all }

    /// The places both this and `other` name (`.all` restricted to `.memory` is `.memory`).
    func restricted(to other: ImageCacheType) -> ImageCacheType {
        ImageCacheType(rawValue: rawValue & other.rawValue) ?? .none
    }
}

/// SDWebImage's cache-key formats, so keys match its documented examples.
public enum CacheKeys {
    /// The transformer key of a thumbnail decode: `Thumbnail({%f,%f},%d)`, for example
    /// `Thumbnail({100.000000,100.000000},1)` (`SDThumbnailedKeyForKey`).
    public static func thumbnailTransformerKey(_ size: PixelSize, preserveAspectRatio: Bool) -> String {
        String(
            format: "Thumbnail({%f,%f},%d)", Double(size.width), Double(size.height), preserveAspectRatio ? 1 : 0)
    }

    /// `key` for a thumbnail of `size` (`SDThumbnailedKeyForKey`).
    public static func thumbnailed(_ key: String, size: PixelSize, preserveAspectRatio: Bool) -> String {
        transformed(key, transformerKey: thumbnailTransformerKey(size, preserveAspectRatio: preserveAspectRatio))
    }

    /// `key` with a transformer key inserted before its path extension (`SDTransformedKeyForKey`):
    /// `image.png` → `image-T.png`, `image` → `image-T`,
    /// `http://foo/image.png?foo=bar#mark` → `http://foo/image-T.png?foo=bar#mark`.
    public static func transformed(_ key: String, transformerKey: String) -> String {
        if let url = URL(string: key), let scheme = url.scheme, scheme.lowercased() != "file", url.host != nil {
            // Rewrite only the path; the query and fragment stay as they are. (Plain string work:
            // transformer keys hold characters such as `{` that URL components refuse.)
            let ext = url.pathExtension
            let cut = key.firstIndex { $0 == "?" || $0 == "#" } ?? key.endIndex
            let head = key[..<cut]
            guard !ext.isEmpty, head.hasSuffix("." + ext) else { return "\(key)-\(transformerKey)" }
            return "\(head.dropLast(ext.count + 1))-\(transformerKey).\(ext)\(key[cut...])"
        }
        let ext = (key as NSString).pathExtension
        guard !ext.isEmpty else { return "\(key)-\(transformerKey)" }
        return "\(key.dropLast(ext.count + 1))-\(transformerKey).\(ext)"
    }

    /// The scale SDWebImage reads from a key: `@2x.`/`@3x.` (and `%402x.`/`%403x.` in http keys)
    /// give 2 or 3; keys shorter than 8 characters and all others give 1.
    public static func scaleFactor(forKey key: String) -> Double {
        let bytes = key.utf8
        guard key.count >= 8 else { return 1 }
        // Byte scans: this runs for every request, and Foundation's `contains` goes through NSString.
        if bytes.containsASCII("@2x.") { return 2 }
        if bytes.containsASCII("@3x.") { return 3 }
        if bytes.startsWithASCIICaseInsensitive("http") {
            if bytes.containsASCII("%402x.", caseInsensitive: true) { return 2 }
            if bytes.containsASCII("%403x.", caseInsensitive: true) { return 3 }
        }
        return 1
    }

    /// The path extension SDWebImage uses as a type hint: the URL's path extension (query and
    /// fragment ignored), else the string's.
    static func pathExtension(forKey key: String) -> String {
        // Several times per load (decode options, file names): skip Foundation's URL parser
        // for the plain http(s) keys that make up nearly all of them.
        if let ext = plainHTTPPathExtension(key) { return ext }
        if let url = URL(string: key), url.scheme != nil {
            return url.pathExtension
        }
        return (key as NSString).pathExtension
    }
}

extension CacheKeys {
    /// `URL(string: key)?.pathExtension` for a lowercase `http://` or `https://` key that is
    /// plainly valid by RFC 3986 (a host name or IPv4 address with an optional port, then only
    /// unescaped path, query and fragment characters); nil for any other key.
    static func plainHTTPPathExtension(_ key: String) -> String? {
        var key = key
        return key.withUTF8 { bytes -> String? in
            var index: Int
            if bytes.starts(with: "https://".utf8) {
                index = 8
            } else if bytes.starts(with: "http://".utf8) {
                index = 7
            } else {
                return nil
            }
            guard let pathStart = skipHostAndPort(bytes, from: index) else { return nil }
            index = pathStart
            while index < bytes.count, isPathByte(bytes[index]) { index += 1 }
            let pathEnd = index
            // The query, then the fragment: path characters plus `/` and `?`, one `#` at most.
            var sawFragment = false
            while index < bytes.count {
                let byte = bytes[index]
                if byte == UInt8(ascii: "#"), !sawFragment {
                    sawFragment = true
                } else if byte != UInt8(ascii: "?"), !isPathByte(byte) {
                    return nil
                }
                index += 1
            }
            return lastExtension(bytes[pathStart..<pathEnd])
        }
    }

    /// The index after `host[:port]` starting at `start` (host letters, digits, `-` and `.`,
    /// port digits), if what follows is the end, `/`, `?` or `#`.
    private static func skipHostAndPort(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int? {
        var index = start
        while index < bytes.count, isHostByte(bytes[index]) { index += 1 }
        guard index > start else { return nil }
        if index < bytes.count, bytes[index] == UInt8(ascii: ":") {
            index += 1
            let portStart = index
            while index < bytes.count, bytes[index] >= 0x30, bytes[index] <= 0x39 { index += 1 }
            guard index > portStart, index - portStart <= 5 else { return nil }
        }
        guard index < bytes.count else { return index }
        switch bytes[index] {
        case UInt8(ascii: "/"), UInt8(ascii: "?"), UInt8(ascii: "#"): return index
        default: return nil
        }
    }

    /// The extension of a path's last component (trailing slashes ignored), as Foundation's:
    /// empty for none or when the component ends with a dot. Nil for a component that starts
    /// with a dot, where Foundation's rules are its own (`.jpg` and `..a` have none, `....a` has `a`).
    private static func lastExtension(_ path: Slice<UnsafeBufferPointer<UInt8>>) -> String? {
        var end = path.endIndex
        while end > path.startIndex, path[end - 1] == UInt8(ascii: "/") { end -= 1 }
        var start = end
        while start > path.startIndex, path[start - 1] != UInt8(ascii: "/") { start -= 1 }
        guard start == end || path[start] != UInt8(ascii: ".") else { return nil }
        guard let dot = path[start..<end].lastIndex(of: UInt8(ascii: ".")), dot + 1 < end else { return "" }
        return String(decoding: path[(dot + 1)..<end], as: UTF8.self)
    }

    private static func isHostByte(_ byte: UInt8) -> Bool {
        isAlphanumeric(byte) || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".")
    }

    /// RFC 3986 `pchar` without percent-escapes, or `/`.
    private static func isPathByte(_ byte: UInt8) -> Bool {
        if isAlphanumeric(byte) { return true }
        switch byte {
        case UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"), UInt8(ascii: "!"),
            UInt8(ascii: "$"), UInt8(ascii: "&"), UInt8(ascii: "'"), UInt8(ascii: "("), UInt8(ascii: ")"),
            UInt8(ascii: "*"), UInt8(ascii: "+"), UInt8(ascii: ","), UInt8(ascii: ";"), UInt8(ascii: "="),
            UInt8(ascii: ":"), UInt8(ascii: "@"), UInt8(ascii: "/"):
            return true
        default:
            return false
        }
    }

    private static func isAlphanumeric(_ byte: UInt8) -> Bool {
        (byte >= 0x30 && byte <= 0x39) || ((byte | 0x20) >= 0x61 && (byte | 0x20) <= 0x7A)
    }
}

extension String.UTF8View {
    /// Whether `needle` (ASCII) occurs, optionally ignoring ASCII case.
    fileprivate func containsASCII(_ needle: StaticString, caseInsensitive: Bool = false) -> Bool {
        let pattern = UnsafeBufferPointer(start: needle.utf8Start, count: needle.utf8CodeUnitCount)
        guard let first = pattern.first else { return true }
        let fold: (UInt8) -> UInt8 = { caseInsensitive && $0 >= 0x41 && $0 <= 0x5A ? $0 | 0x20 : $0 }
        var index = startIndex
        while index != endIndex {
            if fold(self[index]) == fold(first) {
                var probe = self.index(after: index)
                var matched = 1
                while matched < pattern.count, probe != endIndex, fold(self[probe]) == fold(pattern[matched]) {
                    matched += 1
                    probe = self.index(after: probe)
                }
                if matched == pattern.count { return true }
            }
            index = self.index(after: index)
        }
        return false
    }

    fileprivate func startsWithASCIICaseInsensitive(_ prefix: StaticString) -> Bool {
        let pattern = UnsafeBufferPointer(start: prefix.utf8Start, count: prefix.utf8CodeUnitCount)
        return self.count >= pattern.count && zip(self, pattern).allSatisfy { $0 | 0x20 == $1 | 0x20 }
    }
}
