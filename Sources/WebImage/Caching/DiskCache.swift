import Crypto
import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// The default ``DiskCaching``: one file per key in a directory, safe against crashes and against
/// several processes sharing the directory.
///
/// - Every write goes to a uniquely named temporary file in the same directory (process id plus
///   random bits), then `rename`s over the entry, so a reader sees the old entry or the new one,
///   never a mix. A killed writer leaves only a temporary file, which is never read as an entry
///   and is removed by ``removeExpiredData()``.
/// - There is no `fsync`: a process crash cannot tear an entry (the data is in the page cache
///   before the rename), and what a power loss can tear — a short or zero-filled file — fails the
///   entry's checksum and reads as a miss. Durability of a cache is not worth milliseconds per store.
/// - Each entry carries a checksum (see `DiskCacheEntryFormat`); a corrupt, truncated or foreign
///   file is removed and reads as a miss.
/// - Reads set the access time explicitly, because it is the default expiry date and Linux's
///   `relatime` does not keep it.
/// - With ``ImageCacheConfig/maxDiskSize`` set, every store that takes the total over the limit
///   trims oldest-first to half of it, not only ``removeExpiredData()``.
///
/// Calls block on file I/O; run them off latency-sensitive threads.
public final class DiskCache: DiskCaching {
    /// The directory holding the entries.
    public let directory: URL
    /// The limits it applies: ``ImageCacheConfig/maxDiskAge``, ``ImageCacheConfig/maxDiskSize``
    /// and ``ImageCacheConfig/diskCacheExpireType``.
    public let config: ImageCacheConfig
    let directoryPath: String

    struct State {
        /// Bytes of entries, as this process last knew them; nil until the first scan. Other
        /// processes change the directory too, so trimming rescans rather than trusting it.
        var totalSize: Int?
    }
    let state = Locked(State())

    /// Opens (creating with mode 0700 if needed) the cache in `directory`.
    /// - Throws: ``WebImageError/diskCacheFailure(_:underlying:)`` if the directory cannot be created.
    public init(directory: URL, config: ImageCacheConfig = ImageCacheConfig()) throws(WebImageError) {
        self.directory = directory.standardizedFileURL
        self.directoryPath = self.directory.path
        self.config = config
        try ensureDirectory()
    }

    /// `<namespace>` in ``ImageCacheConfig/defaultDiskCacheDirectory`` when it is set, else in
    /// `$XDG_CACHE_HOME/swift-web-image`, else in `~/.cache/swift-web-image`. The namespace is
    /// reduced to `[A-Za-z0-9._-]` (others become `_`) and cannot be `.` or `..`, so it cannot
    /// leave that folder.
    public static func defaultDirectory(namespace: String) -> URL {
        defaultDirectory(namespace: namespace, environment: ProcessInfo.processInfo.environment)
    }

    static func defaultDirectory(
        namespace: String, environment: [String: String],
        configured: URL? = ImageCacheConfig.defaultDiskCacheDirectory
    ) -> URL {
        if let configured {
            return configured.appendingPathComponent(sanitizedNamespace(namespace), isDirectory: true)
        }
        let base: URL
        if let xdg = environment["XDG_CACHE_HOME"], xdg.hasPrefix("/") {
            // The XDG spec says relative paths are invalid and must be ignored.
            base = URL(fileURLWithPath: xdg, isDirectory: true)
        } else if let home = environment["HOME"], home.hasPrefix("/") {
            base = URL(fileURLWithPath: home, isDirectory: true).appendingPathComponent(".cache", isDirectory: true)
        } else {
            base = FileManager.default.homeDirectoryForCurrentUser.appendingPathComponent(".cache", isDirectory: true)
        }
        return base.appendingPathComponent("swift-web-image", isDirectory: true)
            .appendingPathComponent(sanitizedNamespace(namespace), isDirectory: true)
    }

