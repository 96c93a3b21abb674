import Foundation
import Testing

@_spi(Internals) @testable import WebImage

@Suite("PNG bad input")
struct PNGBadInputTests {
    private let coder = PNGCoder()

    /// Decoding must throw `badImageData`, never return an image.
    private func expectBadData(
        _ data: Data, _ comment: Comment? = nil, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        expectBadImageData(comment, sourceLocation: sourceLocation) {
            try coder.decode(data, options: ImageDecodeOptions())
        }
    }

    @Test("empty data")
    func empty() {
        #expect(throws: WebImageError.badImageData("the data is empty")) {
            try coder.decode(Data(), options: ImageDecodeOptions())
        }
        #expect(throws: WebImageError.self) { try coder.imageInfo(for: Data()) }
        #expect(!coder.canDecode(Data()))
    }

    @Test("random bytes, with and without the PNG signature")
    func randomBytes() {
        var generator = SplitMix64(seed: 42)
        for length in [1, 7, 8, 33, 100, 4096] {
            let noise = Data(generator.bytes(length))
            expectBadData(noise)
            expectBadData(Data(PNGChunkScan.signature) + noise)
        }
    }

    @Test("only the signature, or the signature cut short")
    func signatureOnly() {
        expectBadData(Data(PNGChunkScan.signature))
        expectBadData(Data(PNGChunkScan.signature.prefix(5)))
    }

    @Test("every fixture truncated anywhere is an error, never a partial image", arguments: PNGFixture.decodable)
    func truncated(name: String) throws {
        let data = try PNGFixture.data(name)
        var cuts = Set([
            1, 8, 12, 16, 20, 29, 33, 37, 41, data.count / 2, data.count - 13, data.count - 12, data.count - 1,
        ])
        // Every byte inside the first IDAT chunk's header and a spread through its data.
        cuts.formUnion(stride(from: 33, to: data.count, by: max(1, data.count / 40)))
        for cut in cuts.sorted() where cut > 0 && cut < data.count {
            expectBadData(data.prefix(cut), "cut at \(cut) of \(data.count)")
            #expect(throws: WebImageError.self) { try coder.imageInfo(for: data.prefix(min(cut, 33))) }
        }
    }

    @Test("a corrupted CRC on a critical chunk (IHDR or IDAT) is an error")
    func badCRC() throws {
        expectBadData(try PNGFixture.invalid("bad_idat_crc"))
        expectBadData(try PNGFixture.invalid("bad_ihdr_crc"))
        #expect(throws: WebImageError.self) { try coder.imageInfo(for: PNGFixture.invalid("bad_ihdr_crc")) }
    }

    @Test("an IHDR claiming 100000×100000 is refused as too large before allocating")
    func hugeDimensions() throws {
        #expect(
            throws: WebImageError.imageTooLarge(
                width: 100_000, height: 100_000, limit: ImageDecodeOptions.defaultMaxPixelCount)
        ) {
            try coder.decode(PNGFixture.invalid("huge_ihdr"), options: ImageDecodeOptions())
        }
    }

    @Test("a side longer than the whole pixel limit is too large, though libpng refuses the header")
    func longSide() throws {
        #expect(
            throws: WebImageError.imageTooLarge(
                width: 200_000_000, height: 1, limit: ImageDecodeOptions.defaultMaxPixelCount)
        ) {
            try coder.decode(PNGFixture.invalid("long_side"), options: ImageDecodeOptions())
        }
    }

    @Test("a custom pixel limit is honoured")
    func customLimit() throws {
        var options = ImageDecodeOptions()
        options.maxPixelCount = 76
        #expect(throws: WebImageError.imageTooLarge(width: 11, height: 7, limit: 76)) {
            try coder.decode(PNGFixture.data("rgba8"), options: options)
        }
        options.maxPixelCount = 77
        #expect(try coder.decode(PNGFixture.data("rgba8"), options: options).width == 11)
    }

    @Test("a few IDAT bytes claiming 9000×9000 pixels fail before the pixels are allocated")
    func tinyIDATForHugeImage() throws {
        let data = try PNGFixture.invalid("short_idat_huge")
        #expect {
            _ = try coder.decode(data, options: ImageDecodeOptions())
        } throws: { error in
            guard let error = error as? WebImageError, error.code == .badImageData else { return false }
            return error.message.contains("cannot hold 9000x9000")
        }
    }

    @Test("image data that inflates to fewer rows than the header claims is an error")
    func shortIDAT() throws {
        expectBadData(try PNGFixture.invalid("short_idat"))
    }

    @Test(
        "structurally invalid headers and chunk sequences",
        arguments: ["zero_width", "bad_depth", "no_idat", "palette_missing_plte"])
    func invalidStructure(name: String) throws {
        expectBadData(try PNGFixture.invalid(name))
    }

    @Test("palette indices past the palette read as opaque black instead of reading out of bounds")
    func paletteIndexOutOfRange() throws {
        let bitmap = try coder.decode(PNGFixture.invalid("palette_index_out_of_range"), options: ImageDecodeOptions())
            .bitmap
        #expect(bitmap.size == PixelSize(width: 8, height: 2))
        #expect(bitmap[0, 1] == RGBA8(r: 255, g: 0, b: 0))
        #expect(bitmap[3, 1] == RGBA8(r: 9, g: 9, b: 9))
        for x in 4..<7 {
            #expect(bitmap[x, 1] == RGBA8(r: 0, g: 0, b: 0), "x = \(x)")
        }
    }

    @Test("error messages carry libpng's reason")
    func messages() throws {
        #expect {
            _ = try coder.decode(PNGFixture.invalid("bad_idat_crc"), options: ImageDecodeOptions())
        } throws: { error in
            "\(error)".contains("CRC")
        }
    }
}
