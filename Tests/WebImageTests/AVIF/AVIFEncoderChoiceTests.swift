#if AVIF
    import CAVIF
    import Foundation
    import Testing

    @testable import WebImage

    /// The AV1 encoder and speeds picked by measurement (Benchmarks/README.md, "AVIF encoders"),
    /// and what that encoder must still handle at every effort: sizes no block grid divides,
    /// transparency, lossless pictures and sequences.
    @Suite("AVIF encoder choice")
    struct AVIFEncoderChoiceTests {
        typealias S = AVIFTestSupport

        /// Gentle colour ramps: at most a few levels between neighbours, so that 4:2:0 subsampling
        /// loses nothing visible at any size and what remains is the encoder's own error.
        static func picture(_ width: Int, _ height: Int, alpha: Bool = false) -> ImageBitmap {
            var bitmap = ImageBitmap(width: width, height: height, fill: .clear)
            for y in 0..<height {
                for x in 0..<width {
                    bitmap[x, y] = RGBA8(
                        r: UInt8(clamping: 40 + x), g: UInt8(clamping: 70 + (x + y) / 2),
                        b: UInt8(clamping: 200 - y - x / 2), a: alpha ? UInt8(clamping: max(55, 255 - 4 * x)) : 255)
                }
            }
            return bitmap
        }

        @Test func everyEffortNamesLibaomAndAMeasuredSpeed() {
            for effort in EncodeEffort.allCases {
                var options = ImageEncodeOptions()
                options.effort = effort
                for sequence in [false, true] {
                    let settings = AVIFCoder.Settings(options: options, sequence: sequence)
                    #expect(settings.codec == AVIF_CODEC_CHOICE_AOM, "\(effort)")
                    #expect(settings.speed == AVIFCoder.speed(effort, sequence: sequence))
                }
            }
            #expect(EncodeEffort.allCases.map { AVIFCoder.speed($0) } == [9, 9, 6])
            #expect(EncodeEffort.allCases.map { AVIFCoder.speed($0, sequence: true) } == [9, 6, 4])
        }

        /// A libavif without the named encoder (here: a decode-only codec named instead) fails the
        /// encode with a typed error rather than falling back to whatever it has.
        @Test func anEncoderLibavifCannotUseIsATypedError() throws {
            var settings = AVIFCoder.Settings(options: ImageEncodeOptions())
            settings.codec = AVIF_CODEC_CHOICE_DAV1D
            let frame = (pixels: DecodedPixels.eightBit(Self.picture(16, 16)), duration: 0.0)
            #expect {
                _ = try AVIFCoder.encode([frame], settings: settings, metadata: ImageMetadata())
            } throws: { error in
                (error as? WebImageError)?.code == .encodingFailed
            }
        }

        @Test(arguments: EncodeEffort.allCases)
        func oddAndTinySizesRoundTripAtEveryEffort(effort: EncodeEffort) throws {
            for (width, height) in [(1, 1), (3, 5), (17, 9), (65, 33), (129, 2)] {
                let source = Self.picture(width, height)
                let data = try S.encode(Image(bitmap: source, format: .png, hasAlpha: false)) {
                    $0.effort = effort
                    $0.compressionQuality = 0.9
                }
                let decoded = try S.decode(data)
                #expect(decoded.bitmap.size == source.size, "\(width)x\(height)")
                #expect(!decoded.hasAlpha)
                #expect(
                    PixelMetrics.maxChannelDifference(decoded.bitmap, source) <= 8, "\(width)x\(height)")
                #expect(PixelMetrics.psnr(decoded.bitmap, source) >= 40, "\(width)x\(height)")
            }
        }

        @Test(arguments: EncodeEffort.allCases)
        func transparencyTravelsAsAnAlphaPlane(effort: EncodeEffort) throws {
            let source = Self.picture(47, 31, alpha: true)
            let data = try S.encode(Image(bitmap: source, format: .png, hasAlpha: true)) {
                $0.effort = effort
                $0.compressionQuality = 0.9
            }
            let decoded = try S.decode(data)
            #expect(decoded.hasAlpha)
            #expect(decoded.bitmap.size == source.size)
            var worstAlpha = 0
            for y in 0..<source.height {
                for x in 0..<source.width {
                    worstAlpha = max(worstAlpha, abs(Int(decoded.bitmap[x, y].a) - Int(source[x, y].a)))
                }
            }
            #expect(worstAlpha <= 8)
            #expect(PixelMetrics.psnr(decoded.bitmap, source) >= 30)
        }

        @Test(arguments: EncodeEffort.allCases)
        func losslessStillsAndSequencesKeepEveryPixel(effort: EncodeEffort) throws {
            let frames = (0..<3).map { index in
                // Invisible, faint and opaque pixels along the diagonals.
                let bitmap = ImageBitmap.noise(
                    width: 19, height: 13, seed: 42 + UInt64(index),
                    alpha: .pattern { x, y in [0, 90, 255][(x + y) % 3] })
                return ImageFrame(bitmap: bitmap, duration: 0.1)
            }
            let still = try S.encode(Image(bitmap: frames[0].bitmap, format: .png, hasAlpha: true)) {
                $0.effort = effort
                $0.lossless = true
            }
            #expect(try S.decode(still).bitmap == frames[0].bitmap)
            let sequence = Image(
                bitmap: frames[0].bitmap, format: .gif, animation: ImageAnimation(frames: frames, loopCount: 0),
                hasAlpha: true)
            let data = try S.encode(sequence) {
                $0.effort = effort
                $0.lossless = true
            }
            let animation = try #require(try S.decode(data).animation)
            #expect(animation.frameCount == 3)
            for index in 0..<3 {
                #expect(try animation.frame(at: index).bitmap == frames[index].bitmap, "frame \(index)")
            }
        }

        @Test(arguments: EncodeEffort.allCases)
        func lossySequencesKeepTheirFramesAndDurations(effort: EncodeEffort) throws {
            let frames = (0..<4).map { index in
                var bitmap = Self.picture(41, 27)
                for y in 0..<27 {  // a bar that moves, so that frames differ where a motion search looks
                    for x in (index * 8)..<(index * 8 + 6) { bitmap[x, y] = RGBA8(r: 250, g: 250, b: 250) }
                }
                return ImageFrame(bitmap: bitmap, duration: [0.1, 0.05, 0.2, 0.03][index])
            }
            let image = Image(
                bitmap: frames[0].bitmap, format: .gif, animation: ImageAnimation(frames: frames, loopCount: 0),
                hasAlpha: false)
            let data = try S.encode(image) {
                $0.effort = effort
                $0.compressionQuality = 0.9
            }
            let animation = try #require(try S.decode(data).animation)
            #expect(animation.frameCount == 4)
            for index in 0..<4 {
                let frame = try animation.frame(at: index)
                #expect(abs(frame.duration - frames[index].duration) < 0.001, "frame \(index)")
                #expect(PixelMetrics.psnr(frame.bitmap, frames[index].bitmap) >= 30, "frame \(index)")
            }
        }

        @Test func fullChromaKeepsColouredEdgesSharper() throws {
            var source = ImageBitmap(width: 32, height: 32, fill: RGBA8(r: 255, g: 0, b: 0))
            for y in 0..<32 {
                for x in 0..<32 where (x / 2 + y / 2) % 2 == 0 { source[x, y] = RGBA8(r: 0, g: 0, b: 255) }
            }
            let image = Image(bitmap: source, format: .png, hasAlpha: false)
            let quarter = try S.decode(try S.encode(image) { $0.compressionQuality = 0.95 })
            let full = try S.decode(
                try S.encode(image) {
                    $0.compressionQuality = 0.95
                    $0.chromaSubsampling = .yuv444
                })
            #expect(PixelMetrics.psnr(full.bitmap, source) > PixelMetrics.psnr(quarter.bitmap, source))
            #expect(PixelMetrics.psnr(full.bitmap, source) >= 30)
        }
    }
#endif
