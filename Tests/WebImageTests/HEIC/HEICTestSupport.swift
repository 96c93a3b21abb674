#if HEIC
    import Foundation
    import Testing

    @testable import WebImage

    /// Helpers shared by the HEIC tests (fixtures from Tests/Fixtures/generators/heic.py).
    enum HEICTestSupport {
        static func data(_ name: String) throws -> Data { try Fixtures.data("heic/\(name).heic") }

        /// pillow-heif's decode of `name`, as a bitmap of `size`.
        static func reference(_ name: String, _ size: PixelSize) throws -> ImageBitmap {
            try ImageBitmap(width: size.width, height: size.height, pixels: Array(Fixtures.data("heic/\(name).rgba")))
        }

        static func decode(_ data: Data, _ configure: (inout ImageDecodeOptions) -> Void = { _ in }) throws -> Image {
            var options = ImageDecodeOptions()
            configure(&options)
            return try HEICCoder().decode(data, options: options)
        }

        static func encode(_ image: Image, _ configure: (inout ImageEncodeOptions) -> Void = { _ in }) throws -> Data {
            var options = ImageEncodeOptions()
            configure(&options)
            return try ImageCodersManager.shared.encode(image, as: .heic, options: options)
        }

        /// The largest channel difference over pixels visible in both, and of alpha everywhere
        /// (the AVIF tests' measure).
        static func maxVisibleDifference(_ a: ImageBitmap, _ b: ImageBitmap) -> Int {
            PixelMetrics.maxVisibleDifference(a, b)
        }

        /// Peak signal-to-noise ratio over the colour channels, in dB.
        static func psnr(_ a: ImageBitmap, _ b: ImageBitmap) -> Double { PixelMetrics.psnr(a, b) }

        /// A bitmap of seeded random colours, with alpha cycling 0, 128, 255 by column when `alpha`.
        static func noise(width: Int, height: Int, alpha: Bool, seed: UInt64 = 7) -> ImageBitmap {
            var bitmap = ImageBitmap(width: width, height: height, fill: .clear)
            var generator = SplitMix64(state: seed)
            for y in 0..<height {
                for x in 0..<width {
                    let value = generator.next()
                    bitmap[x, y] = RGBA8(
                        r: UInt8(truncatingIfNeeded: value), g: UInt8(truncatingIfNeeded: value >> 8),
                        b: UInt8(truncatingIfNeeded: value >> 16), a: alpha ? [0, 128, 255][x % 3] : 255)
                }
            }
            return bitmap
        }

        /// `data` with the first `ispe` box's width and height replaced.
        static func claiming(width: UInt32, height: UInt32, in data: Data) throws -> Data {
            try AVIFBadInputTests.claiming(width: width, height: height, in: data)
        }
    }
#endif
