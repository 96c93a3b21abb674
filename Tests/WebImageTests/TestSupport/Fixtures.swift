import Foundation

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

    /// Every image fixture (by relative path), for tests that sweep all of them.
    static func allImagePaths() throws -> [String] {
        let extensions: Set<String> = ["jpg", "jpeg", "png", "gif", "webp", "avif", "heic", "jxl", "tif", "bmp"]
        let root = directory.standardizedFileURL.path
        guard let walker = FileManager.default.enumerator(atPath: root) else { return [] }
        return walker.compactMap { $0 as? String }
            .filter { extensions.contains(($0 as NSString).pathExtension.lowercased()) }
            .sorted()
    }
}
