import CWebImageShims
import Crypto
import Foundation
import NIOPosix
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
        guard case .entry(let entry) = readEntry(forKey: key, touch: touch, residentOnly: false) else { return nil }
        return entry
    }

    /// What ``residentEntry(forKey:)`` found.
    enum ResidentEntry {
        case entry(DiskCacheEntry)
        /// No entry, or a corrupt one (removed).
        case none
        /// The entry's bytes are not all in the page cache: read it with ``entry(forKey:)`` on a
        /// thread that may wait for the disk.
        case notResident
    }

    /// ``entry(forKey:)`` without waiting for the disk: for a caller on a CPU thread, which reads
    /// a hot entry itself and hands a cold one to the file threads.
    func residentEntry(forKey key: String) -> ResidentEntry {
        readEntry(forKey: key, touch: true, residentOnly: true)
    }

    private func readEntry(forKey key: String, touch: Bool, residentOnly: Bool) -> ResidentEntry {
        let path = cachePath(forKey: key)
        let file: DiskCacheFileIO.ReadFile
        switch DiskCacheFileIO.read(path, touch: touch, residentOnly: residentOnly) {
        case .file(let read): file = read
        case .none: return .none
        case .notResident: return .notResident
        }
        if let entry = DiskCacheEntryFormat.decode(file.bytes) { return .entry(entry) }
        let removed = DiskCacheFileIO.unlinkIfSame(path, device: file.device, inode: file.inode)
        adjustSize(by: -removed)
        return .none
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

/// Thin POSIX wrappers for ``DiskCache``: Foundation's file APIs hide errno, follow symlinks and
/// cannot set only the access time.
enum DiskCacheFileIO {
    /// A file read whole, with the identity of the inode it came from.
    struct ReadFile {
        var bytes: Data
        var device: UInt64
        var inode: UInt64
    }

    // glibc's UTIME_NOW / UTIME_OMIT are macros Swift does not import.
    private static let utimeNow = (1 << 30) - 1
    private static let utimeOmit = (1 << 30) - 2

    static func errorText(_ code: Int32 = errno) -> String { String(cString: strerror(code)) }

    /// What ``read(_:touch:residentOnly:)`` found.
    enum ReadOutcome {
        case file(ReadFile)
        /// Missing, not a regular file, or unreadable.
        case none
        /// Reading would have waited for the disk (only with `residentOnly`); nothing was read.
        case notResident
    }

    /// Reads `path` whole; nil if it is missing or not a regular file. A symlink planted at an
    /// entry's path is removed rather than followed. With `touch`, sets the access time to now
    /// and leaves the modification time alone (relatime does not keep atime current).
    static func read(_ path: String, touch: Bool) -> ReadFile? {
        guard case .file(let file) = read(path, touch: touch, residentOnly: false) else { return nil }
        return file
    }

    /// ``read(_:touch:)``, and with `residentOnly`, a read that never waits for the disk: when any
    /// of the file's bytes are not in the page cache (or the kernel cannot tell), it answers
    /// ``ReadOutcome/notResident`` instead, so that a CPU thread can read a hot file itself and
    /// leave a cold one to the file threads. Opening and `fstat` still walk the directory, which
    /// the kernel caches.
    static func read(_ path: String, touch: Bool, residentOnly: Bool) -> ReadOutcome {
        let fd = path.withCString { open($0, O_RDONLY | O_CLOEXEC | O_NOFOLLOW) }
        guard fd >= 0 else {
            if errno == ELOOP { remove(path) }
            return .none
        }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { return .none }
        let identity = (device: UInt64(info.st_dev), inode: UInt64(info.st_ino))
        guard Int(info.st_size) <= DiskCacheEntryFormat.maxFileSize else {
            // Not one of ours (a planted or sparse file): no allocation, and empty bytes decode
            // as corrupt, so the caller removes it.
            return .file(ReadFile(bytes: Data(), device: identity.device, inode: identity.inode))
        }
        let size = Int(info.st_size)
        // Uninitialised storage: zero-filling what read(2) overwrites costs a pass over the file.
        guard let storage = malloc(max(size, 1)) else { return .none }
        var bytes = Data(bytesNoCopy: storage, count: size, deallocator: .free)
        var filled = 0
        var resident = true
        let ok = bytes.withUnsafeMutableBytes { buffer -> Bool in
            while filled < size {
                let start = buffer.baseAddress! + filled
                let count =
                    residentOnly
                    ? cwi_pread_resident(fd, start, size - filled, off_t(filled))
                    : Glibc.read(fd, start, size - filled)
                if count < 0 {
                    if errno == EINTR { continue }
                    if residentOnly { resident = false }
                    return false
                }
                if count == 0 { break }
                filled += count
            }
            return true
        }
        guard resident else { return .notResident }
        guard ok else { return .none }
        if filled < size { bytes.count = filled }
        if touch {
            let times = [timespec(tv_sec: 0, tv_nsec: utimeNow), timespec(tv_sec: 0, tv_nsec: utimeOmit)]
            _ = futimens(fd, times)
        }
        return .file(ReadFile(bytes: bytes, device: identity.device, inode: identity.inode))
    }

    /// `lstat` of `path`, or nil if it does not exist.
    static func status(_ path: String) -> stat? {
        var info = stat()
        return path.withCString { lstat($0, &info) } == 0 ? info : nil
    }

    /// `unlink(path)`; true if it removed a file.
    @discardableResult
    static func remove(_ path: String) -> Bool {
        path.withCString { unlink($0) } == 0
    }

    /// Renames `from` over `to`, replacing it; errno on failure.
    static func rename(_ from: String, over to: String) -> Int32? {
        from.withCString { from in to.withCString { to in Glibc.rename(from, to) } } == 0 ? nil : errno
    }

    /// Renames `from` to `to` only if `to` does not exist; errno on failure: `EEXIST` when it
    /// does, `EINVAL` or `ENOSYS` when the file system or kernel cannot tell.
    static func renameWithoutReplacing(_ from: String, to: String) -> Int32? {
        from.withCString { from in to.withCString { to in cwi_rename_noreplace(from, to) } } == 0 ? nil : errno
    }

    static func isRegularFile(_ info: stat) -> Bool { info.st_mode & S_IFMT == S_IFREG }

    /// Removes `path` only if it is still the inode that was read: another process may have
    /// renamed a fresh entry over it since. Returns the removed file's size.
    @discardableResult
    static func unlinkIfSame(_ path: String, device: UInt64, inode: UInt64) -> Int {
        guard let info = status(path), UInt64(info.st_dev) == device, UInt64(info.st_ino) == inode else { return 0 }
        return remove(path) ? Int(info.st_size) : 0
    }

    /// Writes `head` then `body` to a new file `path` (which must not exist) with mode 0600,
    /// in one `writev` when the kernel takes it all, so the two never need joining in memory.
    /// Throws the errno on failure, after removing the partial file.
    static func writeNewFile(_ path: String, _ head: Data, _ body: Data) throws(DiskCacheFileIOError) {
        let fd = path.withCString { open($0, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600) }
        guard fd >= 0 else { throw DiskCacheFileIOError(code: errno, operation: "create") }
        var failure: DiskCacheFileIOError?
        head.withUnsafeBytes { head in
            body.withUnsafeBytes { body in
                failure = writeAll(fd, head, body)
            }
        }
        if close(fd) != 0, failure == nil { failure = DiskCacheFileIOError(code: errno, operation: "close") }
        if let failure {
            remove(path)
            throw failure
        }
    }

    /// Writes both buffers whole, retrying short writes and EINTR.
    private static func writeAll(_ fd: Int32, _ head: UnsafeRawBufferPointer, _ body: UnsafeRawBufferPointer)
        -> DiskCacheFileIOError?
    {
        var written = 0
        let total = head.count + body.count
        while written < total {
            // What is not written yet: the rest of the head, then the rest of the body (either
            // may be empty). Two parts on the stack; an array would allocate on every store.
            let headOffset = min(written, head.count)
            let bodyOffset = written - headOffset
            var parts = (
                iovec(
                    iov_base: UnsafeMutableRawPointer(mutating: head.baseAddress.map { $0 + headOffset }),
                    iov_len: head.count - headOffset),
                iovec(
                    iov_base: UnsafeMutableRawPointer(mutating: body.baseAddress.map { $0 + bodyOffset }),
                    iov_len: body.count - bodyOffset)
            )
            let count = withUnsafePointer(to: &parts) { tuple in
                tuple.withMemoryRebound(to: iovec.self, capacity: 2) { writev(fd, $0, 2) }
            }
            if count < 0 {
                if errno == EINTR { continue }
                return DiskCacheFileIOError(code: errno, operation: "write")
            }
            // Nothing taken though bytes remain: retrying would spin forever.
            if count == 0 { return DiskCacheFileIOError(code: EIO, operation: "write") }
            written += count
        }
        return nil
    }

    static func seconds(_ time: timespec) -> TimeInterval {
        TimeInterval(time.tv_sec) + TimeInterval(time.tv_nsec) / 1_000_000_000
    }
}

/// An errno from ``DiskCacheFileIO``, with the step that failed.
struct DiskCacheFileIOError: Error {
    var code: Int32
    var operation: String

    var description: String { "\(operation): \(DiskCacheFileIO.errorText(code))" }
}

/// Where blocking file work runs: a fixed set of ``width`` threads shared by every cache and
/// the file loader, with one FIFO queue in front of them.
///
/// File calls block their thread. On Swift's cooperative pool (one thread per core) a slow
/// disk would stall every task; on a dispatch queue each blocked item can make the system add
/// a thread. A fixed pool bounds both: at most ``width`` file operations run at once and the
/// rest wait in line, whatever the load. The threads start with the first file operation.
package final class FileIOExecutor: Sendable {
    /// The executor the library uses.
    package static let shared = FileIOExecutor(width: 4)

    /// Threads, and so file operations running at once.
    package let width: Int
    /// Work queued or running, by number, and who waits for some of it to end (``drain()``).
    private let outstanding = Locked(Outstanding())

    private struct Outstanding {
        /// Started with the first item: a process that never touches a file starts no thread.
        var pool: NIOThreadPool?
        var next: UInt64 = 0
        var numbers = Set<UInt64>()
        var drainWaiters: [(upTo: UInt64, continuation: CheckedContinuation<Void, Never>)] = []

        /// Whether every item numbered up to `number` has ended.
        func isDone(upTo number: UInt64) -> Bool { !numbers.contains { $0 <= number } }
    }

    init(width: Int) {
        self.width = width
    }

    /// Runs `body` on one of the threads and returns its result; the caller's thread is free
    /// meanwhile. Cancelling the caller does not stop `body`: file work is short, and checks
    /// for itself whether anyone still wants it.
    package func run<T: Sendable, Failure: Error>(_ body: @escaping @Sendable () throws(Failure) -> T)
        async throws(Failure) -> T
    {
        let result = await withCheckedContinuation { (continuation: CheckedContinuation<Result<T, Failure>, Never>) in
            enqueue { continuation.resume(returning: Result { () throws(Failure) in try body() }) }
        }
        return try result.get()
    }

    /// Queues `body` and returns at once (for work nobody waits for, such as a background store).
    package func enqueue(_ body: @escaping @Sendable () -> Void) {
        let (number, pool) = outstanding.withLock { [width] state in
            state.next += 1
            state.numbers.insert(state.next)
            let pool =
                state.pool
                ?? NIOThreadPool._makePerpetualStartedPool(
                    numberOfThreads: width, threadNamePrefix: "swift-web-image-io-")
            state.pool = pool
            return (state.next, pool)
        }
        pool.submit { [self] _ in
            // The pool is never stopped, so every item runs.
            body()
            let waiters = outstanding.withLock { state -> [CheckedContinuation<Void, Never>] in
                state.numbers.remove(number)
                guard !state.drainWaiters.isEmpty else { return [] }
                let finished = state
                var done: [CheckedContinuation<Void, Never>] = []
                state.drainWaiters.removeAll { waiter in
                    guard finished.isDone(upTo: waiter.upTo) else { return false }
                    done.append(waiter.continuation)
                    return true
                }
                return done
            }
            for waiter in waiters { waiter.resume() }
        }
    }

    /// Returns once all work queued before the call has ended (work queued later may still run).
    package func drain() async {
        await withCheckedContinuation { continuation in
            let done = outstanding.withLock { state in
                if state.isDone(upTo: state.next) { return true }
                state.drainWaiters.append((state.next, continuation))
                return false
            }
            if done { continuation.resume() }
        }
    }
}

/// The bytes of one ``DiskCache`` entry file.
///
/// ```
/// offset size  field (integers little-endian)
///  0      4    magic "SWIC"
///  4      1    format version (1)
///  5      3    reserved, zero
///  8      4    metadata length M
/// 12      4    reserved, zero
/// 16      8    data length D
/// 24      8    checksum: XXH64 of the data, seeded with XXH64 of the metadata
/// 32      M    metadata (compact binary, below)
/// 32+M    D    data
/// ```
/// The file is exactly 32 + M + D bytes. Metadata: a presence byte (bit 0 content type, 1 ETag,
/// 2 Last-Modified, 3 expiration date, 4 extended data, 5 Cache-Control; other bits must be zero), the store date
/// as a Float64 of seconds since 1970, then each present field in that order — strings and
/// extended data as a UInt32 length plus bytes, the expiration date as a Float64.
///
/// Anything else — another magic or version, a length that does not add up, a checksum mismatch,
/// metadata that does not parse to its last byte, a date that is NaN or infinite — is corrupt and
/// reads as a miss.
@_spi(Internals) public enum DiskCacheEntryFormat {
    static let magic: [UInt8] = Array("SWIC".utf8)
    static let version: UInt8 = 1
    static let headerSize = 32
    /// The largest entry file written or read (2 GiB): a bigger file at an entry's path is not
    /// ours, and reading it whole could exhaust memory.
    static let maxFileSize = 1 << 31

    @_spi(Internals) public static func encode(data: Data, metadata: DiskCacheMetadata) throws(WebImageError) -> Data {
        let head = try encodeHead(data: data, metadata: metadata)
        var out = Data(capacity: head.count + data.count)
        out.append(head)
        out.append(data)
        return out
    }

    /// Everything of the entry file for `data` that comes before `data`: header and metadata.
    /// The file is this followed by `data`, so a writer can send both without first copying
    /// the body (often 100 KB or more) into one buffer.
    static func encodeHead(data: Data, metadata: DiskCacheMetadata) throws(WebImageError) -> Data {
        let limit = Int(UInt32.max)
        let blobs = [
            metadata.contentType?.utf8.count, metadata.etag?.utf8.count, metadata.lastModified?.utf8.count,
            metadata.cacheControl?.utf8.count,
        ]
        guard blobs.allSatisfy({ ($0 ?? 0) <= limit }), (metadata.extendedData?.count ?? 0) <= limit / 2 else {
            throw .diskCacheFailure("metadata too large")
        }
        guard metadata.storeDate.timeIntervalSince1970.isFinite,
            metadata.expirationDate?.timeIntervalSince1970.isFinite ?? true
        else {
            throw .diskCacheFailure("metadata date is not finite")
        }
        let meta = encodeMetadata(metadata)
        guard headerSize + meta.count + data.count <= maxFileSize else { throw .diskCacheFailure("entry too large") }
        let metaHash = meta.withUnsafeBytes { XXH64.hash($0) }
        let checksum = data.withUnsafeBytes { XXH64.hash($0, seed: metaHash) }
        var out = Data(capacity: headerSize + meta.count)
        out.append(contentsOf: magic)
        out.append(contentsOf: [version, 0, 0, 0])
        appendInteger(UInt32(meta.count), to: &out)
        appendInteger(UInt32(0), to: &out)
        appendInteger(UInt64(data.count), to: &out)
        appendInteger(checksum, to: &out)
        out.append(meta)
        return out
    }

    /// The entry in `file`, or nil if `file` is not an intact entry.
    @_spi(Internals) public static func decode(_ file: Data) -> DiskCacheEntry? {
        file.withUnsafeBytes { raw -> DiskCacheEntry? in
            guard raw.count >= headerSize, raw.prefix(4).elementsEqual(magic), raw[4] == version,
                raw[5] == 0, raw[6] == 0, raw[7] == 0,
                raw.loadUnaligned(fromByteOffset: 12, as: UInt32.self) == 0
            else { return nil }
            let metaLength = Int(UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: 8, as: UInt32.self)))
            let dataLength64 = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: 16, as: UInt64.self))
            let storedChecksum = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: 24, as: UInt64.self))
            guard dataLength64 <= UInt64(raw.count), headerSize + metaLength + Int(dataLength64) == raw.count else {
                return nil
            }
            let meta = UnsafeRawBufferPointer(rebasing: raw[headerSize..<(headerSize + metaLength)])
            let body = UnsafeRawBufferPointer(rebasing: raw[(headerSize + metaLength)...])
            guard XXH64.hash(body, seed: XXH64.hash(meta)) == storedChecksum, let metadata = decodeMetadata(meta) else {
                return nil
            }
            let data = Data(body)
            return DiskCacheEntry(data: data, metadata: metadata)
        }
    }

    // MARK: Metadata

    private enum Field {
        static let contentType: UInt8 = 1 << 0
        static let etag: UInt8 = 1 << 1
        static let lastModified: UInt8 = 1 << 2
        static let expirationDate: UInt8 = 1 << 3
        static let extendedData: UInt8 = 1 << 4
        static let cacheControl: UInt8 = 1 << 5
        static let all: UInt8 = 0x3f
    }

    static func encodeMetadata(_ metadata: DiskCacheMetadata) -> Data {
        var flags: UInt8 = 0
        if metadata.contentType != nil { flags |= Field.contentType }
        if metadata.etag != nil { flags |= Field.etag }
        if metadata.lastModified != nil { flags |= Field.lastModified }
        if metadata.expirationDate != nil { flags |= Field.expirationDate }
        if metadata.extendedData != nil { flags |= Field.extendedData }
        if metadata.cacheControl != nil { flags |= Field.cacheControl }
        var out = Data([flags])
        appendInteger(metadata.storeDate.timeIntervalSince1970.bitPattern, to: &out)
        for string in [metadata.contentType, metadata.etag, metadata.lastModified] {
            guard let string else { continue }
            appendBlob(Data(string.utf8), to: &out)
        }
        if let date = metadata.expirationDate { appendInteger(date.timeIntervalSince1970.bitPattern, to: &out) }
        if let extended = metadata.extendedData { appendBlob(extended, to: &out) }
        if let cacheControl = metadata.cacheControl { appendBlob(Data(cacheControl.utf8), to: &out) }
        return out
    }

    @_spi(Internals) public static func decodeMetadata(_ raw: UnsafeRawBufferPointer) -> DiskCacheMetadata? {
        var reader = Reader(raw: raw)
        guard let flags = reader.byte(), flags & ~Field.all == 0, let storeDate = reader.date() else { return nil }
        var metadata = DiskCacheMetadata(storeDate: storeDate)
        if flags & Field.contentType != 0 {
            guard let value = reader.string() else { return nil }
            metadata.contentType = value
        }
        if flags & Field.etag != 0 {
            guard let value = reader.string() else { return nil }
            metadata.etag = value
        }
        if flags & Field.lastModified != 0 {
            guard let value = reader.string() else { return nil }
            metadata.lastModified = value
        }
        if flags & Field.expirationDate != 0 {
            guard let value = reader.date() else { return nil }
            metadata.expirationDate = value
        }
        if flags & Field.extendedData != 0 {
            guard let value = reader.blob() else { return nil }
            metadata.extendedData = Data(value)
        }
        if flags & Field.cacheControl != 0 {
            guard let value = reader.string() else { return nil }
            metadata.cacheControl = value
        }
        return reader.isAtEnd ? metadata : nil
    }

    private struct Reader {
        let raw: UnsafeRawBufferPointer
        var offset = 0
        var isAtEnd: Bool { offset == raw.count }

        mutating func byte() -> UInt8? {
            guard offset < raw.count else { return nil }
            defer { offset += 1 }
            return raw[offset]
        }
        mutating func double() -> Double? {
            guard raw.count - offset >= 8 else { return nil }
            defer { offset += 8 }
            return Double(bitPattern: UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self)))
        }
        /// Seconds since 1970; nil unless finite (`Date` never equals a NaN one, not even itself).
        mutating func date() -> Date? {
            guard let seconds = double(), seconds.isFinite else { return nil }
            return Date(timeIntervalSince1970: seconds)
        }
        mutating func blob() -> UnsafeRawBufferPointer? {
            guard raw.count - offset >= 4 else { return nil }
            let length = Int(UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: offset, as: UInt32.self)))
            guard raw.count - offset - 4 >= length else { return nil }
            defer { offset += 4 + length }
            return UnsafeRawBufferPointer(rebasing: raw[(offset + 4)..<(offset + 4 + length)])
        }
        mutating func string() -> String? {
            guard let bytes = blob() else { return nil }
            return String(validating: bytes, as: UTF8.self)
        }
    }

    private static func appendInteger<T: FixedWidthInteger>(_ value: T, to out: inout Data) {
        withUnsafeBytes(of: value.littleEndian) { out.append(contentsOf: $0) }
    }

    private static func appendBlob(_ blob: Data, to out: inout Data) {
        appendInteger(UInt32(blob.count), to: &out)
        out.append(blob)
    }
}

