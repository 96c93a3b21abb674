import Foundation

/// A path under the system's temporary directory that nothing uses yet. It is not created, so the
/// code under test can create it (or find it missing); `prefix` tells whoever finds one left over
/// which tests made it.
func temporaryURL(_ prefix: String = "webimage-tests") -> URL {
    FileManager.default.temporaryDirectory.appendingPathComponent("\(prefix)-\(UUID().uuidString)")
}

/// A new, empty directory at a ``temporaryURL(_:)``; the caller removes it.
func makeTemporaryDirectory(_ prefix: String = "webimage-tests") throws -> URL {
    let url = temporaryURL(prefix)
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
}
