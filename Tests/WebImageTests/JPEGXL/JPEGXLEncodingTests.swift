#if JPEGXL
    import Foundation
    import Testing

    @testable import WebImage

    /// JPEG XL encoding: lossless pictures, animations, orientation, metadata and effort (what it
    /// shares with AVIF and HEIC is in SharedEncodingTests).
    @Suite("JPEG XL encoding")
    struct JPEGXLEncodingTests {
        typealias S = JPEGXLTestSupport

        @Test func losslessKeepsAnOpaquePictureExactlyAndWithoutAlpha() throws {
            let opaque = try S.reference("lossless", PixelSize(width: 64, height: 48))
            let encoded = try S.encode(Image(bitmap: opaque, format: .png, hasAlpha: false)) { $0.lossless = true }
            let back = try S.decode(encoded)
            #expect(!back.hasAlpha && back.bitmap == opaque)
        }

        @Test func anAnimationKeepsItsFramesDurationsAndLoopCount() throws {
            let colours = [
                RGBA8(r: 250, g: 20, b: 20), RGBA8(r: 20, g: 250, b: 20), RGBA8(r: 20, g: 20, b: 250, a: 100),
            ]
            let frames = colours.enumerated().map { index, colour in
                ImageFrame(
                    bitmap: ImageBitmap(width: 32, height: 24, fill: colour), duration: [0.1, 0.25, 0.04][index])
            }
            let image = Image(
                bitmap: frames[0].bitmap, format: .gif, animation: ImageAnimation(frames: frames, loopCount: 2),
                hasAlpha: true)
            let data = try S.encode(image) { $0.lossless = true }
            let decoded = try S.decode(data)
            let animation = try #require(decoded.animation)
            #expect(animation.frameCount == 3 && animation.loopCount == 2 && decoded.hasAlpha)
            for index in 0..<3 {
                let frame = try animation.frame(at: index)
                #expect(abs(frame.duration - frames[index].duration) < 0.001)
                #expect(frame.bitmap == frames[index].bitmap, "frame \(index)")
            }
            let still = try S.encode(image) { $0.firstFrameOnly = true }
            #expect(try JPEGXLCoder().imageInfo(for: still).frameCount == 1)
        }

        @Test func theOrientationIsAppliedBeforeEncoding() throws {
            let stored = try S.decode(try S.data("rotated")) { $0.applyOrientation = false }
            let decoded = try S.decode(try S.encode(stored) { $0.lossless = true })
            #expect(decoded.orientation == .up)
            #expect(decoded.bitmap == (try S.reference("rotated", PixelSize(width: 32, height: 48))))
        }

        @Test func aKeptProfileTravelsAndAStrippedOneDoesNot() throws {
            let profile = try Fixtures.data("color/display-p3.icc")
            var source = try S.photo()
            source.metadata = ImageMetadata(iccProfile: profile)
            let kept = try S.decode(try S.encode(source) { $0.lossless = true })
            #expect(kept.metadata.iccProfile == profile)
            #expect(kept.bitmap == source.bitmap)
            let stripped = try S.decode(
                try S.encode(source) {
                    $0.lossless = true
                    $0.keptMetadata = []
                })
            #expect(stripped.metadata.iccProfile == nil && stripped.bitmap == source.bitmap)
            // Lossy: libjxl converts from the profile to XYB and decodes to sRGB, so no profile is
            // left to report, and the pixels differ from the stored Display P3 values.
            let lossy = try S.decode(try S.encode(source) { $0.compressionQuality = 0.9 })
            #expect(lossy.metadata.iccProfile == nil)
        }

        @Test func keptEXIFAndXMPGoIntoContainerBoxesAndAreReadBack() throws {
            let exif = Data([
                0x4D, 0x4D, 0, 0x2A, 0, 0, 0, 8, 0, 1, 0x01, 0x12, 0, 3, 0, 0, 0, 1, 0, 6, 0, 0, 0, 0, 0, 0,
            ])
            let xmp = Data("<x:xmpmeta xmlns:x=\"adobe:ns:meta/\"/>".utf8)
            var source = try S.photo()
            source.metadata = ImageMetadata(exif: exif, xmp: xmp)
            let kept = try S.encode(source) { $0.keptMetadata = .all }
            #expect(kept.starts(with: [0, 0, 0, 0x0C] + Array("JXL ".utf8)), "a container")
            #expect(kept.range(of: Data("Exif".utf8) + Data(count: 4) + exif.prefix(19) + [1]) != nil, "upright EXIF")
            #expect(kept.range(of: Data("xml ".utf8) + xmp) != nil)
            let stripped = try S.encode(source) { $0.keptMetadata = [] }
            #expect(stripped.starts(with: [0xFF, 0x0A]), "a bare code stream")
            let decoded = try S.decode(kept) { $0.readMetadata = .all }
            #expect(decoded.bitmap.size == source.bitmap.size)
            let readBack = try #require(decoded.metadata.exif)
            #expect(readBack.count == exif.count && readBack[19] == 1, "orientation rewritten to 1")
            #expect(decoded.metadata.xmp == xmp)
            #expect(try S.decode(kept).metadata.exif == nil, "EXIF is read only when asked for")
            #expect(try S.decode(stripped) { $0.readMetadata = .all }.metadata == ImageMetadata())
        }

        @Test func moreEffortMakesASmallerFile() throws {
            let source = try S.photo()
            let fastest = try S.encode(source) {
                $0.effort = .fastest
                $0.lossless = true
            }
            let smallest = try S.encode(source) {
                $0.effort = .smallest
                $0.lossless = true
            }
            #expect(smallest.count < fastest.count)
            #expect(try S.decode(fastest).bitmap == source.bitmap)
        }

        @Test func theDistanceFollowsCjxlsQualityScale() {
            #expect(abs(JPEGXLCoder.distance(quality: 90) - 1.0) < 0.0001)
            #expect(abs(JPEGXLCoder.distance(quality: 50) - 4.6) < 0.0001)
            #expect(abs(JPEGXLCoder.distance(quality: 20) - 7.4) < 0.0001)
            #expect(JPEGXLCoder.distance(quality: 0) == 25)
        }
    }
#endif
