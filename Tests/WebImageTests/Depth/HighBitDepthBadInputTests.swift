import Foundation
import Testing

@testable import WebImage

@Suite("High bit depth: bad input")
struct HighBitDepthBadInputTests {
    static var files: [String] {
        var files = DepthFixtures.pngNames.map { $0 + ".png" }
        #if TIFF
            files += DepthFixtures.tiffNames.map { $0 + ".tif" } + ["float.tif"]
        #endif
        return files + DepthFixtures.codecFileNames
    }

    @Test("a truncated 16-bit file gives a typed error, never a partial or different image", arguments: files)
    func truncatedGivesTypedError(file: String) throws {
        let data = try DepthFixtures.data(file)
        for cut in stride(from: 0, to: data.count - 16, by: max(1, data.count / 40)) {
            do {
                let image = try DepthFixtures.decodeDeep(Data(data.prefix(cut)))
                // libtiff may read a strip that ends early as what it has: the size must hold.
                #expect(image.deepBitmap?.size ?? image.bitmap.size == DepthFixtures.size, "\(file) cut at \(cut)")
            } catch {
                #expect(!error.localizedDescription.isEmpty)
            }
        }
    }

    @Test("a 16-bit PNG cut inside its image data is an error")
    func pngCutInsideIDATIsAnError() throws {
        let data = try DepthFixtures.data("rgba16.png")
        #expect(throws: WebImageError.self) { try DepthFixtures.decodeDeep(Data(data.prefix(data.count - 30))) }
    }

    @Test("bit flips in 16-bit files give a typed error or an image of sane size", arguments: files)
    func bitFlips(file: String) throws {
        var generator = SplitMix64(seed: 0xDEE9)
        let original = try DepthFixtures.data(file)
        var options = DepthFixtures.deepOptions
        options.maxPixelCount = 1_000_000
        for _ in 0..<64 {
            let damaged = generator.flippingBits(1 + Int(generator.next() % 6), in: [UInt8](original))
            if let image = try? ImageCodersManager.shared.decode(Data(damaged), options: options) {
                #expect(image.width * image.height <= options.maxPixelCount, "\(file)")
                if let deep = image.deepBitmap {
                    #expect(deep.size == image.bitmap.size && image.bitmap == deep.reducedToEightBits(), "\(file)")
                }
            }
        }
    }

    @Test("a 16-bit header past the pixel limit is refused before allocating")
    func pixelLimitHolds() throws {
        var options = DepthFixtures.deepOptions
        options.maxPixelCount = 100
        for file in Self.files {
            #expect(throws: WebImageError.self, "\(file)") {
                try ImageCodersManager.shared.decode(DepthFixtures.data(file), options: options)
            }
        }
    }

    @Test(
        "a deep AVIF, HEIC or JPEG XL file cut short is a typed error, never a crash",
        arguments: DepthFixtures.codecFileNames)
    func truncatedDeepCodecFileIsTypedError(file: String) throws {
        let data = try DepthFixtures.data(file)
        for cut in [0, 8, 16, 32, data.count / 2, data.count * 3 / 4, data.count - 8] {
            #expect(throws: WebImageError.self, "\(file) cut at \(cut)") {
                try DepthFixtures.decodeDeep(Data(data.prefix(cut)))
            }
        }
    }
}
