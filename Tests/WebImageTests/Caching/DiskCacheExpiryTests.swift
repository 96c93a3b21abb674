import Foundation
import Testing

@testable import WebImage

/// Age expiry per expire type, and size trimming (to half the limit, oldest first) on sweeps and
/// on stores. Dates are set with utimensat instead of waiting.
@Suite struct DiskCacheExpiryTests {
    private let now = Date().timeIntervalSince1970
    private let day: TimeInterval = 86_400

    private func config(
        age: TimeInterval = 604_800, size: Int = 0, type: DiskCacheExpireType = .accessDate
    ) -> ImageCacheConfig {
        var config = ImageCacheConfig()
        config.maxDiskAge = age
        config.maxDiskSize = size
        config.diskCacheExpireType = type
        return config
    }

    private func keys(_ cache: DiskCache, _ candidates: [String]) -> [String] {
        candidates.filter { cache.containsData(forKey: $0) }
    }

    @Test func accessDateAgesByLastRead() throws {
        try withDiskCache(config: config(age: 7 * day)) { cache in
            for key in ["old", "fresh"] { try cache.setData(Data(key.utf8), forKey: key, metadata: nil) }
            // Both were written long ago, but "fresh" was read recently.
            for key in ["old", "fresh"] {
                setDiskCacheFileTimes(
                    cache.cachePath(forKey: key), access: now - 30 * day, modification: now - 30 * day)
            }
            setDiskCacheFileTimes(cache.cachePath(forKey: "fresh"), access: now - day, modification: nil)
            try cache.removeExpiredData()
            #expect(keys(cache, ["old", "fresh"]) == ["fresh"])
        }
    }

    @Test func readingSetsTheAccessDateOnly() throws {
        try withDiskCache { cache in
            try cache.setData(Data("x".utf8), forKey: "k", metadata: nil)
            let path = cache.cachePath(forKey: "k")
            setDiskCacheFileTimes(path, access: now - 30 * day, modification: now - 30 * day)
            _ = cache.data(forKey: "k")
            let times = diskCacheFileTimes(path)
            #expect(times.access > now - 60)
            #expect(abs(times.modification - (now - 30 * day)) < 1)
            // Probing existence is not a read of the entry.
            setDiskCacheFileTimes(path, access: now - 30 * day, modification: nil)
            _ = cache.containsData(forKey: "k")
            #expect(diskCacheFileTimes(path).access < now - 29 * day)
        }
    }

    @Test func modificationDateIgnoresReads() throws {
        try withDiskCache(config: config(age: 7 * day, type: .modificationDate)) { cache in
            for key in ["old", "new"] { try cache.setData(Data(key.utf8), forKey: key, metadata: nil) }
            setDiskCacheFileTimes(cache.cachePath(forKey: "old"), access: now, modification: now - 8 * day)
            setDiskCacheFileTimes(cache.cachePath(forKey: "new"), access: now - 30 * day, modification: now - 6 * day)
            try cache.removeExpiredData()
            #expect(keys(cache, ["old", "new"]) == ["new"])
        }
    }

    // Creation and change dates cannot be set back, so these check the two ends of the age limit.
    @Test(arguments: [DiskCacheExpireType.creationDate, .changeDate, .accessDate, .modificationDate])
    func zeroAgeExpiresEverythingAndNegativeNothing(type: DiskCacheExpireType) throws {
        try withDiskCache(config: config(age: -1, type: type)) { cache in
            for index in 0..<3 { try cache.setData(Data([UInt8(index)]), forKey: "k\(index)", metadata: nil) }
            try cache.removeExpiredData()
            #expect(cache.totalCount == 3)
        }
        try withDiskCache(config: config(age: 0, type: type)) { cache in
            for index in 0..<3 { try cache.setData(Data([UInt8(index)]), forKey: "k\(index)", metadata: nil) }
            try cache.removeExpiredData()
            #expect(cache.totalCount == 0)
            #expect(cache.totalSize == 0)
        }
    }

