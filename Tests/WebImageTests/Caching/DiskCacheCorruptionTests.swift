import Foundation
import Testing

@testable import WebImage

/// A damaged, truncated or foreign file at an entry's path reads as a miss and is removed.
@Suite struct DiskCacheCorruptionTests {
    private func expectMissAndRemoved(
        _ cache: DiskCache, key: String, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        #expect(cache.data(forKey: key) == nil, sourceLocation: sourceLocation)
        #expect(!FileManager.default.fileExists(atPath: cache.cachePath(forKey: key)), sourceLocation: sourceLocation)
    }

    private func damage(_ cache: DiskCache, key: String, _ change: (inout Data) -> Void) throws {
        let url = URL(fileURLWithPath: cache.cachePath(forKey: key))
        var bytes = try Data(contentsOf: url)
        change(&bytes)
        try bytes.write(to: url)
    }

    @Test(arguments: [0, 4, 5, 9, 13, 21, 30, 40, 1000, 2032])
    func flippingAnyByteIsDetected(offset: Int) throws {
        try withDiskCache { cache in
            try cache.setData(testBytes(2000, seed: 7), forKey: "k", metadata: DiskCacheMetadata(etag: "e"))
            try cache.setData(Data("other".utf8), forKey: "other", metadata: nil)
            try damage(cache, key: "k") { $0[offset] ^= 0x40 }
            expectMissAndRemoved(cache, key: "k")
            #expect(cache.data(forKey: "other") == Data("other".utf8))
        }
    }

    @Test(arguments: [0, 1, 23, 24, 33, 500, 2032])
    func truncationIsDetected(length: Int) throws {
        try withDiskCache { cache in
            try cache.setData(testBytes(2000, seed: 8), forKey: "k", metadata: DiskCacheMetadata(etag: "e"))
            try damage(cache, key: "k") { $0 = $0.prefix(length) }
            expectMissAndRemoved(cache, key: "k")
        }
    }

    @Test func appendedBytesAreDetected() throws {
        try withDiskCache { cache in
            try cache.setData(testBytes(100, seed: 9), forKey: "k", metadata: nil)
            try damage(cache, key: "k") { $0.append(0) }
            expectMissAndRemoved(cache, key: "k")
        }
    }

    @Test func foreignFileIsAMiss() throws {
        try withDiskCache { cache in
            // A plain JPEG as an older cache (or SDWebImage) would have written it.
            try Data([0xFF, 0xD8, 0xFF, 0xE0] + [UInt8](repeating: 0, count: 100))
                .write(to: URL(fileURLWithPath: cache.cachePath(forKey: "a.jpg")))
            expectMissAndRemoved(cache, key: "a.jpg")
        }
    }

    @Test func hugeLengthFieldsAreAMissNotACrash() throws {
        try withDiskCache { cache in
            var header = Data("SWIC".utf8) + [1, 0, 0, 0]
            header += [0xFF, 0xFF, 0xFF, 0xFF]  // metadata length
            header += [UInt8](repeating: 0xFF, count: 8)  // data length
            header += [0, 0, 0, 0]
            try header.write(to: URL(fileURLWithPath: cache.cachePath(forKey: "k")))
            expectMissAndRemoved(cache, key: "k")
        }
    }

    @Test func unknownVersionOrFlagsAreAMiss() throws {
        try withDiskCache { cache in
            try cache.setData(Data("v".utf8), forKey: "k", metadata: nil)
            try damage(cache, key: "k") { $0[4] = 2 }
            expectMissAndRemoved(cache, key: "k")
            // Metadata with an unknown presence bit, but a valid CRC: still rejected.
            var metadata = DiskCacheEntryFormat.encodeMetadata(DiskCacheMetadata())
            metadata[0] = 0x80
            #expect(metadata.withUnsafeBytes { DiskCacheEntryFormat.decodeMetadata($0) } == nil)
        }
    }

    @Test func symlinkAtAnEntryPathIsNotFollowed() throws {
        try withDiskCache { cache in
            let target = cache.directory.deletingLastPathComponent().appendingPathComponent("target-\(UUID())")
            defer { try? FileManager.default.removeItem(at: target) }
            let entry = DiskCacheEntryFormat.encodeForTests(Data("secret".utf8))
            try entry.write(to: target)
            try FileManager.default.createSymbolicLink(
                atPath: cache.cachePath(forKey: "k"), withDestinationPath: target.path)
            #expect(cache.data(forKey: "k") == nil)
            #expect(FileManager.default.fileExists(atPath: target.path))
            #expect((try? FileManager.default.destinationOfSymbolicLink(atPath: cache.cachePath(forKey: "k"))) == nil)
        }
    }

    @Test func directoryAtAnEntryPathIsAMiss() throws {
        try withDiskCache { cache in
            try FileManager.default.createDirectory(
                atPath: cache.cachePath(forKey: "k"), withIntermediateDirectories: false)
            #expect(cache.data(forKey: "k") == nil)
            #expect(!cache.containsData(forKey: "k"))
            #expect(cache.totalCount == 0)
            #expect(throws: WebImageError.self) { try cache.setData(Data("x".utf8), forKey: "k", metadata: nil) }
        }
    }
}

extension DiskCacheEntryFormat {
    static func encodeForTests(_ data: Data) -> Data {
        (try? encode(data: data, metadata: DiskCacheMetadata())) ?? Data()
    }
}
