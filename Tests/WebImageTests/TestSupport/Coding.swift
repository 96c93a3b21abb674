import Foundation

@testable import WebImage

extension ImageCoding {
    /// ``decode(_:options:)`` with the default options as `configure` changes them.
    func decode(_ data: Data, _ configure: (inout ImageDecodeOptions) -> Void) throws(WebImageError) -> Image {
        var options = ImageDecodeOptions()
        configure(&options)
        return try decode(data, options: options)
    }

    /// ``encode(_:as:options:)`` with the default options as `configure` changes them.
    func encode(_ image: Image, as format: ImageFormat, _ configure: (inout ImageEncodeOptions) -> Void)
        throws(WebImageError) -> Data
    {
        var options = ImageEncodeOptions()
        configure(&options)
        return try encode(image, as: format, options: options)
    }
}
