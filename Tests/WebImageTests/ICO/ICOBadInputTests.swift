import Foundation
import Testing

@testable import WebImage

/// Hostile ICO directories and entries: typed errors from both the decoder and the header
/// read, before anything is allocated for pixels.
@Suite("ICO bad input")
struct ICOBadInputTests {
    typealias Support = ICOTestSupport
    typealias Entry = ICOTestSupport.Entry

    /// A valid 2×2 32-bit bitmap entry, to point directories at.
    static let payload = Support.bitmap32(width: 2, height: 2) { _, _ in .white }

    static func expectBadData(_ data: Data, _ comment: Comment, sourceLocation: SourceLocation = #_sourceLocation) {
        expectBadImageData(comment, sourceLocation: sourceLocation) { try Support.decode(data) }
        expectBadImageData(comment, sourceLocation: sourceLocation) { try ICOCoder().imageInfo(for: data) }
    }

    @Test func hostileDirectoriesAreBadImageData() {
        let size = Self.payload.count
        Self.expectBadData(Support.file([], count: 0, payloads: Self.payload), "no entries")
        Self.expectBadData(
            Support.file([Entry(width: 2, height: 2, size: size, offset: 22)], count: 40, payloads: Self.payload),
            "a count beyond the file")
        Self.expectBadData(
            Support.file([Entry(width: 2, height: 2, size: 0, offset: 22)], payloads: Self.payload), "a zero size")
        Self.expectBadData(
            Support.file([Entry(width: 2, height: 2, size: size, offset: 10)], payloads: Self.payload),
            "an entry overlapping the directory")
        Self.expectBadData(
            Support.file([Entry(width: 2, height: 2, size: size + 1, offset: 22)], payloads: Self.payload),
            "an entry running past the file")
        Self.expectBadData(
            Support.file([Entry(width: 2, height: 2, size: size, offset: 0xFFFF_FFF0)], payloads: Self.payload),
            "an entry starting past the file")
        Self.expectBadData(
            Support.file(
                [
                    Entry(width: 2, height: 2, size: size, offset: 38),
                    Entry(width: 2, height: 2, size: 0xFFFF_FFFF, offset: 38),
                ], payloads: Self.payload), "a second, huge entry")
    }

    @Test func hostileEntriesAreBadImageData() {
        var zeroWidth = Self.payload
        zeroWidth.replaceSubrange(4..<8, with: Support.le32(0))
        Self.expectBadData(Support.file(payloads: [zeroWidth]), "a width of 0")
        var oneRow = Self.payload
        oneRow.replaceSubrange(8..<12, with: Support.le32(1))  // halved: no row at all
        Self.expectBadData(Support.file(payloads: [oneRow]), "a height of 1 for pixels and mask")
        var runLength = Self.payload
        runLength.replaceSubrange(16..<20, with: Support.le32(1))
        expectBadImageData("RLE") { try Support.decode(Support.file(payloads: [runLength])) }
        var hugePalette = Self.payload
        hugePalette.replaceSubrange(14..<16, with: Support.le16(8))
        hugePalette.replaceSubrange(32..<36, with: Support.le32(0x4000_0000))
        expectBadImageData("a palette past the entry") { try Support.decode(Support.file(payloads: [hugePalette])) }
        Self.expectBadData(Support.file(payloads: [[0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0]]), "a cut PNG")
        Self.expectBadData(Support.file(payloads: [[1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16]]), "junk")
    }

    /// Sizes are the payload's, so the pixel limit applies to what would be allocated, whatever
    /// the directory says.
    @Test func absurdDimensionsHitThePixelLimit() throws {
        for (width, height) in [(40_000, 40_000), (Int(Int32.max), 2)] {
            var huge = Self.payload
            huge.replaceSubrange(4..<12, with: Support.le32(width) + Support.le32(height * 2))
            let error = webImageError { _ = try Support.decode(Support.file(payloads: [huge])) }
            #expect(error?.code == .imageTooLarge, "\(width)x\(height)")
            // The header read allocates nothing, so it reports the size.
            #expect(try ICOCoder().imageInfo(for: Support.file(payloads: [huge])).width == width)
        }
        let data = try Support.data("png_multi")
        let error = webImageError { _ = try Support.decode(data) { $0.maxPixelCount = 64 * 63 } }
        #expect(error?.code == .imageTooLarge, "a PNG entry over the limit")
    }

    @Test func truncatedFilesAreBadImageData() throws {
        let data = try Support.data("mixed")
        for length in [0, 5, 6, 21, 40, 54, data.count / 2, data.count - 1] {
            expectBadImageData("\(length) bytes") { try Support.decode(Data(data.prefix(length))) }
        }
    }
}
