import Foundation

@_spi(Internals) @testable import WebImage

/// Hostile images made at test time: headers that claim huge or zero sizes, a tiny PNG that
/// claims millions of pixels, GIFs with out-of-range frames and palette indices, a 10,000-frame
/// GIF, and every sixteenth truncation and a few bit flips of one fixture per format.
enum HostileCorpus {
    struct Input {
        let name: String
        let data: Data
    }

    static func inputs() throws -> [Input] {
        var inputs = [
            Input(
                name: "png-100000x100000-tiny-idat",
                data: png(width: 100_000, height: 100_000, idat: [0x78, 0x9C, 3, 0])),
            Input(name: "png-9000x9000-tiny-idat", data: png(width: 9000, height: 9000, idat: zlibZeros(count: 64))),
            Input(name: "png-zero-width", data: png(width: 0, height: 16, idat: zlibZeros(count: 17))),
            Input(name: "gif-65535x65535-screen", data: gifScreen(width: 65535, height: 65535)),
            Input(name: "gif-zero-screen", data: gifScreen(width: 0, height: 0)),
            Input(name: "gif-frame-outside-canvas", data: gifFrameOutsideCanvas()),
            Input(name: "gif-palette-index-out-of-range", data: gifPaletteIndexOutOfRange()),
            Input(name: "gif-10000-frames", data: gif(frames: 10_000)),
            Input(name: "jpeg-65500x65500-sof", data: jpegSOF(width: 65500, height: 65500)),
            Input(name: "jpeg-zero-width-sof", data: jpegSOF(width: 0, height: 64)),
            Input(
                name: "webp-16384x16384-canvas",
                data: WebPTestSupport.vp8xHeader(
                    width: 16384, height: 16384, flags: 0,
                    trailing: WebPTestSupport.vp8lChunk(width: 16384, height: 16384))),
            Input(name: "webp-vp8-zero-size", data: webpVP8(width: 0, height: 0)),
        ]
        for path in ["png/rgba8.png", "jpeg/photo_800x600.jpg", "gif/loop3_delays.gif", "webp/animated.webp"] {
            let data = try Fixtures.data(path)
            let stem = path.replacingOccurrences(of: "/", with: "-")
            for sixteenth in 1..<16 {
                inputs.append(
                    Input(name: "\(stem)-cut-\(sixteenth)of16", data: data.prefix(data.count * sixteenth / 16)))
            }
            var random = SplitMix64(seed: UInt64(data.count))
            for flip in 0..<4 {
                let flipped = random.flippingBits(4, in: [UInt8](data))
                inputs.append(Input(name: "\(stem)-flip-\(flip)", data: Data(flipped)))
            }
        }
        return inputs
    }

    // MARK: PNG

    static func png(width: Int, height: Int, idat: [UInt8]) -> Data {
        var ihdr = be32(width) + be32(height)
        ihdr += [8, 6, 0, 0, 0]  // 8-bit RGBA, no interlace
        return Data(
            [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + chunk("IHDR", ihdr) + chunk("IDAT", idat)
                + chunk("IEND", []))
    }

    /// A stored (uncompressed) zlib stream of `count` zero bytes.
    static func zlibZeros(count: Int) -> [UInt8] {
        let length = UInt16(count)
        let body = [UInt8](repeating: 0, count: count)
        let adler = adler32(body)
        return [0x78, 0x01, 1, UInt8(length & 0xFF), UInt8(length >> 8), UInt8(~length & 0xFF), UInt8(~length >> 8)]
            + body + be32(Int(adler))
    }

    static func chunk(_ type: String, _ payload: [UInt8]) -> [UInt8] {
        let typed = Array(type.utf8) + payload
        return be32(payload.count) + typed + be32(Int(typed.withUnsafeBytes { PNGChunkScan.crc32($0) }))
    }

    static func adler32(_ bytes: [UInt8]) -> UInt32 {
        var a: UInt32 = 1
        var b: UInt32 = 0
        for byte in bytes {
            a = (a + UInt32(byte)) % 65521
            b = (b + a) % 65521
        }
        return b << 16 | a
    }

    // MARK: GIF

    static func gifScreen(width: Int, height: Int) -> Data {
        var builder = GIFBuilder(width: width, height: height)
        builder.frames = [GIFBuilder.Frame(width: 1, height: 1, indices: [0])]
        return builder.data
    }

    static func gifFrameOutsideCanvas() -> Data {
        var builder = GIFBuilder(width: 4, height: 4)
        builder.frames = [
            GIFBuilder.Frame(x: 60000, y: 60000, width: 4, height: 4, indices: .init(repeating: 1, count: 16))
        ]
        return builder.data
    }

    static func gifPaletteIndexOutOfRange() -> Data {
        var builder = GIFBuilder(width: 4, height: 4)
        builder.frames = [
            GIFBuilder.Frame(width: 4, height: 4, indices: .init(repeating: 7, count: 16), minCodeSize: 3)
        ]
        return builder.data
    }

    static func gif(frames: Int) -> Data {
        var builder = GIFBuilder(width: 2, height: 2)
        builder.frames = (0..<frames).map { GIFBuilder.Frame(width: 2, height: 2, indices: [UInt8($0 % 4), 1, 2, 3]) }
        return builder.data
    }

    // MARK: JPEG and WebP

    /// SOI, a baseline SOF0 claiming the size, and EOI: no tables, no scan.
    static func jpegSOF(width: Int, height: Int) -> Data {
        let sof: [UInt8] =
            [0xFF, 0xC0, 0, 17, 8] + be16(height) + be16(width) + [3, 1, 0x22, 0, 2, 0x11, 1, 3, 0x11, 1]
        return Data([0xFF, 0xD8] + sof + [0xFF, 0xD9])
    }

    /// A lossy `VP8 ` key frame header with the given size and no partition data.
    static func webpVP8(width: Int, height: Int) -> Data {
        let frame: [UInt8] = [0x10, 0x02, 0x00, 0x9D, 0x01, 0x2A] + le16(width) + le16(height) + [0, 0]
        return WebPTestSupport.file(WebPTestSupport.chunk("VP8 ", frame))
    }
}
