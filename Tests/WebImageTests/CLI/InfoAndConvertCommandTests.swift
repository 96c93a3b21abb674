import Foundation
import Testing

@testable import WebImage

@Suite("webimage info and convert", .serialized)
struct InfoAndConvertCommandTests {
    @Test("info --json prints the contract's keys with the header's values for every fixture")
    func infoJSONOnEveryFixture() async throws {
        for path in try HostileInputSweepTests.intactFixtures() {
            let file = Fixtures.directory.appendingPathComponent(path).path
            let result = try await CommandRunner.runOffPool(["info", file, "--json"])
            try #require(result.status == 0, "\(path): \(result.standardError)")
            let object = try json(result.standardOutput)
            #expect(
                Set(object.keys)
                    == ["format", "width", "height", "frameCount", "loopCount", "hasAlpha", "orientation", "byteCount"])
            let data = try Fixtures.data(path)
            let info = try ImageCodersManager.shared.imageInfo(for: data)
            #expect(object["format"] as? String == info.format.name)
            #expect(object["width"] as? Int == info.width)
            #expect(object["height"] as? Int == info.height)
            #expect(object["frameCount"] as? Int == info.frameCount)
            #expect(object["loopCount"] as? Int == info.loopCount)
            #expect(object["hasAlpha"] as? Bool == info.hasAlpha)
            #expect(object["orientation"] as? Int == info.orientation.rawValue)
            #expect(object["byteCount"] as? Int == data.count)
        }
    }

    @Test("info reads a data: URL's bytes")
    func infoOfADataURL() async throws {
        let data = try Fixtures.data("png/rgba8.png")
        let result = try await CommandRunner.runOffPool([
            "info", "data:image/png;base64,\(data.base64EncodedString())", "--json",
        ])
        try #require(result.status == 0, "\(result.standardError)")
        let object = try json(result.standardOutput)
        #expect(object["format"] as? String == "png")
        #expect(object["width"] as? Int == 11)
        #expect(object["byteCount"] as? Int == data.count)
    }

    @Test("convert writes every fixture as PNG with upright pixels equal to an in-process decode")
    func convertEveryFixtureToPNG() async throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        for path in try HostileInputSweepTests.intactFixtures() {
            let output = directory.appendingPathComponent(UUID().uuidString + ".png")
            let result = try await CommandRunner.runOffPool([
                "convert", Fixtures.directory.appendingPathComponent(path).path, output.path,
            ])
            try #require(result.status == 0, "\(path): \(result.standardError)")
            let written = try ImageCodersManager.shared.decode(Data(contentsOf: output), options: ImageDecodeOptions())
            let expected = try ImageCodersManager.shared.decode(try Fixtures.data(path), options: ImageDecodeOptions())
            #expect(written.format == .png)
            #expect(written.bitmap == expected.bitmap, "\(path)")
        }
    }

    @Test("convert keeps animations when the output format can hold them (GIF, WebP, APNG)")
    func convertKeepsFrames() async throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let animated = try HostileInputSweepTests.intactFixtures().filter {
            ((try? ImageCodersManager.shared.imageInfo(for: Fixtures.data($0)).frameCount) ?? 1) > 1
        }
        #expect(!animated.isEmpty)
        for path in animated {
            let source = try ImageCodersManager.shared.imageInfo(for: Fixtures.data(path))
            for ext in ["gif", "webp", "png"] {
                let output = directory.appendingPathComponent(UUID().uuidString + "." + ext)
                let result = try await CommandRunner.runOffPool([
                    "convert", Fixtures.directory.appendingPathComponent(path).path, output.path,
                ])
                try #require(result.status == 0, "\(path) → \(ext): \(result.standardError)")
                let info = try ImageCodersManager.shared.imageInfo(for: Data(contentsOf: output))
                #expect(info.frameCount == source.frameCount, "\(path) → \(ext)")
                #expect(info.loopCount == source.loopCount, "\(path) → \(ext)")
            }
            for ext in ["webp", "png"] {
                let still = directory.appendingPathComponent(UUID().uuidString + "." + ext)
                let result = try await CommandRunner.runOffPool(
                    ["convert", Fixtures.directory.appendingPathComponent(path).path, still.path, "--first-frame"])
                try #require(result.status == 0, "\(result.standardError)")
                #expect(try ImageCodersManager.shared.imageInfo(for: Data(contentsOf: still)).frameCount == 1)
            }
        }
    }

    @Test("convert --thumbnail fits the box and --format overrides the extension")
    func thumbnailAndFormat() async throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let source = try #require(try HostileInputSweepTests.intactFixtures().first { $0.hasPrefix("jpeg/") })
        let info = try ImageCodersManager.shared.imageInfo(for: Fixtures.data(source))
        let output = directory.appendingPathComponent("thumb.bin")
        let result = try await CommandRunner.runOffPool(
            [
                "convert", Fixtures.directory.appendingPathComponent(source).path, output.path,
                "--thumbnail", "16x16", "--format", "webp", "--quality", "0.8",
            ])
        try #require(result.status == 0, "\(result.standardError)")
        let written = try ImageCodersManager.shared.imageInfo(for: Data(contentsOf: output))
        #expect(written.format == .webp)
        let expected = DecodeGeometry.scaledSize(
            PixelSize(width: info.width, height: info.height), fitting: PixelSize(width: 16, height: 16),
            preserveAspectRatio: true, shouldScaleUp: false)
        #expect(PixelSize(width: written.width, height: written.height) == expected)
    }

    /// HEIC and JPEG XL, which convert writes through libheif and libjxl: each extension (in
    /// any case) and the `--format` name choose it, and info names it.
    @Test(
        "convert writes HEIC and JPEG XL for their extensions and --format, and info names them",
        arguments: [
            (ImageFormat.heic, ["out.heic", "out.HEIF"], "heic", "1"),
            (ImageFormat.jpegXL, ["out.jxl", "out.JXL"], "jxl", "0.9"),
        ])
    func convertToHEICAndJPEGXL(format: ImageFormat, names: [String], formatName: String, quality: String)
        async throws
    {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let source = Fixtures.directory.appendingPathComponent("png/rgba8.png").path
        let expected = try ImageCodersManager.shared.decode(
            Fixtures.data("png/rgba8.png"), options: ImageDecodeOptions())
        for (name, flags) in names.map({ ($0, [String]()) }) + [("out.bin", ["--format", formatName])] {
            let output = directory.appendingPathComponent(name)
            let converted = try await CommandRunner.runOffPool(
                ["convert", source, output.path, "--quality", quality] + flags)
            try #require(converted.status == 0, "\(name): \(converted.standardError)")
            let written = try ImageCodersManager.shared.decode(Data(contentsOf: output), options: ImageDecodeOptions())
            #expect(written.format == format, "\(name)")
            #expect(written.bitmap.size == expected.bitmap.size, "\(name)")
            #expect(written.hasAlpha == expected.bitmap.containsTransparency, "\(name)")
            let info = try await CommandRunner.runOffPool(["info", output.path, "--json"])
            try #require(info.status == 0, "\(info.standardError)")
            #expect(try json(info.standardOutput)["format"] as? String == formatName)
        }
    }

    @Test("convert --chroma sets the JPEG's colour resolution and --effort the PNG's size")
    func chromaAndEffort() async throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let source = Fixtures.directory.appendingPathComponent("jpeg/photo_800x600.jpg").path
        let jpeg = directory.appendingPathComponent("full-colour.jpg")
        let converted = try await CommandRunner.runOffPool(["convert", source, jpeg.path, "--chroma", "444"])
        try #require(converted.status == 0, "\(converted.standardError)")
        #expect(EncodeOptionsTests.lumaSampling(of: try Data(contentsOf: jpeg)) ?? (0, 0) == (1, 1))
        var sizes: [Int] = []
        for effort in ["fastest", "BALANCED"] {
            let png = directory.appendingPathComponent("\(effort).png")
            let result = try await CommandRunner.runOffPool(["convert", source, png.path, "--effort", effort])
            try #require(result.status == 0, "\(result.standardError)")
            sizes.append(try Data(contentsOf: png).count)
        }
        #expect(sizes[1] < sizes[0], "\(sizes)")
    }

    @Test("convert converts a Display P3 PNG to sRGB and drops its profile, unless --keep-color-profile")
    func colorProfile() async throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let source = Fixtures.directory.appendingPathComponent("color/display-p3.png").path
        for keep in [false, true] {
            let output = directory.appendingPathComponent("\(keep).png")
            let flags = keep ? ["--keep-color-profile"] : []
            let result = try await CommandRunner.runOffPool(["convert", source, output.path] + flags)
            try #require(result.status == 0, "\(result.standardError)")
            var options = ImageDecodeOptions()
            options.convertToSRGB = false
            let written = try PNGCoder().decode(Data(contentsOf: output), options: options)
            let expected = try Fixtures.data("color/display-p3.png" + (keep ? ".original.rgba" : ".rgba"))
            #expect(written.bitmap.pixels == Array(expected), "keep: \(keep)")
            #expect(written.metadata.iccProfile == (keep ? try Fixtures.data("color/display-p3.icc") : nil))
        }
    }

    @Test("convert --keep-metadata chooses the blocks written; ICC alone by default")
    func keepMetadata() async throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let source = Fixtures.directory.appendingPathComponent("metadata/photo.jpg").path
        let cases: [([String], ImageMetadata.Kinds)] = [
            ([], [.iccProfile]), (["--keep-metadata", "none"], []), (["--keep-metadata", "exif,XMP"], [.exif, .xmp]),
            (["--keep-metadata", "all"], .all),
        ]
        for (index, (flags, expected)) in cases.enumerated() {
            let output = directory.appendingPathComponent("\(index).webp")
            let result = try await CommandRunner.runOffPool(
                ["convert", source, output.path, "--keep-color-profile"] + flags)
            try #require(result.status == 0, "\(flags): \(result.standardError)")
            let written = try MetadataTests.decode(Data(contentsOf: output), reading: .all).metadata
            #expect((written.exif != nil) == expected.contains(.exif), "\(flags)")
            #expect((written.iccProfile != nil) == expected.contains(.iccProfile), "\(flags)")
            #expect((written.xmp != nil) == expected.contains(.xmp), "\(flags)")
        }
    }

    @Test(
        "Failures exit non-zero with one 'error:' line",
        arguments: [
            ["info", "/nonexistent/file.png"],
            ["info", "/etc/hostname"],
            ["convert", "/etc/hostname", "/tmp/out.png"],
            ["convert", "in.png", "out.unknown"],
            ["convert", "in.png", "out.png", "--quality", "2"],
            ["convert", "in.png", "out.png", "--thumbnail", "0x10"],
            ["convert", "in.png", "out.png", "--resize", "10x10"],
            ["convert", "in.png", "out.png", "--effort", "maximum"],
            ["convert", "in.png", "out.jpg", "--chroma", "411"],
            ["convert", "in.png", "out.jpg", "--keep-metadata", "gps"],
            ["info", "http://127.0.0.1:9/x.png"],
            ["info", "data:,not an image"],
            ["info", "data:image/png;base64,@@"],
            ["frobnicate"],
        ])
    func failuresAreOneErrorLine(arguments: [String]) async throws {
        let result = try await CommandRunner.runOffPool(arguments)
        #expect(result.status != 0)
        let lines = result.standardError.split(separator: "\n")
        #expect(lines.count == 1, "stderr: \(result.standardError)")
        #expect(lines.first?.hasPrefix("error: ") == true, "stderr: \(result.standardError)")
        #expect(result.standardOutput.isEmpty)
    }
}