    static func sanitizedNamespace(_ namespace: String) -> String {
        var name = String(
            namespace.unicodeScalars.prefix(200).map { scalar -> Character in
                let allowed = scalar.isASCII && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar))
                return allowed || scalar == "." || scalar == "-" || scalar == "_" ? Character(scalar) : "_"
            })
        if name.allSatisfy({ $0 == "." }) { name = "_" + name }
        return name
    }

    // MARK: Paths

    public func cachePath(forKey key: String) -> String {
        path(ofFile: DiskCacheFileNames.fileName(forKey: key))
    }

    func path(ofFile name: String) -> String { directoryPath + "/" + name }

    func ensureDirectory() throws(WebImageError) {
        do {
            try FileManager.default.createDirectory(
                atPath: directoryPath, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        } catch {
            throw .diskCacheFailure("cannot create \(directoryPath): \(error.localizedDescription)")
        }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: directoryPath, isDirectory: &isDirectory), isDirectory.boolValue
        else { throw .diskCacheFailure("\(directoryPath) is not a directory") }
    }

    // MARK: Reading

    /// Whether a file exists for `key` (one `lstat`, no read: a corrupt file still counts until
    /// a read removes it).
    public func containsData(forKey key: String) -> Bool {
        guard let info = DiskCacheFileIO.status(cachePath(forKey: key)) else { return false }
        return DiskCacheFileIO.isRegularFile(info)
    }

    public func data(forKey key: String) -> Data? {
        readEntry(forKey: key, touch: true)?.data
    }

    public func entry(forKey key: String) -> DiskCacheEntry? {
        readEntry(forKey: key, touch: true)
    }

    public func extendedData(forKey key: String) -> Data? {
        readEntry(forKey: key, touch: false)?.metadata.extendedData
    }

    func readEntry(forKey key: String, touch: Bool) -> DiskCacheEntry? {
        let path = cachePath(forKey: key)
        guard let file = DiskCacheFileIO.read(path, touch: touch) else { return nil }
        if let entry = DiskCacheEntryFormat.decode(file.bytes) { return entry }
        let removed = DiskCacheFileIO.unlinkIfSame(path, device: file.device, inode: file.inode)
        adjustSize(by: -removed)
        return nil
    }

    // MARK: Writing

    public func setData(_ data: Data, forKey key: String, metadata: DiskCacheMetadata?) throws(WebImageError) {
        let head = try DiskCacheEntryFormat.encodeHead(data: data, metadata: metadata ?? DiskCacheMetadata())
        let replaced = try writeAtomically(head, data, to: DiskCacheFileNames.fileName(forKey: key))
        adjustSize(by: head.count + data.count - replaced)
        try trimAfterStore()
    }

    public func setExtendedData(_ extendedData: Data?, forKey key: String) throws(WebImageError) {
        // Read-modify-write: with two concurrent writers of the same key the last one wins, and
        // both leave an intact entry.
        guard var entry = readEntry(forKey: key, touch: false) else { return }
        entry.metadata.extendedData = extendedData
        try setData(entry.data, forKey: key, metadata: entry.metadata)
    }

    /// Writes the entry file `head` + `body` to a temporary file and renames it over `name`;
    /// returns the size of the entry it replaced (0 if none). A vanished directory is recreated once.
    func writeAtomically(_ head: Data, _ body: Data, to name: String) throws(WebImageError) -> Int {
        let target = path(ofFile: name)
        var attempt = 0
        while true {
            attempt += 1
            let temporary = path(ofFile: DiskCacheFileNames.temporaryName())
            do {
                try DiskCacheFileIO.writeNewFile(temporary, head, body)
            } catch {
                if error.code == ENOENT, attempt == 1 {
                    try ensureDirectory()
                    continue
                }
                throw .diskCacheFailure("cannot store \(name): \(error.description)")
            }
            // Most stores are new entries: a rename that refuses to replace needs no stat first.
            guard var code = DiskCacheFileIO.renameWithoutReplacing(temporary, to: target) else { return 0 }
            if code == EEXIST || code == EINVAL || code == ENOSYS {
                let old = DiskCacheFileIO.status(target).map { DiskCacheFileIO.isRegularFile($0) ? Int($0.st_size) : 0 }
                guard let failure = DiskCacheFileIO.rename(temporary, over: target) else { return old ?? 0 }
                code = failure
            }
            DiskCacheFileIO.remove(temporary)
            if code == ENOENT, attempt == 1 {
                try ensureDirectory()
                continue
            }
            throw .diskCacheFailure("cannot store \(name): rename: \(DiskCacheFileIO.errorText(code))")
        }
    }

    /// After a store: if the running total is over the limit, rescan (other processes write
    /// here too) and delete oldest-first until under half the limit.
    func trimAfterStore() throws(WebImageError) {
        guard config.maxDiskSize > 0 else { return }
        let known = state.withLock { $0.totalSize }
        let total: Int
        if let known {
            total = known
        } else {
            total = scanEntries(dates: false).reduce(0) { $0 + $1.size }
            state.withLock { $0.totalSize = total }
        }
        guard total > config.maxDiskSize else { return }
        // Concurrent trims are harmless (an entry already unlinked just counts as gone), and
        // letting each over-limit store trim means none is skipped on another's stale scan.
        let entries = scanEntries(dates: true)
        let scannedTotal = entries.reduce(0) { $0 + $1.size }
        let remaining = scannedTotal > config.maxDiskSize ? trim(entries, from: scannedTotal) : scannedTotal
        state.withLock { $0.totalSize = remaining }
    }

    // MARK: Removing

    public func removeData(forKey key: String) {
        let path = cachePath(forKey: key)
        guard let info = DiskCacheFileIO.status(path), DiskCacheFileIO.remove(path) else { return }
        adjustSize(by: -Int(info.st_size))
    }

    public func removeAllData() throws(WebImageError) {
        do {
            try FileManager.default.removeItem(atPath: directoryPath)
        } catch {
            // Gone already (or removed by another process meanwhile) is fine.
            if FileManager.default.fileExists(atPath: directoryPath) {
                throw .diskCacheFailure(
                    "cannot remove \(directoryPath): \(error.localizedDescription)", underlying: error)
            }
        }
        try ensureDirectory()
        state.withLock { $0.totalSize = 0 }
    }

    // MARK: Totals

    public var totalCount: Int { scanEntries(dates: false).count }

    public var totalSize: Int {
        let size = scanEntries(dates: false).reduce(0) { $0 + $1.size }
        state.withLock { $0.totalSize = size }
        return size
    }

    func adjustSize(by delta: Int) {
        guard delta != 0 else { return }
        state.withLock { state in
            if let size = state.totalSize { state.totalSize = max(0, size + delta) }
        }
    }
}

