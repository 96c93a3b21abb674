#if HEIC
    import Foundation
    import Testing

    @testable import WebImage

    /// Truncated, damaged, lying and foreign files end in typed errors, before any large allocation.
    @Suite("HEIC bad input")
    struct HEICBadInputTests {
        typealias S = HEICTestSupport

        static func isBadData(_ error: any Error) -> Bool { (error as? WebImageError)?.code == .badImageData }

        /// Refused from the `ispe` size alone, before any HEVC data is decoded: `imageInfo`, which
        /// decodes nothing, reports that size. Past libheif's own 32768-pixel side, the container
        /// itself is refused.
        @Test func anIspeClaimingAHugePictureIsTooLargeNotDecoded() throws {
            let lying = try S.claiming(width: 16_000, height: 16_000, in: try S.data("photo"))
            #expect {
                _ = try S.decode(lying)
            } throws: { error in
                let error = error as? WebImageError
                return error?.code == .imageTooLarge && error?.pixelLimit?.width == 16_000
            }
            #expect(try HEICCoder().imageInfo(for: lying).width == 16_000)
            let absurd = try S.claiming(width: 60_000, height: 60_000, in: try S.data("photo"))
            #expect(performing: { _ = try S.decode(absurd) }, throws: Self.isBadData)
            #expect(performing: { _ = try HEICCoder().imageInfo(for: absurd) }, throws: Self.isBadData)
        }

        /// still.heic's HEVC picture is 64x64, cropped to 64x48 by `clap`: the picture decoded is the
        /// `ispe` one, so that is what the limit is checked on, whatever the crop shows.
        @Test func aSmallCropOfAHugeIspeIsStillTooLarge() throws {
            let lying = try S.claiming(width: 16_000, height: 16_000, in: try S.data("still"))
            #expect(try HEICCoder().imageInfo(for: lying).width == 64)
            #expect {
                _ = try S.decode(lying)
            } throws: { error in
                (error as? WebImageError)?.pixelLimit?.width == 16_000
            }
        }

        /// The HEVC picture is 192x128; a smaller declared size is refused, never decoded past.
        @Test func anIspeSmallerThanTheHEVCPictureIsBadData() throws {
            let lying = try S.claiming(width: 96, height: 64, in: try S.data("photo"))
            #expect(performing: { _ = try S.decode(lying) }, throws: Self.isBadData)
            let info = try HEICCoder().imageInfo(for: lying)
            #expect(info.width == 96 && info.height == 64)
        }

        @Test func truncatedFilesAndAHeaderAloneAreBadData() throws {
            let data = try S.data("photo")
            for length in [0, 11, 12, 40, 200, data.count / 2, data.count - 1] {
                #expect(performing: { _ = try S.decode(Data(data.prefix(length))) }, throws: Self.isBadData)
            }
            let header = Data([0, 0, 0, 0x18] + Array("ftypheic".utf8) + [0, 0, 0, 0] + Array("mif1heic".utf8))
            #expect(HEICCoder().canDecode(header))
            #expect(performing: { _ = try S.decode(header) }, throws: Self.isBadData)
            #expect(performing: { _ = try HEICCoder().imageInfo(for: header) }, throws: Self.isBadData)
        }

        /// Flipped bits in the boxes end in a typed error; in the HEVC data libde265 may decode
        /// damaged pixels instead, but of the declared size. (An untyped error fails the test.)
        @Test func bitFlipsEndInATypedErrorOrAnImageOfTheDeclaredSize() throws {
            let data = try S.data("still")
            var generator = SplitMix64(state: 29)
            var failures = 0
            for _ in 0..<300 {
                var bytes = [UInt8](data)
                for _ in 0..<3 {
                    let at = Int(generator.next() % UInt64(bytes.count))
                    bytes[at] ^= 1 << UInt8(generator.next() % 8)
                }
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
            #expect(performing: { _ = try S.decode(Data(renamed)) }, throws: Self.isBadData)
        }

        @Test(arguments: ["png/rgba8.png", "webp/lossy.webp", "jpeg/photo_800x600.jpg"])
        func aFileThatIsNotHEIFIsBadData(path: String) throws {
            let data = try Fixtures.data(path)
            #expect(!HEICCoder().canDecode(data))
            #expect(performing: { _ = try S.decode(data) }, throws: Self.isBadData)
            #expect(performing: { _ = try HEICCoder().imageInfo(for: data) }, throws: Self.isBadData)
        }
    }
#endif
