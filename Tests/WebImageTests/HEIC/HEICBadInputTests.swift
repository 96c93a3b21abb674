#if HEIC
    import Foundation
    import Testing

    @testable import WebImage

    /// Truncated, damaged, lying and foreign files end in typed errors, before any large allocation.
    @Suite("HEIC bad input")
    struct HEICBadInputTests {
        typealias S = HEICTestSupport

        /// Refused from the `ispe` size alone, before any HEVC data is decoded: `imageInfo`, which
        /// decodes nothing, reports that size. Past libheif's own 32768-pixel side, the container
        /// itself is refused.
        @Test func anIspeClaimingAHugePictureIsTooLargeNotDecoded() throws {
            let lying = try claimingSize(width: 16_000, height: 16_000, in: try S.data("photo"))
            #expect {
                _ = try S.decode(lying)
            } throws: { error in
                let error = error as? WebImageError
                return error?.code == .imageTooLarge && error?.pixelLimit?.width == 16_000
            }
            #expect(try HEICCoder().imageInfo(for: lying).width == 16_000)
            let absurd = try claimingSize(width: 60_000, height: 60_000, in: try S.data("photo"))
            #expect(performing: { _ = try S.decode(absurd) }, throws: isBadImageData)
            #expect(performing: { _ = try HEICCoder().imageInfo(for: absurd) }, throws: isBadImageData)
        }

        /// still.heic's HEVC picture is 64x64, cropped to 64x48 by `clap`: the picture decoded is the
        /// `ispe` one, so that is what the limit is checked on, whatever the crop shows.
        @Test func aSmallCropOfAHugeIspeIsStillTooLarge() throws {
            let lying = try claimingSize(width: 16_000, height: 16_000, in: try S.data("still"))
            #expect(try HEICCoder().imageInfo(for: lying).width == 64)
            #expect {
                _ = try S.decode(lying)
            } throws: { error in
                (error as? WebImageError)?.pixelLimit?.width == 16_000
            }
        }

        /// The HEVC picture is 192x128; a smaller declared size is refused, never decoded past.
        @Test func anIspeSmallerThanTheHEVCPictureIsBadData() throws {
            let lying = try claimingSize(width: 96, height: 64, in: try S.data("photo"))
            #expect(performing: { _ = try S.decode(lying) }, throws: isBadImageData)
            let info = try HEICCoder().imageInfo(for: lying)
            #expect(info.width == 96 && info.height == 64)
        }

        /// Flipped bits in the boxes end in a typed error; in the HEVC data libde265 may decode
        /// damaged pixels instead, but of the declared size. (An untyped error fails the test.)
        @Test func bitFlipsEndInATypedErrorOrAnImageOfTheDeclaredSize() throws {
            let data = try S.data("still")
            var generator = SplitMix64(seed: 29)
            var failures = 0
            for _ in 0..<300 {
                let bytes = generator.flippingBits(3, in: [UInt8](data))
                do {
                    let image = try S.decode(Data(bytes))
                    let info = try HEICCoder().imageInfo(for: Data(bytes))
                    #expect(image.orientedSize == PixelSize(width: info.width, height: info.height))
                } catch is WebImageError {
                    failures += 1
                }
            }
            #expect(failures > 0)
            // The `hvcC` decoder configuration renamed: libheif finds no HEVC stream to decode.
            var renamed = [UInt8](data)
            let at = try #require((0...(renamed.count - 4)).first { Array(renamed[$0..<$0 + 4]) == Array("hvcC".utf8) })
            renamed[at + 3] = UInt8(ascii: "X")
            #expect(performing: { _ = try S.decode(Data(renamed)) }, throws: isBadImageData)
        }

        @Test(arguments: ["png/rgba8.png", "webp/lossy.webp", "jpeg/photo_800x600.jpg"])
        func aFileThatIsNotHEIFIsBadData(path: String) throws {
            let data = try Fixtures.data(path)
            #expect(!HEICCoder().canDecode(data))
            #expect(performing: { _ = try S.decode(data) }, throws: isBadImageData)
            #expect(performing: { _ = try HEICCoder().imageInfo(for: data) }, throws: isBadImageData)
        }
    }
#endif
