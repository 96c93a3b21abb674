import Foundation

/// Decoding for loaders (SDWebImage's `SDImageLoaderDecodeImageData`), shared by the built-in
/// loaders and available to your own.
public enum ImageLoaderDecoding {
    /// The largest body a built-in loader accepts by default: 256 MiB. Bigger responses fail
    /// with ``TransferFailure/Kind/responseTooLarge`` instead of being held in memory.
    public static let defaultMaxDataSize = 256 << 20

    /// Decodes `data` loaded from `url` for a request: the decode options come from the context
    /// and options (``ImageDecodeOptions/init(context:options:cacheKey:)``, keyed by `cacheKey`,
    /// by default the URL's absolute string), the coder is the context's
    /// ``WebImageContext/imageCoder`` or the shared registry.
    ///
    /// Empty data, undecodable data and a 0×0 result are ``WebImageError/badImageData(_:underlying:)``.
    public static func decode(
        _ data: Data, url: URL, options: WebImageOptions, context: WebImageContext?, cacheKey: String? = nil
    ) throws(WebImageError) -> Image {
        guard !data.isEmpty else { throw .badImageData("\(url.absoluteString): the response body is empty") }
        let decodeOptions = ImageDecodeOptions(
            context: context, options: options, cacheKey: cacheKey ?? url.absoluteString)
        let coder: any ImageCoding = context?.imageCoder ?? ImageCodersManager.shared
        return try decode(data, url: url, decodeOptions: decodeOptions, coder: coder)
    }

    /// Decodes `data` with `decodeOptions` and `coder`; the same errors as
    /// ``decode(_:url:options:context:cacheKey:)``.
    static func decode(
        _ data: Data, url: URL, decodeOptions: ImageDecodeOptions, coder: any ImageCoding
    ) throws(WebImageError) -> Image {
        guard !data.isEmpty else { throw .badImageData("\(url.absoluteString): the response body is empty") }
        let image = try coder.decode(data, options: decodeOptions)
        guard image.width > 0, image.height > 0 else {
            throw .badImageData("\(url.absoluteString): the image has no pixels")
        }
        return image
    }
}
