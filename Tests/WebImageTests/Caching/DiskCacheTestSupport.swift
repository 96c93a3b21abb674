import Foundation

@testable import WebImage

#if canImport(Glibc)
    import Glibc
#endif

/// A fresh temporary directory, removed after `body`.
func withTemporaryDiskCacheDirectory<T>(_ body: (URL) throws -> T) throws -> T {
    let url = temporaryURL("webimage-diskcache")
    defer { try? FileManager.default.removeItem(at: url) }
    return try body(url)
}

/// A `DiskCache` in a fresh temporary directory, removed after `body`.
func withDiskCache<T>(config: ImageCacheConfig = ImageCacheConfig(), _ body: (DiskCache) throws -> T) throws -> T {
    try withTemporaryDiskCacheDirectory { url in try body(DiskCache(directory: url, config: config)) }
}

/// Deterministic bytes for tests.
func diskCacheTestBytes(_ count: Int, seed: UInt64) -> Data {
    Data(SplitMix64.bytes(count, seed: seed))
}

/// Sets a file's access and modification times (seconds since 1970; nil leaves one as it is).
func setDiskCacheFileTimes(_ path: String, access: TimeInterval?, modification: TimeInterval?) {
    func spec(_ time: TimeInterval?) -> timespec {
        guard let time else { return timespec(tv_sec: 0, tv_nsec: (1 << 30) - 2) }  // UTIME_OMIT
        return timespec(tv_sec: Int(clamping: time), tv_nsec: Int(clamping: (time - time.rounded(.down)) * 1e9))
    }
    let times = [spec(access), spec(modification)]
    precondition(utimensat(AT_FDCWD, path, times, 0) == 0, "utimensat \(path)")
}

func diskCacheFileTimes(_ path: String) -> (access: TimeInterval, modification: TimeInterval) {
    var info = stat()
    precondition(lstat(path, &info) == 0)
    return (DiskCacheFileIO.seconds(info.st_atim), DiskCacheFileIO.seconds(info.st_mtim))
}

/// The files in `directory`, sorted.
func diskCacheDirectoryListing(_ directory: URL) -> [String] {
    ((try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []).sorted()
}

/// The `webimage-cache-torture` helper built beside the tests (run through ``CommandRunner``);
/// the values it stores are ``CacheTortureValue``'s.
enum CacheTorture {
    static let name = "webimage-cache-torture"

    static func start(_ arguments: [String]) throws -> ChildProcess {
        try CommandRunner.start(arguments, executable: name)
    }

    /// Runs the helper to completion: exit status and standard output.
    static func run(_ arguments: [String]) throws -> (status: Int32, output: String) {
        let result = try CommandRunner.run(arguments, executable: name)
        return (result.status, result.standardOutput)
    }
}
