import Foundation
import Testing
import WebImage

/// The package as a dependency: the manifest decides what is built from traits alone, the README
/// shows the lines the `Examples/` package really uses, and the fuzzers are no products.
@Suite("Packaging: the manifest a consumer sees")
struct ConsumerManifestTests {
    static func text(_ path: String) throws -> String {
        try PackagingFilesTests.text(path)
    }

    /// The Swift lines of the README's "Add to your package" snippet, trimmed.
    static func readmeSnippetLines() throws -> [String] {
        let readme = try text("README.md")
        let section = try #require(readme.components(separatedBy: "## Add to your package\n").dropFirst().first)
        let snippet = try #require(section.components(separatedBy: "```swift\n").dropFirst().first)
        let code = try #require(snippet.components(separatedBy: "```").first)
        return code.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
    }

    @Test func theManifestNeverLooksAtTheMachine() throws {
        let manifest = try Self.text("Package.swift")
        for probe in ["FileManager", "ProcessInfo", "import Foundation", "environment"] {
            #expect(!manifest.contains(probe), "Package.swift uses \(probe)")
        }
        for trait in ["AVIF", "HEIC", "JPEGXL", "TIFF", "SVG", "ColorManagement"] {
            #expect(manifest.contains("(\"\(trait)\", \"C"), "no trait \(trait) in Package.swift")
        }
        #expect(manifest.contains("let serverTrait = \"Server\""))
    }

    @Test func theReadmeSnippetsProductLinesAreTheExamplesOwn() throws {
        let snippet = try Self.readmeSnippetLines()
        let example = try Self.text("Examples/Package.swift")
        let exampleLines = Set(example.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) })
        let products = snippet.filter { $0.hasPrefix(".product(") }
        #expect(products.count == 2)
        for line in products {
            #expect(exampleLines.contains(line), "the example does not depend on \(line)")
        }
        // The example names the same package by path, under the name the URL gives it.
        let dependency = try #require(snippet.first { $0.hasPrefix(".package(url:") })
        #expect(exampleLines.contains("// In your package: \(dependency)"))
        #expect(exampleLines.contains(".package(name: \"swift-web-image\", path: \"..\"),"))
        #expect(dependency.contains("from: \"\(WebImageVersion.current)\""))
    }

    @Test func theFuzzersAreNoProductsOfThePackage() throws {
        let manifest = try Self.text("Package.swift")
        #expect(!manifest.contains("fuzz-"))
        let fuzzManifest = try Self.text("Fuzz/Package.swift")
        let entries = try FileManager.default.contentsOfDirectory(
            at: PackagingFilesTests.root.appendingPathComponent("Fuzz"), includingPropertiesForKeys: nil
        ).map(\.lastPathComponent).filter { $0.hasPrefix("fuzz-") }
        #expect(entries.count == 15)
        for entry in entries {
            #expect(fuzzManifest.contains("\"\(entry)\""), "\(entry) is not a target of Fuzz/Package.swift")
        }
    }

    @Test func theChangelogHasASectionForTheCurrentVersion() throws {
        let changelog = try Self.text("CHANGELOG.md")
        #expect(changelog.contains("## [Unreleased]"))
        #expect(changelog.contains("## [\(WebImageVersion.current)] - "))
    }
}
