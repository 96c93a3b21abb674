import CWebImageShims
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

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

    /// Reads `path` whole; nil if it is missing or not a regular file. A symlink planted at an
    /// entry's path is removed rather than followed. With `touch`, sets the access time to now
    /// and leaves the modification time alone (relatime does not keep atime current).
    static func read(_ path: String, touch: Bool) -> ReadFile? {
        let fd = path.withCString { open($0, O_RDONLY | O_CLOEXEC | O_NOFOLLOW) }
        guard fd >= 0 else {
            if errno == ELOOP { remove(path) }
            return nil
        }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { return nil }
        let identity = (device: UInt64(info.st_dev), inode: UInt64(info.st_ino))
        guard Int(info.st_size) <= DiskCacheEntryFormat.maxFileSize else {
            // Not one of ours (a planted or sparse file): no allocation, and empty bytes decode
            // as corrupt, so the caller removes it.
            return ReadFile(bytes: Data(), device: identity.device, inode: identity.inode)
        }
        let size = Int(info.st_size)
        // Uninitialised storage: zero-filling what read(2) overwrites costs a pass over the file.
        guard let storage = malloc(max(size, 1)) else { return nil }
        var bytes = Data(bytesNoCopy: storage, count: size, deallocator: .free)
        var filled = 0
        let ok = bytes.withUnsafeMutableBytes { buffer -> Bool in
            while filled < size {
                let count = Glibc.read(fd, buffer.baseAddress! + filled, size - filled)
                if count < 0 {
                    if errno == EINTR { continue }
                    return false
                }
                if count == 0 { break }
                filled += count
            }
            return true
        }
        guard ok else { return nil }
        if filled < size { bytes.count = filled }
        if touch {
            let times = [timespec(tv_sec: 0, tv_nsec: utimeNow), timespec(tv_sec: 0, tv_nsec: utimeOmit)]
            _ = futimens(fd, times)
        }
        return ReadFile(bytes: bytes, device: identity.device, inode: identity.inode)
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
