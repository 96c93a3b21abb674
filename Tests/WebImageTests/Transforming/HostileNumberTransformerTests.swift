import Foundation
import Testing

@testable import WebImage

/// Every number a library user can pass to a transformer, a bitmap or the coders' options gets
/// the hostile table: each ends in a typed error or in the clamp its documentation states,
/// never in a trap or an unbounded allocation.
@Suite("Hostile numbers in the library API")
struct HostileNumberTransformerTests {
    static let values: [Double] = [.nan, .infinity, -.infinity, 1e308, -1e308, 0x1p63, -0x1p63, 0, -0.0, -1]
    static let integers: [Int] = [.max, .min, 0, -1, 1 << 40]

    /// A 16×12 opaque image with some structure.
    static let image: Image = {
        let bitmap = ImageBitmap(width: 16, height: 12) { pixels in
            for i in 0..<(16 * 12) {
                pixels[4 * i] = UInt8(truncatingIfNeeded: i * 7)
                pixels[4 * i + 1] = UInt8(truncatingIfNeeded: i * 13)
                pixels[4 * i + 2] = 90
                pixels[4 * i + 3] = 255
            }
        }
        return Image(bitmap: bitmap, format: .png, hasAlpha: false)
    }()

    enum Outcome: Equatable {
        case refused
        case image(PixelSize?)
    }

