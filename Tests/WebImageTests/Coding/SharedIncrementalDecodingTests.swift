import Foundation
import Testing

@testable import WebImage

/// What the AVIF, JPEG XL and WebP incremental decoders promise alike while a file downloads.
@Suite("Incremental decoding alike")
struct SharedIncrementalDecodingTests {
    /// A coder and a fixture it shows partial images of.
    struct Download: Sendable, CustomTestStringConvertible {
        let coder: any ProgressiveImageCoding
        let fixture: String
        var testDescription: String { fixture }
    }

    /// The downloads this build can show partial images of, each with the bytes a test damages
    /// (AVIF: the second row of tiles; JPEG XL: the DC groups) and how much of the file is enough
    /// for a partial image. WebP's incremental decoder is always built; its other promises are
    /// in its own tests.
    static let downloads: [(Download, Range<Int>, Double)] = {
        var downloads: [(Download, Range<Int>, Double)] = []
        #if AVIF
            downloads.append((Download(coder: AVIFCoder(), fixture: "avif/grid.avif"), 4000..<5000, 0.75))
        #endif
        #if JPEGXL
            downloads.append((Download(coder: JPEGXLCoder(), fixture: "jxl/progressive.jxl"), 600..<1800, 0.5))
        #endif
        return downloads
    }()

    @Test(arguments: downloads.map(\.0) + [Download(coder: WebPCoder(), fixture: "webp/photo.webp")])
    func truncatedFinalDataIsBadData(download: Download) throws {
        let data = try Fixtures.data(download.fixture)
        let decoder = download.coder.makeIncrementalDecoder(options: ImageDecodeOptions())
        decoder.update(data.prefix(data.count / 2), isFinal: false)
        #expect(try decoder.currentImage() != nil)
        decoder.update(data.prefix(data.count / 2), isFinal: true)
        #expect(performing: { _ = try decoder.currentImage() }, throws: isBadImageData)
    }

    /// Garbage over `damaged`, which the codec's own decoder notices.
    @Test(arguments: downloads.map { ($0.0, $0.1) })
    func aCorruptMiddleIsATypedErrorWhileDownloading(download: Download, damaged: Range<Int>) throws {
        var data = try Fixtures.data(download.fixture)
        data.replaceSubrange(damaged, with: (0..<damaged.count).map { UInt8(($0 * 151 + 7) & 0xFF) })
        let decoder = download.coder.makeIncrementalDecoder(options: ImageDecodeOptions())
        var thrown: WebImageError?
        for end in stride(from: 0, through: data.count, by: 500) where thrown == nil {
            decoder.update(data.prefix(end), isFinal: false)
            do { _ = try decoder.currentImage() } catch { thrown = error }
        }
        #expect(thrown?.code == .badImageData)
        decoder.update(data, isFinal: true)
        #expect(performing: { _ = try decoder.currentImage() }, throws: isBadImageData)
    }

    /// `shown` of the file is enough for a partial image.
    @Test(arguments: downloads.map { ($0.0, $0.2) })
    func theManagerPicksTheFormatsIncrementalDecoder(download: Download, shown: Double) throws {
        let data = try Fixtures.data(download.fixture)
        #expect(ImageCodersManager.shared.canDecodeIncrementally(data))
        let decoder = ImageCodersManager.shared.makeIncrementalDecoder(options: ImageDecodeOptions())
        decoder.update(data.prefix(Int(clamping: Double(data.count) * shown)), isFinal: false)
        #expect(try decoder.currentImage()?.isIncremental == true)
    }
}