// MARK: The checksum

/// XXH64 (xxHash, 64-bit): the disk cache's integrity check. No table look-ups and four
/// independent lanes make it cheaper than a table CRC-32, so checking an entry costs little next
/// to decoding it; its 64 bits catch torn and damaged files as well as a CRC would.
enum XXH64 {
    private static let prime1: UInt64 = 0x9E37_79B1_85EB_CA87
    private static let prime2: UInt64 = 0xC2B2_AE3D_27D4_EB4F
    private static let prime3: UInt64 = 0x1656_67B1_9E37_79F9
    private static let prime4: UInt64 = 0x85EB_CA77_C2B2_AE63
    private static let prime5: UInt64 = 0x27D4_EB2F_1656_67C5

    @inline(__always) private static func rotl(_ value: UInt64, _ count: UInt64) -> UInt64 {
        (value << count) | (value >> (64 - count))
    }

    @inline(__always) private static func round(_ accumulator: UInt64, _ input: UInt64) -> UInt64 {
        rotl(accumulator &+ input &* prime2, 31) &* prime1
    }

    @inline(__always) private static func merge(_ hash: UInt64, _ lane: UInt64) -> UInt64 {
        (hash ^ round(0, lane)) &* prime1 &+ prime4
    }

    static func hash(_ bytes: UnsafeRawBufferPointer, seed: UInt64 = 0) -> UInt64 {
        let count = bytes.count
        var offset = 0
        @inline(__always) func word(_ at: Int) -> UInt64 {
            UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: at, as: UInt64.self))
        }
        var hash: UInt64
        if count >= 32 {
            var lane1 = seed &+ prime1 &+ prime2
            var lane2 = seed &+ prime2
            var lane3 = seed
            var lane4 = seed &- prime1
            while count - offset >= 32 {
                lane1 = round(lane1, word(offset))
                lane2 = round(lane2, word(offset + 8))
                lane3 = round(lane3, word(offset + 16))
                lane4 = round(lane4, word(offset + 24))
                offset += 32
            }
            hash = rotl(lane1, 1) &+ rotl(lane2, 7) &+ rotl(lane3, 12) &+ rotl(lane4, 18)
            hash = merge(merge(merge(merge(hash, lane1), lane2), lane3), lane4)
        } else {
            hash = seed &+ prime5
        }
        hash &+= UInt64(count)
        while count - offset >= 8 {
            hash = rotl(hash ^ round(0, word(offset)), 27) &* prime1 &+ prime4
            offset += 8
        }
        if count - offset >= 4 {
            let half = UInt64(UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: UInt32.self)))
            hash = rotl(hash ^ (half &* prime1), 23) &* prime2 &+ prime3
            offset += 4
        }
        while offset < count {
            hash = rotl(hash ^ (UInt64(bytes[offset]) &* prime5), 11) &* prime1
            offset += 1
        }
        hash ^= hash >> 33
        hash &*= prime2
        hash ^= hash >> 29
        hash &*= prime3
        hash ^= hash >> 32
        return hash
    }
}

