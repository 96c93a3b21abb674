import Foundation
import Testing

@testable import WebImage

/// The encode options a service needs: effort, palettes, chroma subsampling.
@Suite("Encode options: effort, palettes, chroma subsampling")
struct EncodeOptionsTests {
    /// A smooth gradient with noise: a photo's statistics, more than 256 colours.
    static func photo(width: Int = 96, height: Int = 64, alpha: Bool = false) -> Image {
        var random = SplitMix64(seed: 7)
        var bitmap = ImageBitmap(width: width, height: height, fill: .white)
        for y in 0..<height {
            for x in 0..<width {
                let noise = { UInt8(truncatingIfNeeded: Int(random.next() % 9)) }
                bitmap[x, y] = RGBA8(
                    r: UInt8(x * 255 / width) &+ noise(), g: UInt8(y * 255 / height) &+ noise(),
                    b: UInt8((x + y) * 127 / (width + height)) &+ noise(), a: alpha ? UInt8(128 + x % 100) : 255)
            }
        }
        return Image(bitmap: bitmap, hasAlpha: alpha)
    }

    static func encode(_ image: Image, as format: ImageFormat, _ configure: (inout ImageEncodeOptions) -> Void)
        throws -> Data
    {
        try ImageCodersManager.shared.encode(image, as: format, configure)
    }

    static func decode(_ data: Data) throws -> Image {
        try ImageCodersManager.shared.decode(data, options: ImageDecodeOptions())
    }

    /// The chunk types of a PNG, in order.
    static func chunks(of png: Data) -> [String] {
        var types: [String] = []
        var offset = png.startIndex + 8
        while offset + 8 <= png.endIndex {
            let length = png[offset..<offset + 4].reduce(0) { $0 << 8 | Int($1) }
            types.append(String(decoding: png[offset + 4..<offset + 8], as: UTF8.self))
            offset += 12 + length
        }
        return types
    }

    // MARK: PNG

    @Test func pngEffortTradesTimeForBytesAndNeverChangesAPixel() throws {
        let image = Self.photo(width: 160, height: 120, alpha: true)
        var sizes: [Int] = []
        for effort in EncodeEffort.allCases {
            let data = try Self.encode(image, as: .png) { $0.effort = effort }
            #expect(try Self.decode(data).bitmap == image.bitmap, "\(effort)")
            sizes.append(data.count)
        }
        #expect(sizes[0] > sizes[1] && sizes[1] >= sizes[2], "fastest, balanced, smallest: \(sizes)")
    }

    @Test func anImageOfAtMost256ColoursIsWrittenWithAPaletteBitExact() throws {
        // Five colours, two of them not opaque (one fully transparent with a colour of its own).
        let colours = [
            RGBA8(r: 200, g: 10, b: 10), RGBA8(r: 10, g: 200, b: 10), RGBA8(r: 1, g: 2, b: 3, a: 0),
            RGBA8(r: 10, g: 10, b: 200, a: 90), .white,
        ]
        var bitmap = ImageBitmap(width: 40, height: 30, fill: .white)
        for y in 0..<30 { for x in 0..<40 { bitmap[x, y] = colours[(x / 4 + y / 3) % colours.count] } }
        let image = Image(bitmap: bitmap, hasAlpha: true)
        let data = try Self.encode(image, as: .png) { _ in }
        #expect(PNGFixture.colorType(of: data) == 3)
        #expect(data[data.startIndex + 24] == 4, "five entries need 4 bits a pixel")
        #expect(Self.chunks(of: data).prefix(4) == ["IHDR", "PLTE", "tRNS", "IDAT"])
        #expect(try PNGFixture.decodeStored(data).bitmap == bitmap)
        // Smaller than the same pixels as RGBA.
        var noisier = bitmap
        noisier[0, 0] = RGBA8(r: 0, g: 0, b: 0, a: 0)  // still 6 colours: still a palette
        #expect(PNGFixture.colorType(of: try Self.encode(Image(bitmap: noisier), as: .png) { _ in }) == 3)
    }

    @Test func twoOpaqueColoursPackAtOneBitWithoutTRNS() throws {
        // Large enough that the palette's own bytes do not outweigh 1 bit against 24 a pixel.
        var random = SplitMix64(seed: 3)
        var bitmap = ImageBitmap(width: 257, height: 90, fill: .black)
        for y in 0..<90 { for x in 0..<257 where random.next() % 2 == 0 { bitmap[x, y] = .white } }
        let data = try Self.encode(Image(bitmap: bitmap, hasAlpha: false), as: .png) { _ in }
        #expect(PNGFixture.colorType(of: data) == 3)
        #expect(data[data.startIndex + 24] == 1)
        #expect(!Self.chunks(of: data).contains("tRNS"))
        #expect(try PNGFixture.decodeStored(data).bitmap == bitmap)
    }

    @Test func moreThan256ColoursStayTruecolor() throws {
        var bitmap = ImageBitmap(width: 257, height: 1, fill: .black)
        for x in 0..<257 { bitmap[x, 0] = RGBA8(r: UInt8(x % 256), g: x == 256 ? 1 : 0, b: 0) }
        let data = try Self.encode(Image(bitmap: bitmap, hasAlpha: false), as: .png) { _ in }
        #expect(PNGFixture.colorType(of: data) == 2)
        #expect(try PNGFixture.decodeStored(data).bitmap == bitmap)
    }

    // MARK: JPEG

