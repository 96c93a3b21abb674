import Foundation
import Testing
import WebImageTestOrigin

@testable import WebImage

@Suite struct DiskCacheFailureTests {
    @Test func vanishedDirectoryMissesThenIsRecreatedOnWrite() throws {
        try withDiskCache { cache in
            try cache.setData(Data("a".utf8), forKey: "a", metadata: nil)
            try FileManager.default.removeItem(at: cache.directory)
            #expect(cache.data(forKey: "a") == nil)
            #expect(!cache.containsData(forKey: "a"))
            #expect(cache.totalCount == 0 && cache.totalSize == 0)
            try cache.removeExpiredData()
            try cache.setData(Data("b".utf8), forKey: "b", metadata: nil)
            #expect(cache.data(forKey: "b") == Data("b".utf8))
            #expect(cache.totalCount == 1)
        }
    }

    @Test func vanishedDirectoryIsRecreatedByRemoveAll() throws {
        try withDiskCache { cache in
            try FileManager.default.removeItem(at: cache.directory)
            try cache.removeAllData()
            #expect(FileManager.default.fileExists(atPath: cache.directory.path))
        }
    }

    @Test func failedStoreLeavesEveryEntryIntact() throws {
        try withTemporaryDiskCacheDirectory { url in
            // The child sets RLIMIT_FSIZE (a full disk's EFBIG), stores past it, and checks the
            // error, the old entry under that key, the other entry and that no file is left.
            let result = try CacheTorture.run(["fulldisk", url.path])
            #expect(result.status == 0, "\(result.output)")
            #expect(result.output.contains("failure: cannot store"))
            #expect(result.output.hasSuffix("ok\n"))
            let cache = try DiskCache(directory: url)
            #expect(cache.data(forKey: "k0") == CacheTortureValue.value(key: "k0", generation: 1, maxLength: 4 << 10))
            #expect(cache.data(forKey: "k1") == CacheTortureValue.value(key: "k1", generation: 2, maxLength: 4 << 10))
            #expect(diskCacheDirectoryListing(url).count == 2)
        }
    }
}
