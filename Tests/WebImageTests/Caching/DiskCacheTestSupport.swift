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

/// The `webimage-cache-torture` helper built beside the tests (run through ``CommandRunner``),
/// and its value rule.
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

    // The same rule as Tests/CacheTorture/main.swift (a separate executable, so not importable).
    static func fnv1a(_ text: String) -> UInt64 {
        text.utf8.reduce(0xcbf2_9ce4_8422_2325) { ($0 ^ UInt64($1)) &* 0x100_0000_01b3 }
    }

    static func value(key: String, generation: UInt64, maxLength: Int) -> Data {
        var rng = SplitMix64(seed: fnv1a(key) ^ generation &* 0x2545_F491_4F6C_DD1D)
        var out = Data("\(key)|\(generation)|".utf8)
        let tail = Int(rng.next() % UInt64(maxLength))
        let words = (0..<(tail + 7) / 8).map { _ in rng.next() }
        words.withUnsafeBytes { out.append(contentsOf: $0.prefix(tail)) }
        return out
    }

    static func isIntact(_ data: Data, key: String, maxLength: Int) -> Bool {
        let parts = data.prefix(200).split(
            separator: UInt8(ascii: "|"), maxSplits: 2, omittingEmptySubsequences: false)
        guard parts.count == 3, String(decoding: parts[0], as: UTF8.self) == key,
            let generation = UInt64(String(decoding: parts[1], as: UTF8.self))
        else { return false }
        return data == value(key: key, generation: generation, maxLength: maxLength)
    }
}
