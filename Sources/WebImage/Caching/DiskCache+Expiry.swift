import CWebImageShims
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

extension DiskCache {
    /// One entry file found by a directory scan.
    struct ScannedEntry {
        var path: String
        var size: Int
        /// The date ``ImageCacheConfig/diskCacheExpireType`` ages it by (seconds since 1970).
        var date: TimeInterval
    }

    /// Temporary files younger than this whose writer may still be alive are left alone.
    static let temporaryGracePeriod: TimeInterval = 3600

    public func removeExpiredData() throws(WebImageError) {
        let now = Date().timeIntervalSince1970
        removeStaleTemporaryFiles(now: now)
        var entries = scanEntries(dates: true)
        if config.maxDiskAge >= 0 {
            let cutoff = now - config.maxDiskAge
            entries.removeAll { entry in
                guard entry.date <= cutoff else { return false }
                unlink(entry.path)
                return true
            }
        }
        var total = entries.reduce(0) { $0 + $1.size }
        if config.maxDiskSize > 0, total > config.maxDiskSize {
            total = trim(entries, from: total)
        }
        state.withLock { $0.totalSize = total }
    }

    /// Deletes the oldest of `entries` until the total is under half the limit (SDWebImage's
    /// target); returns the remaining total.
    func trim(_ entries: [ScannedEntry], from total: Int) -> Int {
        var total = total
        let target = config.maxDiskSize / 2
        for entry in entries.sorted(by: { $0.date < $1.date }) {
            guard total >= target, total > 0 else { break }
            if unlink(entry.path) == 0 || errno == ENOENT { total -= entry.size }
        }
        return max(0, total)
    }

    /// The entry files in the directory (temporary and foreign files are skipped). An unreadable
    /// or vanished directory scans as empty.
    func scanEntries(dates: Bool) -> [ScannedEntry] {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: directoryPath) else { return [] }
        var entries = [ScannedEntry]()
        entries.reserveCapacity(names.count)
        for name in names where DiskCacheFileNames.isEntryName(name) {
            let path = path(ofFile: name)
            guard let info = DiskCacheFileIO.status(path), DiskCacheFileIO.isRegularFile(info) else { continue }
            let date = dates ? expiryDate(of: info, path: path) : 0
            entries.append(ScannedEntry(path: path, size: Int(info.st_size), date: date))
        }
        return entries
    }

    private func expiryDate(of info: stat, path: String) -> TimeInterval {
        switch config.diskCacheExpireType {
        case .accessDate: return DiskCacheFileIO.seconds(info.st_atim)
        case .modificationDate: return DiskCacheFileIO.seconds(info.st_mtim)
        case .changeDate: return DiskCacheFileIO.seconds(info.st_ctim)
        case .creationDate:
            var seconds: Int64 = 0
            var nanoseconds: Int64 = 0
            // Birth time needs statx and a file system that records it; else modification time.
            guard cwi_birth_time(path, &seconds, &nanoseconds) == 0 else {
                return DiskCacheFileIO.seconds(info.st_mtim)
            }
            return TimeInterval(seconds) + TimeInterval(nanoseconds) / 1_000_000_000
        }
    }

    /// Removes temporary files left by killed writers: those whose writing process is gone, and
    /// any older than the grace period (a reused process id must not keep one forever).
    private func removeStaleTemporaryFiles(now: TimeInterval) {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: directoryPath) else { return }
        for name in names where name.hasPrefix(DiskCacheFileNames.temporaryPrefix) {
            let path = path(ofFile: name)
            guard let info = DiskCacheFileIO.status(path) else { continue }
            let isOld = now - DiskCacheFileIO.seconds(info.st_mtim) > Self.temporaryGracePeriod
            var ownerGone = false
            if let owner = DiskCacheFileNames.temporaryOwner(name), owner != getpid(), owner > 0 {
                ownerGone = kill(owner, 0) != 0 && errno == ESRCH
            }
            if isOld || ownerGone { unlink(path) }
        }
    }
}
