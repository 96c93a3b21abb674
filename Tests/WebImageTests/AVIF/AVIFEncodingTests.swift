#if AVIF
    import Foundation
    import Testing

    @testable import WebImage

    /// AVIF encoding: lossy round trips, exact lossless ones, sequences, metadata and size limits.
    @Suite("AVIF encoding")
    struct AVIFEncodingTests {
        typealias S = AVIFTestSupport

        static func photo() throws -> Image {
            Image(bitmap: try S.reference("photo", PixelSize(width: 192, height: 128)), format: .png, hasAlpha: false)
        }

        static func encode(_ image: Image, _ configure: (inout ImageEncodeOptions) -> Void = { _ in }) throws -> Data {
            var options = ImageEncodeOptions()
            configure(&options)
            return try ImageCodersManager.shared.encode(image, as: .avif, options: options)
        }

        @Test func aLossyRoundTripKeepsAbove30dBAndQualityTradesBytes() throws {
            let source = try Self.photo()
            let high = try Self.encode(source) { $0.compressionQuality = 0.9 }
            let low = try Self.encode(source) { $0.compressionQuality = 0.3 }
            #expect(ImageFormat(detecting: high) == .avif)
            #expect(low.count < high.count)
            let decoded = try S.decode(high)
            #expect(decoded.bitmap.size == source.bitmap.size)
            #expect(PixelMetrics.psnr(decoded.bitmap, source.bitmap) >= 30)
        }

        @Test func losslessKeepsEveryPixelAndAlphaExactly() throws {
            var bitmap = ImageBitmap(width: 24, height: 16, fill: .clear)
            var generator = SplitMix64(state: 7)
            for y in 0..<16 {
                for x in 0..<24 {
                    let value = generator.next()
                    bitmap[x, y] = RGBA8(
                        r: UInt8(truncatingIfNeeded: value), g: UInt8(truncatingIfNeeded: value >> 8),
                        b: UInt8(truncatingIfNeeded: value >> 16), a: [0, 128, 255][x % 3])
                }
            }
            let data = try Self.encode(Image(bitmap: bitmap, format: .png, hasAlpha: true)) { $0.lossless = true }
            let decoded = try S.decode(data)
            #expect(decoded.hasAlpha)
            #expect(decoded.bitmap == bitmap)
        }

        @Test func anAnimationBecomesASequenceWithItsDurations() throws {
            let colours = [RGBA8(r: 250, g: 20, b: 20), RGBA8(r: 20, g: 250, b: 20), RGBA8(r: 20, g: 20, b: 250)]
            let frames = colours.enumerated().map { index, colour in
                ImageFrame(
                    bitmap: ImageBitmap(width: 32, height: 24, fill: colour), duration: [0.1, 0.25, 0.04][index])
            }
            let image = Image(
                bitmap: frames[0].bitmap, format: .gif, animation: ImageAnimation(frames: frames, loopCount: 0),
                hasAlpha: false)
            let data = try Self.encode(image)
            let decoded = try S.decode(data)
            let animation = try #require(decoded.animation)
            #expect(animation.frameCount == 3)
            for index in 0..<3 {
                let frame = try animation.frame(at: index)
                #expect(abs(frame.duration - frames[index].duration) < 0.001)
                #expect(
                    TransformTestSupport.maxChannelDifference(frame.bitmap, frames[index].bitmap) <= 6, "frame \(index)"
                )
            }
            let still = try Self.encode(image) { $0.firstFrameOnly = true }
            #expect(try AVIFCoder().imageInfo(for: still).frameCount == 1)
        }

        @Test func keptMetadataTravelsAndEXIFOrientationIsReset() throws {
            let exif = Data([
                0x4D, 0x4D, 0, 0x2A, 0, 0, 0, 8, 0, 1, 0x01, 0x12, 0, 3, 0, 0, 0, 1, 0, 6, 0, 0, 0, 0, 0, 0,
            ])
            let icc = Data((0..<300).map { UInt8($0 % 251) })
            let xmp = Data("<x:xmpmeta xmlns:x=\"adobe:ns:meta/\"/>".utf8)
            var source = try Self.photo()
            source.metadata = ImageMetadata(exif: exif, iccProfile: icc, xmp: xmp)
            let kept = try Self.encode(source) { $0.keptMetadata = .all }
            let decoded = try S.decode(kept) { $0.readMetadata = .all }
            #expect(decoded.metadata.iccProfile == icc)
            #expect(decoded.metadata.xmp == xmp)
            let readBack = try #require(decoded.metadata.exif)
            #expect(readBack.count == exif.count && readBack[19] == 1, "orientation rewritten to 1")
            #expect(decoded.orientation == .up && decoded.bitmap.size == source.bitmap.size)
            let stripped = try S.decode(try Self.encode(source) { $0.keptMetadata = [] }) { $0.readMetadata = .all }
            #expect(stripped.metadata == ImageMetadata())
        }

        @Test func maxFileSizeLowersTheQualityUntilTheFileFits() throws {
            let source = try Self.photo()
            let full = try Self.encode(source) { $0.compressionQuality = 1 }
            let limit = full.count / 3
            let fitted = try Self.encode(source) {
                $0.compressionQuality = 1
                $0.maxFileSize = limit
            }
            #expect(fitted.count <= limit)
            #expect(try S.decode(fitted).bitmap.size == source.bitmap.size)
        }
    }
#endif
