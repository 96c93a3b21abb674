import Foundation
import WebImage

/// Committed test images under `Tests/Fixtures` (made by `Tests/Fixtures/generate.py`).
enum Fixtures {
    static let directory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()  // TestSupport
        .deletingLastPathComponent()  // WebImageTests
        .deletingLastPathComponent()  // Tests
        .appendingPathComponent("Fixtures")

    /// The bytes of `relativePath`, e.g. `"png/rgba8.png"`.
    static func data(_ relativePath: String) throws -> Data {
        try Data(contentsOf: directory.appendingPathComponent(relativePath))
    }

    /// The raw RGBA pixels at `relativePath` (a generator's reference decode, e.g.
    /// `"avif/photo.rgba"`), as a bitmap of `size`.
    static func pixels(_ relativePath: String, _ size: PixelSize) throws -> ImageBitmap {
        try ImageBitmap(width: size.width, height: size.height, pixels: Array(data(relativePath)))
    }

    /// Every image fixture (by relative path), for tests that sweep all of them.
    static func allImagePaths() throws -> [String] {
        let extensions: Set<String> = [
            "jpg", "jpeg", "png", "gif", "webp", "avif", "heic", "jxl", "tif", "bmp", "ico", "svg",
        ]
        let root = directory.standardizedFileURL.path
        guard let walker = FileManager.default.enumerator(atPath: root) else { return [] }
        return walker.compactMap { $0 as? String }
            .filter { extensions.contains(($0 as NSString).pathExtension.lowercased()) }
            .sorted()
    }
}
