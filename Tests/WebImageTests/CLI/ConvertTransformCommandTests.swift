import Foundation
import Testing

@testable import WebImage

@Suite("webimage convert transform flags", .serialized)
struct ConvertTransformCommandTests {
    static let photo = Fixtures.directory.appendingPathComponent("jpeg/photo_800x600.jpg").path
    static let rgba = Fixtures.directory.appendingPathComponent("png/rgba8.png").path

    /// Runs `convert input <temp>.png flags...` and decodes what it wrote.
    private func convert(_ input: String, _ flags: [String]) async throws -> Image {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let output = directory.appendingPathComponent("out.png")
        let result = try await CommandRunner.runOffPool(["convert", input, output.path] + flags)
        try #require(result.status == 0, "\(flags): \(result.standardError)")
        return try ImageCodersManager.shared.decode(Data(contentsOf: output), options: ImageDecodeOptions())
    }

    private func source(_ path: String) throws -> ImageBitmap {
        try ImageCodersManager.shared.decode(
            Data(contentsOf: URL(fileURLWithPath: path)), options: ImageDecodeOptions()
        )
        .bitmap
    }

    @Test(
        "--resize gives each mode's size, default fill",
        arguments: [
            ([String](), PixelSize(width: 100, height: 100)),
            (["--mode", "fill"], PixelSize(width: 100, height: 100)),
            (["--mode", "aspect-fit"], PixelSize(width: 100, height: 75)),
            (["--mode", "aspect-fill"], PixelSize(width: 100, height: 100)),
        ])
    func resizeModes(modeFlags: [String], expected: PixelSize) async throws {
        let written = try await convert(Self.photo, ["--resize", "100x100"] + modeFlags)
        #expect(written.bitmap.size == expected)
    }

