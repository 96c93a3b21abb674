import Foundation
import Testing

@testable import WebImage

@Suite struct DiskCacheFileNameTests {
    private func name(_ key: String) -> String { DiskCacheFileNames.fileName(forKey: key) }
    private func ext(_ key: String) -> String { (name(key) as NSString).pathExtension }

    @Test func nameIsTheLowercaseSHA256OfTheKey() {
        #expect(name("abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(name("") == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
    }

    @Test func urlKeysKeepTheirPathExtension() {
        #expect(ext("https://example.com/image.jpg") == "jpg")
        #expect(ext("TestImageKey.png") == "png")
    }

    @Test func dottedQueryGivesNoExtension() {
        let key =
            "https://maps.googleapis.com/maps/api/staticmap?center=48.8566,2.3522&format=png&maptype=roadmap&scale=2&size=375x200&zoom=15"
        #expect(ext(key) == "")
        #expect(name(key).count == 64)
    }

    @Test func longQueryKeepsThePathExtension() {
        let key =
            "https://imggen.alicdn.com/3b11cea896a9438329d85abfb07b30a8.jpg?aid=tanx&tid=1166&m=%7B%22img_url%22%3A%22https%3A%2F%2Fgma.alicdn.com%2Fbao%2Fuploaded%2Fi4%2F1695306010722305097%2FTB2S2KjkHtlpuFjSspoXXbcDpXa_%21%210-saturn_solar.jpg_sum.jpg%22%7D&size=640x246"
        #expect(ext(key) == "jpg")
    }

    @Test func overlongExtensionIsDropped() {
        let key = "https://imggen.alicdn.com/3b11cea896a9438329d85abfb07b30a8.jpg" + String(repeating: "a", count: 400)
        #expect(ext(key) == "")
        // The limit is NAME_MAX minus the 64 digits and the dot, in UTF-8 bytes.
        #expect(ext("x." + String(repeating: "b", count: 190)).count == 190)
        #expect(ext("x." + String(repeating: "b", count: 191)) == "")
        #expect(ext("x." + String(repeating: "é", count: 96)) == "")
        #expect(name("x." + String(repeating: "é", count: 95)).utf8.count == 255)
    }

    @Test func nulAndColonAreStrippedFromTheExtension() {
        // A percent-encoded NUL decodes into the URL's path extension; SDWebImage strips it.
        #expect(ext("https://example.com/image.jpg%0000") == "jpg00")
        #expect(ext("image.jpg\0") == "jpg")
        #expect(ext("https://example.com/image.j:pg") == "jpg")
        #expect(ext("image.\0:") == "")
    }

    @Test func hostileKeysStayInsideTheDirectory() throws {
        let keys = [
            "../../etc/passwd", "../x.png", "/absolute/path.png", "a/../../b.gif", "..", ".", "",
            "https://example.com/x.%2F..%2F..%2Fetc", "https://example.com/%2E%2E%2F%2E%2E%2Fpasswd.png",
            String(repeating: "k", count: 100_000), "key\0with\0nul", "\u{FEFF}ünïcødé.wébp",
        ]
        try withDiskCache { cache in
            for (index, key) in keys.enumerated() {
                let fileName = name(key)
                #expect(!fileName.contains("/"))
                #expect(!fileName.contains("\0"))
                #expect(fileName.utf8.count <= 255)
                #expect(DiskCacheFileNames.isEntryName(fileName))
                let path = cache.cachePath(forKey: key)
                #expect((path as NSString).deletingLastPathComponent == cache.directory.path)
                try cache.setData(Data([UInt8(index)]), forKey: key, metadata: nil)
                #expect(cache.data(forKey: key) == Data([UInt8(index)]))
            }
            #expect(cache.totalCount == keys.count)
            #expect(diskCacheDirectoryListing(cache.directory).count == keys.count)
        }
    }

    @Test func keysDifferingAfterANulHaveDifferentFiles() {
        // SDWebImage hashed the C string, so "a\0b" and "a" collided; the UTF-8 bytes do not.
        #expect(name("a\0b") != name("a"))
    }

    @Test func onlyHexNamesAreEntries() {
        let hex = String(repeating: "a", count: 64)
        #expect(DiskCacheFileNames.isEntryName(hex))
        #expect(DiskCacheFileNames.isEntryName(hex + ".png"))
        #expect(!DiskCacheFileNames.isEntryName(hex + "x"))
        #expect(!DiskCacheFileNames.isEntryName(String(repeating: "A", count: 64)))
        #expect(!DiskCacheFileNames.isEntryName(".tmp-12-abc"))
        #expect(!DiskCacheFileNames.isEntryName("README"))
        #expect(DiskCacheFileNames.temporaryOwner(DiskCacheFileNames.temporaryName()) == getpid())
    }

    @Test func defaultDirectoryFollowsXDG() {
        let xdg = DiskCache.defaultDirectory(
            namespace: "ns", environment: ["XDG_CACHE_HOME": "/x/cache", "HOME": "/h"], configured: nil)
        #expect(xdg.path == "/x/cache/swift-web-image/ns")
        // A relative XDG_CACHE_HOME is invalid by the spec and ignored.
        let relative = DiskCache.defaultDirectory(
            namespace: "ns", environment: ["XDG_CACHE_HOME": "rel", "HOME": "/h"], configured: nil)
        #expect(relative.path == "/h/.cache/swift-web-image/ns")
        let home = DiskCache.defaultDirectory(namespace: "ns", environment: ["HOME": "/h"], configured: nil)
        #expect(home.path == "/h/.cache/swift-web-image/ns")
    }

    @Test func aSetDefaultDiskCacheDirectoryHoldsTheNamespacesOfCachesMadeAfterIt() throws {
        let base = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: base) }
        // Only this test sets the process-wide default; the others here pass theirs explicitly.
        ImageCacheConfig.defaultDiskCacheDirectory = base
        let cache: ImageCache
        do {
            defer { ImageCacheConfig.defaultDiskCacheDirectory = nil }
            #expect(DiskCache.defaultDirectory(namespace: "../x").path == base.appendingPathComponent(".._x").path)
            cache = try ImageCache(namespace: "avatars")
        }
        let disk = try #require(cache.diskCache as? DiskCache)
        #expect(disk.directory.path == base.appendingPathComponent("avatars").path)
        var isDirectory: ObjCBool = false
        #expect(FileManager.default.fileExists(atPath: disk.directory.path, isDirectory: &isDirectory))
        #expect(isDirectory.boolValue)
        // Unset again: the XDG rule is back.
        #expect(
            DiskCache.defaultDirectory(namespace: "ns").deletingLastPathComponent().lastPathComponent
                == "swift-web-image")
    }

    @Test func namespaceCannotEscapeTheCacheFolder() {
        #expect(DiskCache.sanitizedNamespace("default") == "default")
        #expect(DiskCache.sanitizedNamespace("../../etc") == ".._.._etc")
        #expect(DiskCache.sanitizedNamespace("..") == "_..")
        #expect(DiskCache.sanitizedNamespace("") == "_")
        #expect(DiskCache.sanitizedNamespace("a/b\0c") == "a_b_c")
        let url = DiskCache.defaultDirectory(
            namespace: "../x", environment: ProcessInfo.processInfo.environment, configured: nil)
        #expect(url.lastPathComponent == ".._x")
        #expect(url.deletingLastPathComponent().lastPathComponent == "swift-web-image")
    }
}
