#if AVIF
    import Foundation
    import Testing

    @testable import WebImage

    /// Truncated, damaged and lying AVIF files end in typed errors, before any large allocation.
    @Suite("AVIF bad input")
    struct AVIFBadInputTests {
        typealias S = AVIFTestSupport

        @Test func anIspeClaimingAHugePictureIsTooLargeNotDecoded() throws {
            let lying = try claimingSize(width: 16_000, height: 16_000, in: try S.data("still"))
            #expect {
                _ = try S.decode(lying)
            } throws: { error in
                (error as? WebImageError)?.code == .imageTooLarge
            }
            // Past libavif's own 32768-pixel side, the container itself is refused.
            let absurd = try claimingSize(width: 60_000, height: 60_000, in: try S.data("still"))
            #expect(performing: { _ = try S.decode(absurd) }, throws: isBadImageData)
        }

        /// The AV1 frame is 64x48; a smaller declared size is either what comes out or an error.
        @Test func anIspeSmallerThanTheAV1FrameNeverYieldsMorePixelsThanDeclared() throws {
            let lying = try claimingSize(width: 32, height: 24, in: try S.data("still"))
            if let image = try? S.decode(lying) {
                #expect(image.bitmap.size == PixelSize(width: 32, height: 24))
            }
            let info = try AVIFCoder().imageInfo(for: lying)
            #expect(info.width == 32 && info.height == 24)
        }

    }
#endif
