import Foundation
import Testing

@_spi(Internals) @testable import WebImage

@Suite struct DiskCacheRoundTripTests {
    @Test func dataAndMetadataReadBackAsStored() throws {
        try withDiskCache { cache in
            let data = diskCacheTestBytes(5000, seed: 1)
            let metadata = DiskCacheMetadata(
                contentType: "image/png", etag: "\"abc\"", lastModified: "Wed, 21 Oct 2015 07:28:00 GMT",
                storeDate: Date(timeIntervalSince1970: 1_700_000_000.25),
                expirationDate: Date(timeIntervalSince1970: 1_800_000_000), extendedData: Data([1, 2, 3]))
            try cache.setData(data, forKey: "https://example.com/a.png", metadata: metadata)
            let entry = try #require(cache.entry(forKey: "https://example.com/a.png"))
            #expect(entry.data == data)
            #expect(entry.metadata == metadata)
            #expect(cache.data(forKey: "https://example.com/a.png") == data)
            #expect(cache.containsData(forKey: "https://example.com/a.png"))
        }
    }

    /// The store writes the header and the body separately (no joined copy); the file must still
    /// be exactly the format's bytes, in order, for bodies small and large.
    @Test(arguments: [0, 1, 5000, 300_000])
    func theFileIsExactlyTheEncodedEntry(size: Int) throws {
        try withDiskCache { cache in
            let data = diskCacheTestBytes(size, seed: UInt64(size) + 7)
            let metadata = DiskCacheMetadata(
                contentType: "image/jpeg", etag: "\"e\"", storeDate: Date(timeIntervalSince1970: 1_700_000_000),
                extendedData: Data([9, 8, 7]))
            try cache.setData(data, forKey: "https://example.com/b.jpg", metadata: metadata)
            let file = try Data(contentsOf: URL(fileURLWithPath: cache.cachePath(forKey: "https://example.com/b.jpg")))
            #expect(file == (try DiskCacheEntryFormat.encode(data: data, metadata: metadata)))
            #expect(DiskCacheEntryFormat.decode(file)?.data == data)
        }
    }

    @Test func nilMetadataRecordsOnlyTheStoreDate() throws {
        try withDiskCache { cache in
            let before = Date()
            try cache.setData(Data("x".utf8), forKey: "k", metadata: nil)
            let metadata = try #require(cache.entry(forKey: "k")).metadata
            #expect(metadata.contentType == nil && metadata.etag == nil && metadata.extendedData == nil)
            #expect(metadata.storeDate >= before.addingTimeInterval(-1) && metadata.storeDate <= Date())
        }
    }

    @Test func emptyDataIsAnEntry() throws {
        try withDiskCache { cache in
            try cache.setData(Data(), forKey: "empty", metadata: nil)
            #expect(cache.data(forKey: "empty") == Data())
            #expect(cache.totalCount == 1)
        }
    }

    @Test func missingKeyIsAMiss() throws {
        try withDiskCache { cache in
            #expect(cache.data(forKey: "nope") == nil)
            #expect(cache.entry(forKey: "nope") == nil)
            #expect(cache.extendedData(forKey: "nope") == nil)
            #expect(!cache.containsData(forKey: "nope"))
            cache.removeData(forKey: "nope")
        }
    }

    @Test func storingAgainReplacesTheEntry() throws {
        try withDiskCache { cache in
            try cache.setData(diskCacheTestBytes(3000, seed: 1), forKey: "k", metadata: DiskCacheMetadata(etag: "1"))
            try cache.setData(diskCacheTestBytes(10, seed: 2), forKey: "k", metadata: DiskCacheMetadata(etag: "2"))
            let entry = try #require(cache.entry(forKey: "k"))
            #expect(entry.data == diskCacheTestBytes(10, seed: 2))
            #expect(entry.metadata.etag == "2")
            #expect(cache.totalCount == 1)
            #expect(diskCacheDirectoryListing(cache.directory).count == 1)
        }
    }

