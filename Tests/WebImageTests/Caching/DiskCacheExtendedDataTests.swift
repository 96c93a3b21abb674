import Foundation
import Testing

@testable import WebImage

@Suite struct DiskCacheExtendedDataTests {
    @Test func setReplaceAndRemoveKeepTheData() throws {
        try withDiskCache { cache in
            let data = diskCacheTestBytes(3000, seed: 3)
            let stored = DiskCacheMetadata(etag: "e", storeDate: Date(timeIntervalSince1970: 1_600_000_000))
            try cache.setData(data, forKey: "k", metadata: stored)
            #expect(cache.extendedData(forKey: "k") == nil)

            try cache.setExtendedData(Data("one".utf8), forKey: "k")
            #expect(cache.extendedData(forKey: "k") == Data("one".utf8))

            try cache.setExtendedData(Data("two, longer".utf8), forKey: "k")
            #expect(cache.extendedData(forKey: "k") == Data("two, longer".utf8))

            try cache.setExtendedData(nil, forKey: "k")
            #expect(cache.extendedData(forKey: "k") == nil)

            let entry = try #require(cache.entry(forKey: "k"))
            #expect(entry.data == data)
            #expect(entry.metadata == stored)
            #expect(diskCacheDirectoryListing(cache.directory).count == 1)
        }
    }

    @Test func extendedDataOfAMissingEntryIsIgnored() throws {
        try withDiskCache { cache in
            try cache.setExtendedData(Data("x".utf8), forKey: "missing")
            #expect(cache.extendedData(forKey: "missing") == nil)
            #expect(cache.totalCount == 0)
        }
    }

    @Test func storingNewDataDropsTheOldExtendedData() throws {
        try withDiskCache { cache in
            try cache.setData(Data("a".utf8), forKey: "k", metadata: DiskCacheMetadata(extendedData: Data([9])))
            #expect(cache.extendedData(forKey: "k") == Data([9]))
            try cache.setData(Data("b".utf8), forKey: "k", metadata: nil)
            #expect(cache.extendedData(forKey: "k") == nil)
        }
    }
}
