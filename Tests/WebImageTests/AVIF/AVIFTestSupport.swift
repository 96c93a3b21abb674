#if AVIF
    import Foundation
    import Testing

    @testable import WebImage

    /// Helpers shared by the AVIF tests (fixtures from Tests/Fixtures/generators/avif.py).
    enum AVIFTestSupport {
        static func data(_ name: String) throws -> Data { try Fixtures.data("avif/\(name).avif") }

        /// Pillow's decode of `name`, as a bitmap of `size`.
        static func reference(_ name: String, _ size: PixelSize) throws -> ImageBitmap {
            try ImageBitmap(width: size.width, height: size.height, pixels: Array(Fixtures.data("avif/\(name).rgba")))
        }

        static func decode(_ data: Data, _ configure: (inout ImageDecodeOptions) -> Void = { _ in }) throws -> Image {
            var options = ImageDecodeOptions()
            configure(&options)
            return try AVIFCoder().decode(data, options: options)
        }
    }
#endif
