#if JPEGXL
    import Foundation
    import Testing

    @testable import WebImage

    /// Truncated, damaged, lying and foreign files end in typed errors, before any large allocation.
    @Suite("JPEG XL bad input")
    struct JPEGXLBadInputTests {
        typealias S = JPEGXLTestSupport

        @Test func aHeaderClaimingTwoGigapixelsIsTooLargeBeforeAnyPixelIsAllocated() throws {
            let data = try S.data("hostile-huge-header")
            #expect {
                _ = try S.decode(data)
            } throws: { error in
                (error as? WebImageError)?.code == .imageTooLarge
            }
            // The header alone is enough for imageInfo; the missing frame makes it bad data.
            #expect(performing: { _ = try JPEGXLCoder().imageInfo(for: data) }, throws: isBadImageData)
        }

        @Test func truncatedFilesAreBadDataNotAWaitForMoreInput() throws {
            for name in ["photo", "animated", "rotated"] {
                let data = try S.data(name)
                for length in [0, 1, 2, 12, data.count / 2, data.count - 1] {
                    #expect(performing: { _ = try S.decode(Data(data.prefix(length))) }, throws: isBadImageData)
                }
            }
            // A lazy animation whose later frames are cut off fails on those frames alone.
            let animated = try S.data("animated")
            let lazy = try S.decode(Data(animated.dropLast(1))) { $0.lazyAnimatedFrames = true }
            let animation = try #require(lazy.animation)
            #expect(
                try animation.frame(at: 2).bitmap == (try S.reference("animated-2", PixelSize(width: 40, height: 30))))
            #expect(performing: { _ = try animation.frame(at: 3) }, throws: isBadImageData)
        }

        @Test func everySingleBitFlipEndsInAnImageOrATypedError() throws {
            let data = try S.data("lossless")
            var failures = 0
            for bit in 0..<(data.count * 8) {
                var damaged = data
                damaged[bit / 8] ^= UInt8(1 << (bit % 8))
                do {
                    let image = try S.decode(damaged)
                    #expect(image.bitmap.byteCount == image.width * image.height * 4)
                } catch {
                    #expect(isBadImageData(error) || (error as? WebImageError)?.code == .imageTooLarge, "bit \(bit)")
                    failures += 1
                }
            }
            #expect(failures > 0, "some flips must be detected")
        }

        @Test func otherFormatsAndGarbageAreRefused() throws {
            let png = try Fixtures.data("color/srgb.png")
            #expect(!JPEGXLCoder().canDecode(png))
            #expect(performing: { _ = try S.decode(png) }, throws: isBadImageData)
            let garbage = Data([0xFF, 0x0A] + (0..<64).map { UInt8(($0 * 37) & 0xFF) })
            #expect(JPEGXLCoder().canDecode(garbage))
            #expect(performing: { _ = try S.decode(garbage) }, throws: isBadImageData)
            #expect(performing: { _ = try JPEGXLCoder().imageInfo(for: Data()) }, throws: isBadImageData)
        }

    }
#endif
