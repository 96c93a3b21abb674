import Foundation

@testable import WebImage

/// Images shared by the transformer tests.
enum TransformTestSupport {
    static func image(_ bitmap: ImageBitmap, format: ImageFormat = .png, hasAlpha: Bool = true) -> Image {
        Image(bitmap: bitmap, scale: 2, format: format, hasAlpha: hasAlpha)
    }
}
