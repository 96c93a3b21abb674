import Foundation
import Testing
import WebImageTestOrigin

@testable import WebImage

#if canImport(Glibc)
    import Glibc
#endif

/// Acceptance tests with real processes: writers killed mid-store, and two processes sharing a
/// directory. Values are self-describing (`key|generation|bytes`), so a torn one is caught.
@Suite struct DiskCacheCrashTests {
    @Test func sigkillMidWriteNeverLeavesATornEntry() throws {
        try withTemporaryDiskCacheDirectory { url in
            var rng = SplitMix64(seed: 0xC0FFEE)
            for round in 0..<5 {
                let writer = try CacheTorture.start(["write", url.path, "\(round + 1)", "40"])
                // Wait until it has stored something, then kill it somewhere 20–200 ms later.
                #expect(writer.readLine() == "ready")
                usleep(UInt32(20_000 + rng.next() % 180_000))
                writer.send(SIGKILL)
                #expect(writer.waitForExit() == .signalled(SIGKILL))
            }
            let cache = try DiskCache(directory: url)
            var intact = 0
            for index in 0..<40 {
                guard let data = cache.data(forKey: "k\(index)") else { continue }
                #expect(CacheTortureValue.isIntact(data, key: "k\(index)", maxLength: 256 << 10), "k\(index)")
                intact += 1
            }
            #expect(intact > 0)
            #expect(cache.totalCount == intact)
            // Killed writers' temporary files are not entries, and a sweep removes them.
            try cache.removeExpiredData()
            #expect(diskCacheDirectoryListing(url).allSatisfy { DiskCacheFileNames.isEntryName($0) })
            #expect(diskCacheDirectoryListing(url).count == intact)
        }
    }

    /// Thousands of small entries, each writer killed after a random number of stores (so the
    /// count does not depend on the machine's speed) plus a random sub-millisecond delay.
    @Test func sigkilledWritersOfThousandsOfEntriesLeaveOnlyIntactOnes() throws {
        try withTemporaryDiskCacheDirectory { url in
            var rng = SplitMix64(seed: 0xDEAD_BEEF)
            let keys = 4000
            let maxLength = 8 << 10
            var stored = 0
            for round in 0..<6 {
                let writer = try CacheTorture.start(
                    ["write", url.path, "\(round + 100)", "\(keys)", "\(maxLength)"])
                #expect(writer.readLine() == "ready")
                let target = 500 + Int(rng.next() % 1000)
                while let count = Int(writer.readLine()), count < target {}
                usleep(UInt32(rng.next() % 800))
                writer.send(SIGKILL)
                #expect(writer.waitForExit() == .signalled(SIGKILL))
                stored += target
            }
            #expect(stored >= 3000)
            let cache = try DiskCache(directory: url)
            var intact = 0
            for index in 0..<keys {
                guard let data = cache.data(forKey: "k\(index)") else { continue }
                #expect(CacheTortureValue.isIntact(data, key: "k\(index)", maxLength: maxLength), "k\(index)")
                intact += 1
            }
            #expect(intact >= 1000, "only \(intact) entries read back")
            #expect(cache.totalCount == intact)
            try cache.removeExpiredData()
            #expect(diskCacheDirectoryListing(url).allSatisfy { DiskCacheFileNames.isEntryName($0) })
            #expect(diskCacheDirectoryListing(url).count == intact)
        }
    }

    @Test func twoProcessesHammeringOneDirectoryNeverSeeCorruption() throws {
        try withTemporaryDiskCacheDirectory { url in
            // 48 keys of up to 64 KiB against a 1 MiB limit: both processes trim constantly.
            let arguments = { (seed: Int) in ["hammer", url.path, "\(seed)", "3000", "48", "\(1 << 20)"] }
            let first = try CacheTorture.start(arguments(1))
            let second = try CacheTorture.start(arguments(2))
            let firstReport = String(decoding: first.readToEnd().output, as: UTF8.self)
            let secondReport = String(decoding: second.readToEnd().output, as: UTF8.self)
            #expect(first.waitForExit() == .exited(0), "\(firstReport)")
            #expect(second.waitForExit() == .exited(0), "\(secondReport)")
            for report in [firstReport, secondReport] {
                let hits = report.split(whereSeparator: \.isWhitespace).first { $0.hasPrefix("hits=") }.flatMap {
                    Int($0.dropFirst(5))
                }
                #expect((hits ?? 0) > 0, "\(report)")
            }
            // Whatever is left reads back intact, within the limit.
            let verify = try CacheTorture.run(["verify", url.path, "48", "\(64 << 10)"])
            #expect(verify.status == 0, "\(verify.output)")
            var config = ImageCacheConfig()
            config.maxDiskSize = 1 << 20
            let cache = try DiskCache(directory: url, config: config)
            try cache.removeExpiredData()
            #expect(cache.totalSize <= 1 << 20)
            #expect(diskCacheDirectoryListing(url).allSatisfy { DiskCacheFileNames.isEntryName($0) })
        }
    }
}
