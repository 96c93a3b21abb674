import Foundation
import Testing

@_spi(Internals) @testable import WebImage

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

    @Test(arguments: [0, 4, 5, 9, 13, 17, 25, 31, 33, 40, 1000, 2045])
    func flippingAnyByteIsDetected(offset: Int) throws {
        try withDiskCache { cache in
            try cache.setData(diskCacheTestBytes(2000, seed: 7), forKey: "k", metadata: DiskCacheMetadata(etag: "e"))
            try cache.setData(Data("other".utf8), forKey: "other", metadata: nil)
            try damage(cache, key: "k") { $0[offset] ^= 0x40 }
            expectMissAndRemoved(cache, key: "k")
            #expect(cache.data(forKey: "other") == Data("other".utf8))
        }
    }

    @Test(arguments: [0, 1, 31, 32, 41, 500, 2045])
    func truncationIsDetected(length: Int) throws {
        try withDiskCache { cache in
            try cache.setData(diskCacheTestBytes(2000, seed: 8), forKey: "k", metadata: DiskCacheMetadata(etag: "e"))
            try damage(cache, key: "k") { $0 = $0.prefix(length) }
            expectMissAndRemoved(cache, key: "k")
        }
    }

    @Test func appendedBytesAreDetected() throws {
        try withDiskCache { cache in
            try cache.setData(diskCacheTestBytes(100, seed: 9), forKey: "k", metadata: nil)
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
            header += [0xFF, 0xFF, 0xFF, 0xFF, 0, 0, 0, 0]  // metadata length, reserved
            header += [UInt8](repeating: 0xFF, count: 8)  // data length
            header += [UInt8](repeating: 0, count: 8)
            try header.write(to: URL(fileURLWithPath: cache.cachePath(forKey: "k")))
            expectMissAndRemoved(cache, key: "k")
        }
    }

    @Test func hugeSparseFileIsAMissWithoutReadingIt() throws {
        try withDiskCache { cache in
            let path = cache.cachePath(forKey: "k")
            #expect(FileManager.default.createFile(atPath: path, contents: Data("SWIC".utf8)))
            let handle = try #require(FileHandle(forWritingAtPath: path))
            try handle.truncate(atOffset: 3 << 30)  // 3 GiB, sparse: no disk space used
            try handle.close()
            expectMissAndRemoved(cache, key: "k")
        }
    }

    @Test func unknownVersionOrFlagsAreAMiss() throws {
        try withDiskCache { cache in
            try cache.setData(Data("v".utf8), forKey: "k", metadata: nil)
            try damage(cache, key: "k") { $0[4] = 2 }
            expectMissAndRemoved(cache, key: "k")
            // Metadata with an unknown presence bit, inside an intact file: still rejected.
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
