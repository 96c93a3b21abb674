#if HEIC
    import Foundation
    import Testing

    @testable import WebImage

    /// HEIC's primary image and metadata (stills, alpha and 10-bit pictures against pillow-heif's
    /// decodes, orientation, thumbnails and the pixel limit are in SharedDecodingTests).
    @Suite("HEIC decoding")
    struct HEICDecodingTests {
        typealias S = HEICTestSupport

        @Test func theFirstFrameIsThePrimaryImage() throws {
            let data = try S.data("still")
            let first = try S.decode(data) { $0.firstFrameOnly = true }
            let full = try S.decode(data)
            #expect(first.frameCount == 1 && first.bitmap == full.bitmap)
            #expect(try HEICCoder().imageInfo(for: data).frameCount == 1)
        }

        @Test func embeddedICCEXIFAndXMPAreReadAsAsked() throws {
            let data = try S.data("metadata")
            let icc = try Fixtures.data("metadata/srgb.icc")
            let xmp = try Fixtures.data("metadata/metadata.xmp")
            let all = try S.decode(data) { $0.readMetadata = .all }
            #expect(all.metadata.iccProfile == icc)
            #expect(all.metadata.xmp == xmp)
            let exif = try #require(all.metadata.exif)
            #expect(exif.starts(with: Data("MM\0*".utf8)) || exif.starts(with: Data("II*\0".utf8)))
            #expect(exif.range(of: Data("WebImageTests".utf8)) != nil)
            let byDefault = try S.decode(data)
            #expect(byDefault.metadata == ImageMetadata(iccProfile: icc))
            #expect(try S.decode(data) { $0.readMetadata = [] }.metadata.isEmpty)
        }

        /// A `mif1` major brand is plain HEIF: the same coder reads it and reports ``ImageFormat/heif``.
        @Test func aMif1MajorBrandDecodesAsHEIF() throws {
            var bytes = [UInt8](try S.data("still"))
            bytes.replaceSubrange(8..<12, with: Array("mif1".utf8))
            let data = Data(bytes)
            #expect(ImageFormat(detecting: data) == .heif)
            #expect(ImageCodersManager.shared.canDecode(data))
            let image = try ImageCodersManager.shared.decode(data, options: ImageDecodeOptions())
            #expect(image.format == .heif)
            #expect(try HEICCoder().imageInfo(for: data).format == .heif)
            let asHEIC = try S.decode(try S.data("still"))
            #expect(image.bitmap == asHEIC.bitmap)
        }
    }
#endif