extension DiskCacheMetadata {
    /// Metadata for a response with these headers (names case-insensitive): `Content-Type`, the
    /// validators `ETag` and `Last-Modified`, and freshness per RFC 9111 — `Cache-Control: max-age`
    /// (or `s-maxage`, which a shared cache such as a server's prefers), else `Expires` (relative
    /// to `Date` when present, so clock skew between server and client does not matter), minus
    /// the response's `Age`. `no-cache` and `no-store` make the entry stale at once: it may still
    /// be stored and revalidated, but is never considered fresh.
    public init(httpHeaders: [String: String], storeDate: Date = Date()) {
        var lowered: [String: String] = [:]
        for (name, value) in httpHeaders { lowered[name.lowercased()] = value }
        self.init(
            contentType: lowered["content-type"], etag: lowered["etag"], lastModified: lowered["last-modified"],
            storeDate: storeDate,
            expirationDate: Self.expirationDate(headers: lowered, storeDate: storeDate),
            cacheControl: lowered["cache-control"])
    }

    /// Whether the entry is still fresh at `date` (nil expiration means no HTTP freshness: never fresh).
    public func isFresh(at date: Date = Date()) -> Bool {
        guard let expirationDate else { return false }
        return date < expirationDate
    }

    private static func expirationDate(headers: [String: String], storeDate: Date) -> Date? {
        let age = headers["age"].flatMap { Double($0.trimmingCharacters(in: .whitespaces)) } ?? 0
        if let cacheControl = headers["cache-control"] {
            let directives = parseCacheControl(cacheControl)
            if directives["no-store"] != nil || directives["no-cache"] != nil { return storeDate }
            if let seconds = (directives["s-maxage"] ?? directives["max-age"]).flatMap({ $0.flatMap(Double.init) }),
                seconds.isFinite
            {
                return storeDate.addingTimeInterval(max(0, seconds - max(0, age)))
            }
        }
        guard let expiresText = headers["expires"] else { return nil }
        // An invalid Expires (such as "0") means already expired (RFC 9111 5.3).
        guard let expires = HTTPDate.parse(expiresText) else { return storeDate }
        let serverNow = headers["date"].flatMap(HTTPDate.parse) ?? storeDate
        let lifetime = expires.timeIntervalSince(serverNow) - max(0, age)
        return storeDate.addingTimeInterval(max(0, lifetime))
    }

    /// `Cache-Control` directives by lowercase name; values unquoted, nil for bare directives.
    static func parseCacheControl(_ value: String) -> [String: String?] {
        var directives: [String: String?] = [:]
        for part in value.split(separator: ",") {
            let pieces = part.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            guard let name = pieces.first?.lowercased(), !name.isEmpty else { continue }
            let argument = pieces.count > 1 ? pieces[1].trimmingCharacters(in: CharacterSet(charactersIn: "\"")) : nil
            directives[name] = argument
        }
        return directives
    }
}