    @Test func creationDateIsRecentForANewEntry() throws {
        try withDiskCache(config: config(age: 3600, type: .creationDate)) { cache in
            try cache.setData(Data("x".utf8), forKey: "k", metadata: nil)
            // Even with old access and modification times, a birth time (or, without statx, the
            // modification time it falls back to) decides.
            setDiskCacheFileTimes(cache.cachePath(forKey: "k"), access: now - 30 * day, modification: nil)
            try cache.removeExpiredData()
            #expect(cache.containsData(forKey: "k"))
        }
    }

    /// Ten 1041-byte entries (1000 bytes of data), k0 oldest.
    private func fillTen(_ cache: DiskCache) throws {
        for index in 0..<10 {
            try cache.setData(diskCacheTestBytes(1000, seed: UInt64(index)), forKey: "k\(index)", metadata: nil)
            setDiskCacheFileTimes(
                cache.cachePath(forKey: "k\(index)"), access: now - Double(100 - index) * 60, modification: nil)
        }
    }

    @Test func sweepTrimsOldestFirstToUnderHalfTheLimit() throws {
        try withDiskCache(config: config(size: 0)) { cache in
            try fillTen(cache)
            // Same directory, now with a 6000-byte limit: 10410 bytes must go under 3000.
            let limited = try DiskCache(directory: cache.directory, config: config(size: 6000))
            try limited.removeExpiredData()
            let all = (0..<10).map { "k\($0)" }
            #expect(keys(limited, all) == ["k8", "k9"])
            #expect(limited.totalSize == 2 * 1041)
        }
    }

    @Test func storeOverTheLimitTrimsToHalf() throws {
        try withDiskCache(config: config(size: 11_000)) { cache in
            try fillTen(cache)
            #expect(cache.totalCount == 10)  // 10410 bytes: under the limit
            try cache.setData(diskCacheTestBytes(1000, seed: 99), forKey: "new", metadata: nil)
            // 11451 > 11000: the oldest go until under 5500 (5 entries of 1041 bytes).
            let all = (0..<10).map { "k\($0)" } + ["new"]
            #expect(keys(cache, all) == ["k6", "k7", "k8", "k9", "new"])
            #expect(cache.totalSize == 5 * 1041)
        }
    }

    @Test func storeTrimNoticesFilesAddedByAnotherWriter() throws {
        try withDiskCache(config: config(size: 5000)) { cache in
            try cache.setData(diskCacheTestBytes(1000, seed: 1), forKey: "mine", metadata: nil)
            // Another process (here: another instance) fills the directory behind our back.
            let other = try DiskCache(directory: cache.directory)
            for index in 0..<4 {
                try other.setData(diskCacheTestBytes(1000, seed: UInt64(index)), forKey: "o\(index)", metadata: nil)
            }
            for (index, key) in ["mine", "o0", "o1", "o2", "o3"].enumerated() {
                setDiskCacheFileTimes(
                    cache.cachePath(forKey: key), access: now - Double(10 - index) * 60, modification: nil)
            }
            // Our running total says 1041; the store's trim rescans only when over, so go over.
            try cache.setData(diskCacheTestBytes(4000, seed: 5), forKey: "big", metadata: nil)
            #expect(cache.totalSize < 2500)
            #expect(!cache.containsData(forKey: "mine"))
        }
    }

    @Test func leftoverTemporaryFilesAreNotEntriesAndAreSwept() throws {
        try withDiskCache { cache in
            try cache.setData(Data("x".utf8), forKey: "k", metadata: nil)
            // One from a writer that is gone (pid 2^22 + 1 is above Linux's pid_max default),
            // one from a live writer (this process), one from a live writer but very old.
            let dead = cache.directory.appendingPathComponent(".tmp-4194305-abc")
            let live = cache.directory.appendingPathComponent(".tmp-\(getpid())-def")
            let stale = cache.directory.appendingPathComponent(".tmp-\(getpid())-123")
            for url in [dead, live, stale] { try diskCacheTestBytes(5000, seed: 1).write(to: url) }
            setDiskCacheFileTimes(stale.path, access: now - 2 * day, modification: now - 2 * day)
            #expect(cache.totalCount == 1)
            #expect(cache.totalSize == 32 + 9 + 1)
            try cache.removeExpiredData()
            #expect(
                diskCacheDirectoryListing(cache.directory)
                    == [live.lastPathComponent, "\(DiskCacheFileNames.fileName(forKey: "k"))"].sorted())
        }
    }
}