    /// New entries are renamed in without a stat (the rename refuses to replace); a
    /// replacement must still take the old entry's bytes off the running total.
    @Test func theRunningSizeCountsNewEntriesAndReplacementsOnce() throws {
        try withDiskCache { cache in
            let scanned = cache.totalSize
            #expect(scanned == 0)
            try cache.setData(diskCacheTestBytes(3000, seed: 1), forKey: "a", metadata: nil)
            try cache.setData(diskCacheTestBytes(500, seed: 2), forKey: "b", metadata: nil)
            for round in 0..<5 {
                try cache.setData(diskCacheTestBytes(100 * (round + 1), seed: 3), forKey: "a", metadata: nil)
            }
            let tracked = cache.state.withLock { $0.totalSize }
            #expect(tracked == cache.totalSize)
            let onDisk = try ["a", "b"].map { key in
                try #require(FileManager.default.attributesOfItem(atPath: cache.cachePath(forKey: key))[.size] as? Int)
            }
            #expect(tracked == onDisk[0] + onDisk[1])
            #expect(diskCacheDirectoryListing(cache.directory).count == 2)
        }
    }

    /// An empty body reaches `writev` as a zero-length part with no base address.
    @Test func anEmptyBodyRoundTripsWithItsMetadata() throws {
        try withDiskCache { cache in
            try cache.setData(Data(), forKey: "empty", metadata: DiskCacheMetadata(etag: "e"))
            let entry = try #require(cache.entry(forKey: "empty"))
            #expect(entry.data.isEmpty)
            #expect(entry.metadata.etag == "e")
        }
    }

    @Test func removeDataDeletesOnlyThatEntry() throws {
        try withDiskCache { cache in
            try cache.setData(Data("a".utf8), forKey: "a", metadata: nil)
            try cache.setData(Data("b".utf8), forKey: "b", metadata: nil)
            cache.removeData(forKey: "a")
            #expect(cache.data(forKey: "a") == nil)
            #expect(cache.data(forKey: "b") == Data("b".utf8))
            #expect(cache.totalCount == 1)
        }
    }

    @Test func totalsCountEntryFilesWithTheirHeaders() throws {
        try withDiskCache { cache in
            #expect(cache.totalSize == 0 && cache.totalCount == 0)
            try cache.setData(diskCacheTestBytes(1000, seed: 1), forKey: "a", metadata: nil)
            try cache.setData(
                diskCacheTestBytes(2000, seed: 2), forKey: "b.png", metadata: DiskCacheMetadata(etag: "e"))
            let sizes = try ["a", "b.png"].map { key in
                try #require(FileManager.default.attributesOfItem(atPath: cache.cachePath(forKey: key))[.size] as? Int)
            }
            #expect(cache.totalCount == 2)
            #expect(cache.totalSize == sizes[0] + sizes[1])
            // 32-byte header + 9 bytes of metadata (flags, store date) + the data.
            #expect(sizes[0] == 32 + 9 + 1000)
            #expect(sizes[1] == 32 + 9 + 5 + 2000)
        }
    }

    @Test func removeAllDataEmptiesAndRecreatesTheDirectory() throws {
        try withDiskCache { cache in
            for index in 0..<5 { try cache.setData(Data([UInt8(index)]), forKey: "k\(index)", metadata: nil) }
            try Data("stray".utf8).write(to: cache.directory.appendingPathComponent("stray"))
            try cache.removeAllData()
            #expect(diskCacheDirectoryListing(cache.directory).isEmpty)
            #expect(cache.totalCount == 0 && cache.totalSize == 0)
            try cache.setData(Data("again".utf8), forKey: "k0", metadata: nil)
            #expect(cache.data(forKey: "k0") == Data("again".utf8))
        }
    }

    @Test func directoryIsCreatedPrivate() throws {
        try withTemporaryDiskCacheDirectory { url in
            let nested = url.appendingPathComponent("a/b")
            _ = try DiskCache(directory: nested)
            let mode = try #require(
                FileManager.default.attributesOfItem(atPath: nested.path)[.posixPermissions] as? Int)
            #expect(mode & 0o777 == 0o700)
        }
    }

    @Test func aFileWhereTheDirectoryShouldBeIsATypedFailure() throws {
        try withTemporaryDiskCacheDirectory { url in
            try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
            let file = url.appendingPathComponent("file")
            try Data("x".utf8).write(to: file)
            #expect(throws: WebImageError.self) { try DiskCache(directory: file) }
        }
    }
}
