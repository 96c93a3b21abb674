#if JPEGXL
    import Foundation
    import Testing

    @testable import WebImage

    /// Helpers shared by the JPEG XL tests (fixtures from Tests/Fixtures/generators/jxl.py).
    enum JPEGXLTestSupport {
        static func data(_ name: String) throws -> Data { try Fixtures.data("jxl/\(name).jxl") }

        /// The reference decode of `name` (jxl-oxide's, or the lossless source's), as a bitmap of `size`.
        static func reference(_ name: String, _ size: PixelSize) throws -> ImageBitmap {
            try ImageBitmap(width: size.width, height: size.height, pixels: Array(Fixtures.data("jxl/\(name).rgba")))
        }

        static func decode(_ data: Data, _ configure: (inout ImageDecodeOptions) -> Void = { _ in }) throws -> Image {
            var options = ImageDecodeOptions()
            configure(&options)
            return try JPEGXLCoder().decode(data, options: options)
        }

        static func encode(_ image: Image, _ configure: (inout ImageEncodeOptions) -> Void = { _ in }) throws -> Data {
            var options = ImageEncodeOptions()
            configure(&options)
            return try ImageCodersManager.shared.encode(image, as: .jpegXL, options: options)
        }

        static func maxVisibleDifference(_ a: ImageBitmap, _ b: ImageBitmap) -> Int {
            PixelMetrics.maxVisibleDifference(a, b)
        }

        static func psnr(_ a: ImageBitmap, _ b: ImageBitmap) -> Double { PixelMetrics.psnr(a, b) }

        static func isBadData(_ error: any Error) -> Bool { (error as? WebImageError)?.code == .badImageData }
    }
#endif