// MARK: File names

/// How ``DiskCache`` names its files.
///
/// An entry is `<sha256-hex>[.<ext>]`: 64 lowercase hex digits of SHA-256 over the key's UTF-8
/// bytes, then the key's path extension by SDWebImage's rule (URL path extension with the query
/// ignored, else the string's), with `:`, `\0` and `/` stripped. Nothing else from the key reaches
/// the file name, so no key can escape the directory. Temporary files start with a dot and are
/// never mistaken for entries.
enum DiskCacheFileNames {
    /// Linux's NAME_MAX (bytes).
    static let nameMax = 255
    /// The longest extension kept: NAME_MAX − 64 hex digits − the dot. SDWebImage's 222 is the
    /// same rule for its 32-digit MD5 names; with SHA-256 a 222-byte extension would fail with
    /// ENAMETOOLONG.
    static let maxExtensionBytes = nameMax - 64 - 1
    static let temporaryPrefix = ".tmp-"

    /// Built in one string: this runs twice per load (the query and the store).
    static func fileName(forKey key: String) -> String {
        var hasher = SHA256()
        var key = key
        key.withUTF8 { hasher.update(bufferPointer: UnsafeRawBufferPointer($0)) }
        let digest = hasher.finalize()
        let ext = sanitizedExtension(forKey: key)
        let length = 64 + (ext.map { 1 + $0.utf8.count } ?? 0)
        return String(unsafeUninitializedCapacity: length) { name in
            digest.withUnsafeBytes { bytes in
                for (index, byte) in bytes.enumerated() {
                    name[2 * index] = hexDigit(byte >> 4)
                    name[2 * index + 1] = hexDigit(byte & 0x0f)
                }
            }
            guard let ext else { return 64 }
            name[64] = UInt8(ascii: ".")
            _ = UnsafeMutableBufferPointer(rebasing: name[65...]).initialize(from: ext.utf8)
            return length
        }
    }

    private static func hexDigit(_ value: UInt8) -> UInt8 {
        value < 10 ? UInt8(ascii: "0") + value : UInt8(ascii: "a") + value - 10
    }

    /// The key's extension as it appears in the file name, or nil for none.
    static func sanitizedExtension(forKey key: String) -> String? {
        // `/` matters on Linux (a percent-decoded `%2F` could otherwise add a path component);
        // `:` and `\0` follow SDWebImage.
        let ext = CacheKeys.pathExtension(forKey: key).filter { $0 != ":" && $0 != "\0" && $0 != "/" }
        guard !ext.isEmpty, ext.utf8.count <= maxExtensionBytes, ext != ".", ext != ".." else { return nil }
        return ext
    }

    /// Whether a directory entry's name is an entry of the cache (not a temporary or foreign file).
    static func isEntryName(_ name: String) -> Bool {
        let bytes = Array(name.utf8.prefix(65))
        guard bytes.count >= 64 else { return false }
        for byte in bytes.prefix(64) where !(byte >= 0x30 && byte <= 0x39) && !(byte >= 0x61 && byte <= 0x66) {
            return false
        }
        return bytes.count == 64 || bytes[64] == UInt8(ascii: ".")
    }

    /// A name no other writer uses: process id plus 64 random bits.
    static func temporaryName() -> String {
        "\(temporaryPrefix)\(getpid())-\(String(UInt64.random(in: .min ... .max), radix: 16))"
    }

    /// The writer's process id recorded in a temporary file's name, if it has one.
    static func temporaryOwner(_ name: String) -> pid_t? {
        guard name.hasPrefix(temporaryPrefix) else { return nil }
        let rest = name.dropFirst(temporaryPrefix.count)
        guard let dash = rest.firstIndex(of: "-") else { return nil }
        return pid_t(rest[..<dash])
    }
}