    static func outcome(_ transformer: any ImageTransforming) throws -> Outcome {
        do {
            let result = try transformer.transformedImage(image, forKey: "k")
            #expect(result.bitmap.byteCount == result.bitmap.size.pixelCount * 4)
            return .image(result.bitmap.size)
        } catch {
            #expect(
                [.invalidArgument, .imageTooLarge].contains(error.code), "\(transformer.transformerKey): \(error)")
            return .refused
        }
    }

    /// Each parameter, the transformer made from one hostile value, and the values it accepts
    /// (by index into ``values``), with the size of the result when it is known.
    static let parameters:
        [(name: String, make: @Sendable (Double) -> any ImageTransforming, accepted: [Int: PixelSize?])] = [
            // 0...1000; 0 and -0 leave the image as it is.
            (
                "blur radius", { ImageBlurTransformer(radius: $0) },
                [7: .init(width: 16, height: 12), 8: .init(width: 16, height: 12)]
            ),
            // Positive and finite; a radius beyond half the shorter side is clamped to it.
            (
                "corner radius", { ImageRoundCornerTransformer(radius: $0) },
                [3: .init(width: 16, height: 12), 5: .init(width: 16, height: 12)]
            ),
            // Finite and not negative; half the shorter side or more leaves a transparent image.
            (
                "border width", { ImageRoundCornerTransformer(radius: 3, borderWidth: $0) },
                [
                    3: .init(width: 16, height: 12), 5: .init(width: 16, height: 12), 7: .init(width: 16, height: 12),
                    8: .init(width: 16, height: 12),
                ]
            ),
            // Any finite angle; the canvas is the rotated bounding box.
            (
                "rotation angle", { ImageRotationTransformer(angle: $0) },
                [
                    3: nil, 4: nil, 5: nil, 6: nil, 7: .init(width: 16, height: 12), 8: .init(width: 16, height: 12),
                    9: nil,
                ]
            ),
            // Finite; the rectangle is clipped to the image and must keep some of it.
            (
                "crop x", { ImageCroppingTransformer(x: $0, y: 0, width: 4, height: 4) },
                [7: .init(width: 4, height: 4), 8: .init(width: 4, height: 4), 9: .init(width: 3, height: 4)]
            ),
            (
                "crop y", { ImageCroppingTransformer(x: 0, y: $0, width: 4, height: 4) },
                [7: .init(width: 4, height: 4), 8: .init(width: 4, height: 4), 9: .init(width: 4, height: 3)]
            ),
            (
                "crop width", { ImageCroppingTransformer(x: 2, y: 0, width: $0, height: 4) },
                [3: .init(width: 14, height: 4), 5: .init(width: 14, height: 4)]
            ),
            (
                "crop height", { ImageCroppingTransformer(x: 0, y: 2, width: 4, height: $0) },
                [3: .init(width: 4, height: 10), 5: .init(width: 4, height: 10)]
            ),
        ]

    @Test func everyFloatingPointParameterOfEveryTransformer() throws {
        for (name, make, accepted) in Self.parameters {
            for (index, value) in Self.values.enumerated() {
                let outcome = try Self.outcome(make(value))
                if let size = accepted[index] {
                    if let size {
                        #expect(outcome == .image(size), "\(name) \(value)")
                    } else if case .image(let got) = outcome {
                        // A rotation: at most the bounding box of the source turned by any angle.
                        #expect((got?.width ?? .max) <= 21 && (got?.height ?? .max) <= 21, "\(name) \(value)")
                    } else {
                        Issue.record("\(name) \(value) was refused")
                    }
                } else {
                    #expect(outcome == .refused, "\(name) \(value)")
                }
            }
        }
    }

    @Test func aBorderAsWideAsTheImageLeavesItTransparent() throws {
        let result = try ImageRoundCornerTransformer(radius: 3, borderWidth: 1e308).transformedImage(
            Self.image, forKey: "")
        #expect(result.bitmap == ImageBitmap(width: 16, height: 12, fill: .clear))
    }

    @Test func everyIntegerSizeOfTheResizerAndTheResampler() throws {
        for mode in ImageScaleMode.allCases {
            for value in Self.integers {
                for size in [PixelSize(width: value, height: 8), PixelSize(width: 8, height: value)] {
                    let outcome = try Self.outcome(ImageResizingTransformer(size: size, scaleMode: mode))
                    if value <= 0 {
                        #expect(outcome == .refused, "\(mode) \(size)")
                    } else if mode != .aspectFit {
                        // fill and aspect-fill make exactly the size: beyond the pixel limit.
                        #expect(outcome == .refused, "\(mode) \(size)")
                    } else {
                        // aspect-fit fits inside the box: the finite side decides.
                        #expect(
                            outcome
                                == .image(
                                    size.width == 8 ? PixelSize(width: 8, height: 6) : PixelSize(width: 11, height: 8)),
                            "\(size)")
                    }
                }
                for size in [PixelSize(width: value, height: 3), PixelSize(width: 3, height: value)] {
                    let error = #expect(throws: WebImageError.self) { try Self.image.bitmap.resampled(to: size) }
                    #expect(error?.code == (value > 0 ? .imageTooLarge : .invalidArgument), "\(size)")
                }
            }
        }
    }

    @Test func bitmapsOfAHostileSizeAreRefusedBeforeAllocating() {
        for value in Self.integers {
            for size in [PixelSize(width: value, height: 2), PixelSize(width: 2, height: value)] {
                let error = #expect(throws: WebImageError.self) { try ImageBitmap(size: size, fill: .white) }
                #expect(error?.code == (value > 0 ? .imageTooLarge : .invalidArgument), "\(size)")
                #expect(throws: WebImageError.self) {
                    try ImageBitmap(width: size.width, height: size.height, pixels: [0, 0, 0, 0])
                }
            }
        }
    }

    /// compressionQuality outside 0…1 is clamped to it and NaN is 1: every lossy encoder writes
    /// the same file for -inf as for 0, for +inf as for 1, and for NaN as for 1.
    @Test(arguments: [ImageFormat.jpeg, .webp, .avif, .heic, .jpegXL])
    func encodeQualityIsClampedForEveryLossyFormat(format: ImageFormat) throws {
        func encoded(_ quality: Double) throws -> Data {
            var options = ImageEncodeOptions()
            options.compressionQuality = quality
            return try ImageCodersManager.shared.encode(Self.image, as: format, options: options)
        }
        let best = try encoded(1)
        let worst = try encoded(0)
        for value in Self.values {
            let data = try encoded(value)
            let expected = value.isNaN || value > 0.5 ? best : worst
            #expect(data == expected, "\(format) quality \(value)")
        }
        #expect(try encoded(1e308) == best && encoded(-0x1p63) == worst)
    }

    @Test func hostileDecodeAndEncodeSizesAreRefusedOrIgnored() throws {
        let png = try ImageCodersManager.shared.encode(Self.image, as: .png, options: ImageEncodeOptions())
        for value in Self.integers {
            var decode = ImageDecodeOptions()
            decode.maxPixelCount = value
            let limited = Result { () throws(WebImageError) in
                try ImageCodersManager.shared.decode(png, options: decode)
            }
            // A limit below the image's 192 pixels refuses it; any other passes.
            if value < 192 {
                #expect(throws: WebImageError.self) { try limited.get() }
            } else {
                #expect(try limited.get().bitmap.size == PixelSize(width: 16, height: 12))
            }
            decode = ImageDecodeOptions()
            decode.thumbnailPixelSize = PixelSize(width: value, height: value)
            decode.scaleDownLimitBytes = value
            decode.maxAnimationByteCount = value
            let decoded = try ImageCodersManager.shared.decode(png, options: decode)
            #expect(decoded.width <= 16 && decoded.height <= 12 && decoded.width >= 1 && decoded.height >= 1)

            var encode = ImageEncodeOptions()
            encode.maxPixelSize = PixelSize(width: value, height: value)
            encode.maxFileSize = value
            let data = try ImageCodersManager.shared.encode(Self.image, as: .jpeg, options: encode)
            #expect(try ImageCodersManager.shared.decode(data, options: ImageDecodeOptions()).width >= 1)
        }
        for value in Self.values {
            var decode = ImageDecodeOptions()
            decode.scaleFactor = value
            let decoded = try ImageCodersManager.shared.decode(png, options: decode)
            // Below 1 (NaN included) is 1; anything else is kept.
            #expect(decoded.scale == (value >= 1 ? value : 1), "scale \(value)")
        }
    }
}
