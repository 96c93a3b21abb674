import Foundation
import Testing
import WebImageFuzzing

/// Replays inputs through the same ``FuzzBodies`` the libFuzzer targets run (`scripts/fuzz`):
/// every finding saved under `Tests/Fixtures/fuzz-regressions/<target>/`, and every target's
/// seeds. Each must end in images or typed errors, with no violation.
@Suite("Fuzz findings and seeds replayed through the fuzz bodies")
struct FuzzRegressionTests {
    static let bodies: [String: @Sendable (Data) -> FuzzReport] = [
        "format": FuzzBodies.format, "jpeg": FuzzBodies.jpeg, "png": FuzzBodies.png, "apng": FuzzBodies.apng,
        "gif": FuzzBodies.gif, "webp": FuzzBodies.webp, "avif": FuzzBodies.avif, "heic": FuzzBodies.heic,
        "jxl": FuzzBodies.jxl, "tiff": FuzzBodies.tiff, "bmp": FuzzBodies.bmp, "ico": FuzzBodies.ico,
        "svg": FuzzBodies.svg,
        "cache-entry": FuzzBodies.cacheEntry,
        "service-url": FuzzBodies.serviceURL,
    ]
    static let targets = bodies.keys.sorted()

    static let packageRoot = Fixtures.directory.deletingLastPathComponent().deletingLastPathComponent()

    /// The regular files under `directory`, recursively, sorted; none if it is missing.
    static func files(under directory: URL, extensions: Set<String>? = nil) -> [URL] {
        let walker = FileManager.default.enumerator(at: directory, includingPropertiesForKeys: [.isRegularFileKey])
        return (walker?.compactMap { $0 as? URL } ?? [])
            .filter { (try? $0.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true }
            .filter { extensions?.contains($0.pathExtension.lowercased()) ?? true }
            .sorted { $0.path < $1.path }
    }

    /// The seeds `scripts/fuzz` starts `target` from: the target's fixtures (every image fixture
    /// for `format`) and the hand-made ones in `Fuzz/corpus/<target>/`. What long runs found
    /// (`Fuzz/corpus/<target>/found/`, thousands of mostly broken inputs) is left out: each ran
    /// through the same body without a violation when the fuzzer kept it, and replaying them all
    /// here would cost minutes of every test run.
    static func seeds(for target: String) -> [URL] {
        let fixtures: (folders: [String], extensions: Set<String>)? =
            switch target {
            case "format":
                ([""], ["jpg", "png", "gif", "webp", "avif", "heic", "jxl", "tif", "bmp", "ico", "svg", "bin"])
            case "jpeg": (["jpeg", "metadata"], ["jpg"])
            case "png": (["png", "metadata"], ["png", "bin"])
            case "apng": (["apng"], ["png"])
            case "gif": (["gif"], ["gif"])
            case "webp": (["webp", "metadata"], ["webp"])
            case "avif": (["avif"], ["avif"])
            case "heic": (["heic"], ["heic"])
            case "jxl": (["jxl"], ["jxl"])
            case "tiff": (["tiff"], ["tif"])
            case "bmp": (["bmp"], ["bmp"])
            case "ico": (["ico"], ["ico"])
            case "svg": (["svg"], ["svg"])
            default: nil
            }
        var urls: [URL] = []
        for folder in fixtures?.folders ?? [] {
            urls += files(under: Fixtures.directory.appendingPathComponent(folder), extensions: fixtures?.extensions)
        }
        let corpus = packageRoot.appendingPathComponent("Fuzz/corpus/\(target)")
        urls += files(under: corpus).filter { $0.deletingLastPathComponent().lastPathComponent != "found" }
        return urls
    }

    /// Runs `file` through the body of `target`; records an issue unless every step ended in a
    /// value, a typed error or a miss (an untyped error, a broken limit or a failed round trip).
    @discardableResult
    static func replay(_ file: URL, target: String) throws -> FuzzReport {
        let body = try #require(bodies[target])
        let report = body(try Data(contentsOf: file))
        #expect(report.violations.isEmpty, "\(target) \(file.lastPathComponent): \(report.violations)")
        return report
    }

    @Test("Every saved fuzz finding ends in images or typed errors", arguments: targets)
    func savedFindings(target: String) throws {
        let folder = Fixtures.directory.appendingPathComponent("fuzz-regressions/\(target)")
        for file in Self.files(under: folder) {
            try Self.replay(file, target: target)
        }
    }

    @Test("Every seed runs through its fuzz body, and the intact ones decode", arguments: targets)
    func seeds(target: String) throws {
        let seeds = Self.seeds(for: target)
        #expect(!seeds.isEmpty, "no seeds for fuzz-\(target)")
        for seed in seeds {
            let report = try Self.replay(seed, target: target)
            if !HostileInputSweepTests.isDeliberatelyBroken(seed.path), seed.pathExtension != "bin" {
                #expect(report.successCount > 0, "\(target) \(seed.lastPathComponent) decoded nothing")
            }
        }
    }
}