    /// The luma sampling factors (H, V) from a JPEG's SOF0 segment.
    static func lumaSampling(of jpeg: Data) -> (Int, Int)? {
        let bytes = [UInt8](jpeg)
        var index = 2
        while index + 4 < bytes.count, bytes[index] == 0xFF {
            let marker = bytes[index + 1]
            let length = Int(bytes[index + 2]) << 8 | Int(bytes[index + 3])
            if marker == 0xC0 || marker == 0xC2 {
                // Length, precision, height, width, component count, then (id, sampling, table).
                let sampling = bytes[index + 4 + 7]
                return (Int(sampling >> 4), Int(sampling & 0x0F))
            }
            index += 2 + length
        }
        return nil
    }

    @Test(
        "chroma subsampling sets the luma sampling factors",
        arguments: [(ChromaSubsampling.yuv420, 2, 2), (.yuv422, 2, 1), (.yuv444, 1, 1)])
    func chromaSubsampling(_ subsampling: ChromaSubsampling, horizontal: Int, vertical: Int) throws {
        let image = Self.photo()
        let data = try Self.encode(image, as: .jpeg) {
            $0.compressionQuality = 0.9
            $0.chromaSubsampling = subsampling
        }
        let sampling = try #require(Self.lumaSampling(of: data))
        #expect(sampling == (horizontal, vertical))
        #expect(try Self.decode(data).bitmap.size == image.bitmap.size)
    }

    @Test func fullResolutionColourKeepsAColouredEdgeSharper() throws {
        // Red and blue columns one pixel wide: 4:2:0 averages their colour, 4:4:4 keeps it.
        var bitmap = ImageBitmap(width: 32, height: 32, fill: .white)
        for y in 0..<32 {
            for x in 0..<32 {
                bitmap[x, y] = x.isMultiple(of: 2) ? RGBA8(r: 255, g: 0, b: 0) : RGBA8(r: 0, g: 0, b: 255)
            }
        }
        func redError(_ subsampling: ChromaSubsampling) throws -> Int {
            let data = try Self.encode(Image(bitmap: bitmap, hasAlpha: false), as: .jpeg) {
                $0.compressionQuality = 0.95
                $0.chromaSubsampling = subsampling
            }
            let decoded = try Self.decode(data).bitmap
            return (0..<32).reduce(0) { $0 + abs(Int(decoded[16, $1].r) - 255) }
        }
        #expect(try redError(.yuv444) * 4 < (try redError(.yuv420)))
    }

    @Test func smallestEffortOptimizesHuffmanTablesForTheSamePixels() throws {
        let image = Self.photo(width: 200, height: 150)
        let balanced = try Self.encode(image, as: .jpeg) { $0.compressionQuality = 0.8 }
        let smallest = try Self.encode(image, as: .jpeg) {
            $0.compressionQuality = 0.8
            $0.effort = .smallest
        }
        #expect(smallest.count < balanced.count)
        #expect(try Self.decode(smallest).bitmap == (try Self.decode(balanced)).bitmap)
    }

    // MARK: File size limits

    @Test func aStrictMaxFileSizeFailsWithTheSizesInsteadOfReturningALargerFile() throws {
        let image = Self.photo(width: 200, height: 150)
        for format in [ImageFormat.jpeg, .webp, .png] {
            // Not strict: the smallest file, above the limit, as SDWebImage does.
            let lenient = try Self.encode(image, as: format) { $0.maxFileSize = 100 }
            #expect(lenient.count > 100, "\(format)")
            let error = #expect(throws: WebImageError.self) {
                try Self.encode(image, as: format) {
                    $0.maxFileSize = 100
                    $0.failsAboveMaxFileSize = true
                }
            }
            #expect(error?.code == .encodingFailed)
            #expect(
                error?.message.contains("\(lenient.count) bytes; the limit is 100") == true,
                "\(String(describing: error))")
            // A limit that can be met is met, strict or not.
            let met = try Self.encode(image, as: format) {
                $0.maxFileSize = lenient.count * 4
                $0.failsAboveMaxFileSize = true
            }
            #expect(met.count <= lenient.count * 4)
        }
    }

    // MARK: WebP

    @Test func webpEffortKeepsQualityAndShrinksTheFile() throws {
        let image = Self.photo(width: 200, height: 150)
        let sizes = try [EncodeEffort.fastest, .smallest].map { effort in
            try Self.encode(image, as: .webp) {
                $0.compressionQuality = 0.8
                $0.effort = effort
            }
        }
        #expect(sizes[1].count < sizes[0].count)
        for data in sizes {
            let decoded = try Self.decode(data).bitmap
            #expect(isClose(decoded[100, 75], image.bitmap[100, 75], tolerance: 24))
        }
    }

    @Test func animatedWebPAtEveryEffortKeepsItsFrames() throws {
        let colours = [
            RGBA8(r: 0, g: 100, b: 200), RGBA8(r: 60, g: 100, b: 160), RGBA8(r: 120, g: 100, b: 120),
            RGBA8(r: 180, g: 100, b: 80),
        ]
        let frames = colours.enumerated().map { index, colour in
            ImageFrame(bitmap: ImageBitmap(width: 64, height: 48, fill: colour), duration: 0.1 * Double(index + 1))
        }
        let image = Image(bitmap: frames[0].bitmap, animation: ImageAnimation(frames: frames, loopCount: 3))
        var sizes: [Int] = []
        for effort in EncodeEffort.allCases {
            let data = try Self.encode(image, as: .webp) {
                $0.compressionQuality = 0.8
                $0.effort = effort
            }
            let decoded = try Self.decode(data)
            let animation = try #require(decoded.animation)
            #expect(animation.frameCount == 4 && animation.loopCount == 3)
            #expect(animation.duration(at: 3) == 0.4)
            sizes.append(data.count)
        }
        #expect(sizes[2] <= sizes[0], "\(sizes)")
    }
}
