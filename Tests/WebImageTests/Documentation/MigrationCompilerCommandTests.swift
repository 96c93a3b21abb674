import Foundation
import Testing

@testable import WebImage

/// Code ported from SDWebImage as a user writes it, type-checked by `swiftc` against this build's
/// modules: the compiler must name what to write instead. ("CommandTests" in the name: it starts a
/// child process, which ThreadSanitizer's runs skip.)
@Suite("Migration: the compiler says what to write instead of SDWebImage's names")
struct MigrationCompilerCommandTests {
    /// The diagnostics `swiftc -typecheck` prints for `source`, which imports the package's modules.
    private func diagnostics(of source: String) throws -> String {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("migration-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("Ported.swift")
        try Data(source.utf8).write(to: file)
        let products = CommandRunner.executable().deletingLastPathComponent()
        let packageRoot = Fixtures.directory.deletingLastPathComponent().deletingLastPathComponent()
        // The C modules the Swift ones were built against: SwiftPM's generated maps, one level
        // below the products (not the maps of Swift modules' headers, deeper down), the
        // packages' own, and ours.
        let fileManager = FileManager.default
        let generated = ((try? fileManager.contentsOfDirectory(at: products, includingPropertiesForKeys: nil)) ?? [])
            .map { $0.appendingPathComponent("module.modulemap") }
            .filter { fileManager.fileExists(atPath: $0.path) }
        let written = [
            packageRoot.appendingPathComponent(".build/checkouts"), packageRoot.appendingPathComponent("Sources"),
        ]
        .flatMap { root in
            (fileManager.enumerator(at: root, includingPropertiesForKeys: nil)?.compactMap { $0 as? URL } ?? [])
                .filter { $0.lastPathComponent == "module.modulemap" }
        }
        let maps = generated + written
        let arguments =
            ["swiftc", "-swift-version", "6", "-typecheck", "-I", products.appendingPathComponent("Modules").path]
            + maps.flatMap { ["-Xcc", "-fmodule-map-file=\($0.path)"] } + [file.path]
        let child = try ChildProcess(executable: "/usr/bin/env", arguments: arguments)
        let (output, error) = child.readToEnd()
        _ = child.waitForExit()
        return String(decoding: output + error, as: UTF8.self)
    }

    @Test("SDWebImage's class and protocol names fail with a rename to ours")
    func renamedTypes() throws {
        let output = try diagnostics(
            of: """
                import WebImage
                func port(_ manager: SDWebImageManager, cache: SDImageCache, loader: any SDImageLoader) {
                    let transformer = SDImageResizingTransformer(size: PixelSize(width: 1, height: 1), scaleMode: .fill)
                    _ = transformer
                }
                """)
        #expect(output.contains("'SDWebImageManager' has been renamed to 'ImageManager'"))
        #expect(output.contains("'SDImageCache' has been renamed to 'ImageCache'"))
        #expect(output.contains("'SDImageLoader' has been renamed to 'ImageLoading'"))
        #expect(output.contains("'SDImageResizingTransformer' has been renamed to 'ImageResizingTransformer'"))
    }

    @Test("A ported requestImage override fails on SDWebImage's block type, pointing at loadImage")
    func requestImageOverride() throws {
        let output = try diagnostics(
            of: """
                import Foundation
                import WebImage
                final class PortedLoader: ImageLoading {
                    func canRequestImage(for url: URL, options: WebImageOptions, context: WebImageContext?) -> Bool { true }
                    func loadImage(
                        with url: URL, options: WebImageOptions, context: WebImageContext?, events: ImageLoadEventHandler?
                    ) async throws(WebImageError) -> ImageLoadResult { throw .cancelled }
                    func requestImage(
                        with url: URL?, options: WebImageOptions, context: WebImageContext?,
                        progress: SDImageLoaderProgressBlock?, completed: SDImageLoaderCompletedBlock?
                    ) -> (any ImageLoadingOperation)? { nil }
                }
                func call(_ loader: any ImageLoading, url: URL) {
                    _ = loader.requestImage(with: url, options: [], context: nil, progress: nil, completed: nil)
                }
                """)
        #expect(output.contains("'SDImageLoaderProgressBlock' has been renamed to 'ImageLoaderProgress'"))
        #expect(output.contains("'SDImageLoaderCompletedBlock' is unavailable: a loader implements loadImage("))
        #expect(output.contains("is unavailable: implement loadImage(with:options:context:events:) in a loader"))
    }

    @Test("Names with no one-to-one replacement fail with a message that names the replacements")
    func explainedNames() throws {
        let output = try diagnostics(
            of: """
                import WebImage
                func port(_ helper: SDImageCoderHelper.Type, _ coder: SDImageIOCoder) {}
                """)
        #expect(output.contains("ImageDecodeOptions.targetSize(storedSize:orientation:frameCount:)"))
        #expect(output.contains("ImageResizingTransformer.outputSize(forSourceSize:)"))
        #expect(output.contains("'SDImageIOCoder' is unavailable: ImageIO is Apple-only"))
    }

    @Test("The display module's SDWebImage names fail with a rename too")
    func displayNames() throws {
        let output = try diagnostics(
            of: """
                import WebImage
                import WebImageDisplay
                func port(_ player: SDAnimatedImagePlayer, _ state: SDWebImageLoadState) {}
                """)
        #expect(output.contains("'SDAnimatedImagePlayer' has been renamed to 'AnimatedImagePlayer'"))
        #expect(output.contains("'SDWebImageLoadState' has been renamed to 'WebImageLoadState'"))
    }

    @Test("Code that compiles once ported has no diagnostics at all")
    func portedCodeCompiles() throws {
        let output = try diagnostics(
            of: """
                import Foundation
                import WebImage
                func port(_ error: WebImageError, expected: Int) -> Bool {
                    if let failure = error.transferFailure { _ = failure.kind }
                    switch error.code {
                    case .transferFailed, .cancelled: return false
                    default: return error.code == expected || expected != error.code
                    }
                }
                """)
        #expect(output.isEmpty, "\(output)")
    }
}

@Suite("Migration: SDWebImage's integer error codes")
struct MigrationErrorCodeTests {
    @Test("A code compares equal to its SDWebImage number held in an Int, either way round")
    func codeComparesWithInt() {
        let error = WebImageError.cancelled
        let sdWebImageCancelled = 2002
        let sdWebImageBadData = 1001
        #expect(error.code == sdWebImageCancelled)
        #expect(sdWebImageCancelled == error.code)
        #expect(error.code != sdWebImageBadData)
        #expect(sdWebImageBadData != error.code)
        #expect(!(error.code == sdWebImageBadData))
        #expect(error.code == .cancelled)  // literals and static members still pick Code's own ==
        #expect(error.code == 2002)
    }
}
