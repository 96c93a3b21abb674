import Foundation
import Testing

@testable import WebImage

#if canImport(Glibc)
    import Glibc
#endif

/// Drops `path`'s pages from the page cache: written back first, then discarded
/// (`POSIX_FADV_DONTNEED` discards only clean pages).
private func evictFromPageCache(_ path: String) throws {
    let fd = open(path, O_RDONLY)
    try #require(fd >= 0, "open \(path)")
    defer { close(fd) }
    try #require(fsync(fd) == 0)
    try #require(posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED) == 0)
}

/// Whether files under the temporary directory live on a tmpfs, whose pages are always in memory
/// (nothing can be evicted there, so a read never waits): the file system of the longest mount
/// point in /proc/mounts that holds it.
private let temporaryFilesLiveInMemory: Bool = {
    let directory = URL(fileURLWithPath: NSTemporaryDirectory()).resolvingSymlinksInPath().path
    guard let mounts = try? String(contentsOfFile: "/proc/mounts", encoding: .utf8) else { return false }
    let holding = mounts.split(separator: "\n").compactMap { line -> (point: String, type: Substring)? in
        let fields = line.split(separator: " ")
        guard fields.count > 2 else { return nil }
        let point = String(fields[1])
        let holds = directory == point || directory.hasPrefix(point == "/" ? "/" : point + "/")
        return holds ? (point, fields[2]) : nil
    }
    return holding.max { $0.point.count < $1.point.count }?.type == "tmpfs"
}()

@Suite("Disk hits the page cache holds are read on a CPU thread; cold ones on the file threads")
struct DiskCacheResidentReadTests {
    @Test("an entry just written is resident: read whole, with its bytes and metadata")
    func hotEntryIsReadWithoutWaiting() throws {
        try withDiskCache { cache in
            let bytes = diskCacheTestBytes(200_000, seed: 7)
            try cache.setData(bytes, forKey: "hot", metadata: DiskCacheMetadata(etag: "e"))
            guard case .entry(let entry) = cache.residentEntry(forKey: "hot") else {
                Issue.record("a freshly written entry was not read from the page cache")
                return
            }
            #expect(entry.data == bytes)
            #expect(entry.metadata.etag == "e")
        }
    }

    @Test(
        "an entry evicted from the page cache answers notResident without reading it; entry(forKey:) still reads it",
        .enabled(if: !temporaryFilesLiveInMemory, "tmpfs keeps every page in memory"))
    func coldEntryIsLeftToTheFileThreads() throws {
        try withDiskCache { cache in
            let bytes = diskCacheTestBytes(300_000, seed: 8)
            try cache.setData(bytes, forKey: "cold", metadata: nil)
            try evictFromPageCache(cache.cachePath(forKey: "cold"))
            guard case .notResident = cache.residentEntry(forKey: "cold") else {
                Issue.record("an evicted entry was read as if resident")
                return
            }
            #expect(cache.entry(forKey: "cold")?.data == bytes)
            // The blocking read brought it back into the page cache.
            guard case .entry = cache.residentEntry(forKey: "cold") else {
                Issue.record("an entry just read is not resident")
                return
            }
        }
    }

    @Test("a missing key answers none")
    func missingKeyIsNone() throws {
        try withDiskCache { cache in
            guard case .none = cache.residentEntry(forKey: "absent") else {
                Issue.record("a missing key did not answer none")
                return
            }
        }
    }

    @Test("a corrupt resident entry is removed and answers none, and the cache's size drops")
    func corruptResidentEntryIsRemoved() throws {
        try withDiskCache { cache in
            try cache.setData(diskCacheTestBytes(5_000, seed: 9), forKey: "bad", metadata: nil)
            let path = cache.cachePath(forKey: "bad")
            try Data("not an entry".utf8).write(to: URL(fileURLWithPath: path))
            guard case .none = cache.residentEntry(forKey: "bad") else {
                Issue.record("a corrupt entry did not answer none")
                return
            }
            #expect(!FileManager.default.fileExists(atPath: path))
            #expect(cache.totalCount == 0)
        }
    }

    @Test(
        "ImageCache: a cold disk hit decodes through the file threads, a hot one on a CPU thread, both the same pixels",
        .enabled(if: !temporaryFilesLiveInMemory, "tmpfs keeps every page in memory"))
    func imageCacheReadsColdAndHotHits() async throws {
        let directory = temporaryURL("imagecache-resident")
        defer { try? FileManager.default.removeItem(at: directory) }
        let cache = try ImageCache(directory: directory)
        let jpeg = try Fixtures.data("jpeg/photo_800x600.jpg")
        let key = "https://x/photo.jpg"
        try cache.storeImageDataToDisk(jpeg, forKey: key)
        try evictFromPageCache(try #require(cache.cachePath(forKey: key)))
        var context = WebImageContext()
        context.storeCacheType = ImageCacheType.none
        let cold = try await cache.queryImage(forKey: key, context: context)
        let coldImage = try #require(cold.image)
        #expect(cold.cacheType == .disk && cold.data == jpeg)
        #expect(coldImage.bitmap.size == PixelSize(width: 800, height: 600))
        let hot = try await cache.queryImage(forKey: key, context: context)
        let hotImage = try #require(hot.image)
        #expect(hot.cacheType == .disk && hotImage.bitmap.size == coldImage.bitmap.size)
        #expect(hotImage.bitmap.pixels == coldImage.bitmap.pixels)
    }
}