    @Test("--resize decodes thumbnail-first: the same pixels as decoding at the transformer's hint, then resizing")
    func resizeUsesDecodeHint() async throws {
        let written = try await convert(Self.photo, ["--resize", "100x100", "--mode", "aspect-fill"])
        let transformer = ImageResizingTransformer(size: PixelSize(width: 100, height: 100), scaleMode: .aspectFill)
        var options = ImageDecodeOptions()
        options.thumbnailPixelSize = try #require(
            transformer.decodePixelSize(forSourceSize: PixelSize(width: 800, height: 600)))
        let decoded = try ImageCodersManager.shared.decode(
            Data(contentsOf: URL(fileURLWithPath: Self.photo)), options: options)
        #expect(decoded.isThumbnail)
        #expect(written.bitmap == (try transformer.transformedImage(decoded, forKey: "").bitmap))
    }

    @Test("--crop takes exactly the given pixels")
    func crop() async throws {
        let original = try source(Self.rgba)
        let written = try await convert(Self.rgba, ["--crop", "1,2,3,4"])
        #expect(written.bitmap.size == PixelSize(width: 3, height: 4))
        for y in 0..<4 { for x in 0..<3 { #expect(written.bitmap[x, y] == original[x + 1, y + 2]) } }
    }

    @Test("--round-corner makes the corners transparent and keeps the centre")
    func roundCorner() async throws {
        let original = try source(Self.photo)
        let written = try await convert(Self.photo, ["--round-corner", "50"])
        #expect(written.bitmap.size == original.size)
        #expect(written.bitmap[0, 0].a == 0 && written.bitmap[799, 599].a == 0)
        #expect(written.bitmap[400, 300] == original[400, 300])
    }

    @Test("--rotate turns clockwise for positive degrees and grows the canvas")
    func rotate() async throws {
        let original = try source(Self.rgba)
        let written = try await convert(Self.rgba, ["--rotate", "90"])
        #expect(written.bitmap.size == PixelSize(width: 7, height: 11))
        // Clockwise: the bottom-left pixel comes to the top left.
        for y in 0..<11 { for x in 0..<7 { #expect(written.bitmap[x, y] == original[y, 6 - x]) } }
        let tilted = try await convert(Self.photo, ["--rotate", "30"])
        #expect(tilted.bitmap.size == PixelSize(width: 993, height: 920))
    }

    @Test("--rotate takes a negative number of degrees as its value and turns counter-clockwise")
    func rotateNegative() async throws {
        let original = try source(Self.rgba)
        let written = try await convert(Self.rgba, ["--rotate", "-90"])
        #expect(written.bitmap.size == PixelSize(width: 7, height: 11))
        // Counter-clockwise: the top-right pixel comes to the top left.
        for y in 0..<11 { for x in 0..<7 { #expect(written.bitmap[x, y] == original[10 - y, x]) } }
    }

    @Test("--flip mirrors exactly", arguments: ["horizontal", "vertical", "both"])
    func flip(direction: String) async throws {
        let original = try source(Self.rgba)
        let written = try await convert(Self.rgba, ["--flip", direction])
        for y in 0..<7 {
            for x in 0..<11 {
                let sx = direction == "vertical" ? x : 10 - x
                let sy = direction == "horizontal" ? y : 6 - y
                #expect(written.bitmap[x, y] == original[sx, sy])
            }
        }
    }

    @Test("--tint paints the colour and keeps each pixel's alpha")
    func tint() async throws {
        let original = try source(Self.rgba)
        let written = try await convert(Self.rgba, ["--tint", "ff0000ff"])
        for y in 0..<7 {
            for x in 0..<11 {
                #expect(written.bitmap[x, y].a == original[x, y].a)
                if original[x, y].a > 0 {
                    #expect(written.bitmap[x, y] == RGBA8(r: 255, g: 0, b: 0, a: original[x, y].a))
                }
            }
        }
    }

    @Test("Several flags apply in the contract's order: resize, then crop, then flip")
    func order() async throws {
        let written = try await convert(
            Self.photo, ["--flip", "horizontal", "--crop", "0,0,40,30", "--resize", "80x60"])
        #expect(written.bitmap.size == PixelSize(width: 40, height: 30))
    }

    @Test("Transform flags apply to every frame of an animation, keeping frames, durations and loop count")
    func animation() async throws {
        let input = Fixtures.directory.appendingPathComponent("gif/pillow_noise.gif")
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let output = directory.appendingPathComponent("out.gif")
        let result = try await CommandRunner.runOffPool([
            "convert", input.path, output.path, "--resize", "24x20", "--flip", "both",
        ])
        try #require(result.status == 0, "\(result.standardError)")
        let source = try ImageCodersManager.shared.decode(Data(contentsOf: input), options: ImageDecodeOptions())
        let written = try ImageCodersManager.shared.decode(Data(contentsOf: output), options: ImageDecodeOptions())
        #expect(written.bitmap.size == PixelSize(width: 24, height: 20))
        #expect(written.frameCount == 3)
        #expect(written.animation?.loopCount == source.animation?.loopCount)
        for index in 0..<3 {
            #expect(written.animation?.duration(at: index) == source.animation?.duration(at: index))
        }
    }

    @Test(
        "Bad transform values exit non-zero with one 'error:' line",
        arguments: [
            ["--resize", "0x5"], ["--resize", "abc"], ["--resize", "10x10", "--mode", "sideways"], ["--mode", "fill"],
            ["--crop", "1,2,3"], ["--crop", "0,0,0,5"], ["--crop", "0,0,nan,5"], ["--crop", "5000,5000,5,5"],
            ["--round-corner", "-1"], ["--round-corner", "0"], ["--round-corner", "nan"], ["--rotate", "inf"],
            ["--rotate", "abc"], ["--flip", "diagonal"], ["--tint", "red"], ["--tint", "ff0000"], ["--blur", "-3"],
            ["--blur", "nan"],
            ["--resize", "100000x100000"],
        ])
    func badValues(flags: [String]) async throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let output = directory.appendingPathComponent("out.png")
        let result = try await CommandRunner.runOffPool(["convert", Self.rgba, output.path] + flags)
        #expect(result.status != 0)
        let lines = result.standardError.split(separator: "\n")
        #expect(lines.count == 1, "stderr: \(result.standardError)")
        #expect(lines.first?.hasPrefix("error: ") == true, "stderr: \(result.standardError)")
        #expect(!FileManager.default.fileExists(atPath: output.path))
    }

    @Test("A blur radius beyond the library's maximum exits 1 with one 'error:' line naming --blur")
    func blurBeyondTheMaximum() async throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let output = directory.appendingPathComponent("out.png")
        for radius in ["1e308", "1000.5", "9223372036854775808"] {
            let result = try await CommandRunner.runOffPool(["convert", Self.photo, output.path, "--blur", radius])
            #expect(result.status == 1, "--blur \(radius)")
            let lines = result.standardError.split(separator: "\n")
            #expect(lines.count == 1 && lines[0].hasPrefix("error: --blur must be at most 1000"), "\(lines)")
            #expect(!FileManager.default.fileExists(atPath: output.path))
        }
        let edge = try await convert(Self.photo, ["--resize", "40x30", "--blur", "1000"])
        #expect(edge.bitmap.size == PixelSize(width: 40, height: 30))
    }

    @Test("--blur blurs with the blur transformer's pixels, last in the pipeline")
    func blur() async throws {
        let written = try await convert(Self.photo, ["--resize", "80x60", "--blur", "2"])
        var options = ImageDecodeOptions()
        options.thumbnailPixelSize = PixelSize(width: 80, height: 60)
        let decoded = try ImageCodersManager.shared.decode(
            Data(contentsOf: URL(fileURLWithPath: Self.photo)), options: options)
        let expected = try ImagePipelineTransformer([
            ImageResizingTransformer(size: PixelSize(width: 80, height: 60)), ImageBlurTransformer(radius: 2),
        ]).transformedImage(decoded, forKey: "")
        #expect(written.bitmap.size == PixelSize(width: 80, height: 60))
        #expect(written.bitmap == expected.bitmap)
        let sharp = try await convert(Self.photo, ["--resize", "80x60"])
        #expect(sharp.bitmap != written.bitmap)
    }
}
