import Foundation

/// The disk part of ``ImageCache/shared`` when its directory cannot be created (no home
/// directory, a read-only or full file system). Every read misses and every write throws
/// ``WebImageError/diskCacheFailure(_:underlying:)`` with the reason, so the shared cache keeps working
/// from memory instead of crashing at first use, and callers that store learn why nothing
/// reaches the disk.
final class UnavailableDiskCache: DiskCaching {
    let reason: String
    let directory: URL

    init(directory: URL, reason: String) {
        self.directory = directory
        self.reason = reason
    }

    private var failure: WebImageError { .diskCacheFailure("no disk cache at \(directory.path): \(reason)") }

    func containsData(forKey key: String) -> Bool { false }
    func data(forKey key: String) -> Data? { nil }
    func entry(forKey key: String) -> DiskCacheEntry? { nil }
    func setData(_ data: Data, forKey key: String, metadata: DiskCacheMetadata?) throws(WebImageError) { throw failure }
    func extendedData(forKey key: String) -> Data? { nil }
    func setExtendedData(_ extendedData: Data?, forKey key: String) throws(WebImageError) { throw failure }
    func removeData(forKey key: String) {}
    func removeAllData() throws(WebImageError) {}
    func removeExpiredData() throws(WebImageError) {}
    func cachePath(forKey key: String) -> String { directory.appendingPathComponent("unavailable").path }
    var totalCount: Int { 0 }
    var totalSize: Int { 0 }
}
