#if AVIF
    import Foundation
    import Testing

    @testable import WebImage

    /// Truncated, damaged and lying AVIF files end in typed errors, before any large allocation.
    @Suite("AVIF bad input")
    struct AVIFBadInputTests {
        typealias S = AVIFTestSupport

        static func isBadData(_ error: any Error) -> Bool { (error as? WebImageError)?.code == .badImageData }

        /// `data` with the `ispe` box's width and height replaced.
        static func claiming(width: UInt32, height: UInt32, in data: Data) throws -> Data {
            var bytes = [UInt8](data)
            let tag = Array("ispe".utf8)
            let at = try #require((0...(bytes.count - 4)).first { Array(bytes[$0..<$0 + 4]) == tag })
            // type, version and flags (4), width (4), height (4).
            for (offset, value) in [(8, width), (12, height)] {
                for index in 0..<4 { bytes[at + offset + index] = UInt8(truncatingIfNeeded: value >> (24 - 8 * index)) }
            }
            return Data(bytes)
        }

        @Test func anIspeClaimingAHugePictureIsTooLargeNotDecoded() throws {
            let lying = try Self.claiming(width: 16_000, height: 16_000, in: try S.data("still"))
            #expect {
                _ = try S.decode(lying)
            } throws: { error in
                (error as? WebImageError)?.code == .imageTooLarge
            }
            // Past libavif's own 32768-pixel side, the container itself is refused.
            let absurd = try Self.claiming(width: 60_000, height: 60_000, in: try S.data("still"))
            #expect(performing: { _ = try S.decode(absurd) }, throws: Self.isBadData)
        }

        /// The AV1 frame is 64x48; a smaller declared size is either what comes out or an error.
        @Test func anIspeSmallerThanTheAV1FrameNeverYieldsMorePixelsThanDeclared() throws {
            let lying = try Self.claiming(width: 32, height: 24, in: try S.data("still"))
            if let image = try? S.decode(lying) {
                #expect(image.bitmap.size == PixelSize(width: 32, height: 24))
            }
            let info = try AVIFCoder().imageInfo(for: lying)
            #expect(info.width == 32 && info.height == 24)
        }

        @Test func truncatedFilesAndAHeaderAloneAreBadData() throws {
            let data = try S.data("photo")
            for length in [0, 12, 40, data.count / 2, data.count - 1] {
                #expect(performing: { _ = try S.decode(Data(data.prefix(length))) }, throws: Self.isBadData)
            }
            let header = Data([0, 0, 0, 0x18] + Array("ftypavif".utf8) + [0, 0, 0, 0] + Array("mif1avif".utf8))
            #expect(AVIFCoder().canDecode(header))
            #expect(performing: { _ = try S.decode(header) }, throws: Self.isBadData)
            #expect(performing: { _ = try AVIFCoder().imageInfo(for: header) }, throws: Self.isBadData)
        }

        @Test func encodingToAnotherFormatIsUnsupported() throws {
            let image = Image(bitmap: ImageBitmap(width: 2, height: 2, fill: .white), format: .png, hasAlpha: false)
            #expect(!AVIFCoder().canEncode(to: .png))
            #expect {
                _ = try AVIFCoder().encode(image, as: .png, options: ImageEncodeOptions())
            } throws: { error in
                (error as? WebImageError)?.code == .unsupportedFormat
            }
        }
    }
#endif
