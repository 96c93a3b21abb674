import Testing

@testable import WebImage
@testable import WebImageDisplay

@Suite("Terminal kitty graphics rendering")
struct TerminalKittyRenderingTests {
    let renderer = TerminalImageRenderer(graphics: .kitty, cellPixelSize: PixelSize(width: 8, height: 16))

    @Test("the pixels go in base64 chunks of at most 4096 bytes and decode back to the same RGBA")
    func chunkingAndRoundTrip() throws {
        let bitmap = ImageBitmap.noise(width: 64, height: 64)  // 16384 bytes, 21848 in base64
        let rendering = try renderer.render(bitmap, columns: 80, imageID: 42)
        var terminal = VirtualTerminal(columns: 80, rows: 24)
        terminal.feed(rendering.bytes)
        #expect(terminal.unknownSequences.isEmpty)
        let image = try #require(terminal.kittyImages.only)
        #expect(image.chunkCount == 6)
        #expect(image.chunkPayloadSizes.dropLast().allSatisfy { $0 == 4096 })
        #expect(image.chunkPayloadSizes.last == 21848 - 5 * 4096)
        #expect(image.keys["a"] == "T" && image.keys["f"] == "32" && image.keys["q"] == "2" && image.keys["C"] == "1")
        #expect(image.keys["i"] == "42")
        #expect(image.width == 64 && image.height == 64)
        #expect(image.pixels == bitmap.pixels)
        // 64 pixels are 8 columns of 8; 64 pixels tall are 4 lines of 16.
        #expect(image.keys["c"] == "8" && image.keys["r"] == "4")
        #expect(rendering.columns == 8 && rendering.rows == 4)
        #expect(image.position == VirtualTerminal.Position(row: 0, column: 0))
        #expect(terminal.cursor == VirtualTerminal.Position(row: 4, column: 0))
    }

    @Test("every chunk but the last says more follows")
    func moreFlags() throws {
        let bitmap = ImageBitmap.noise(width: 40, height: 40)
        let text = String(decoding: try renderer.render(bitmap, columns: 80).bytes, as: UTF8.self)
        let commands = text.split(separator: "\u{1B}_G").dropFirst().map(String.init)
        #expect(commands.count == 3)  // 6400 bytes, 8536 in base64
        #expect(commands.dropLast().allSatisfy { $0.contains("m=1;") })
        #expect(commands.last?.contains("m=0;") == true)
        #expect(commands.dropFirst().allSatisfy { $0.hasPrefix("q=2,m=") })
    }

    @Test("a large image is resampled to the cells it covers, not sent whole")
    func downscaled() throws {
        let bitmap = ImageBitmap.noise(width: 800, height: 600)
        let rendering = try renderer.render(bitmap, columns: 10)
        var terminal = VirtualTerminal(columns: 80, rows: 24)
        terminal.feed(rendering.bytes)
        let image = try #require(terminal.kittyImages.only)
        #expect(image.width == 80 && image.height == 60)
        #expect(image.pixels.count == 80 * 60 * 4)
        #expect(image.keys["c"] == "10" && image.keys["r"] == "4")
    }

    @Test("transparent pixels keep their alpha")
    func alphaKept() throws {
        let bitmap = TerminalTestImages.bitmap(width: 2, height: 2) { x, _ in
            x == 0 ? .clear : RGBA8(r: 1, g: 2, b: 3, a: 77)
        }
        var terminal = VirtualTerminal(columns: 10, rows: 5)
        terminal.feed(try renderer.render(bitmap, columns: 4).bytes)
        #expect(terminal.kittyImages.only?.pixels == bitmap.pixels)
    }

    @Test("a kitty image is deleted by id, freeing its pixels")
    func deleteSequence() {
        #expect(
            String(decoding: TerminalImageRenderer.kittyDeleteSequence(imageID: 9), as: UTF8.self)
                == "\u{1B}_Ga=d,d=I,i=9,q=2\u{1B}\\")
    }
}

extension Collection {
    /// The single element, or nil when there are none or several.
    var only: Element? { count == 1 ? first : nil }
}
