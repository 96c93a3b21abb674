import Foundation

/// The thumbnail item a HEIC or AVIF file may embed beside its primary image
/// (``ImageDecodeOptions/prefersEmbeddedThumbnail``), read with libheif, which decodes both HEVC
/// and AV1. Without libheif in the build there are none.
package enum EmbeddedThumbnails {
    /// Whether `format` is one whose thumbnails are read here.
    static func holds(_ format: ImageFormat) -> Bool { [.heic, .heif, .avif].contains(format) }

    /// The header of `data`'s embedded thumbnail, as shown; nil when it has none (or cannot be read).
    package static func info(in data: Data) -> ImageInfo? {
        #if HEIC
            let format = ImageFormat(detecting: data)
            guard holds(format) else { return nil }
            return try? HEICDecoderSession.open(data, maxPixelCount: Int.max, thumbnail: true) { session in
                guard session.isEmbeddedThumbnail else { return nil }
                return ImageInfo(
                    format: format, width: session.shownSize.width, height: session.shownSize.height, frameCount: 1,
                    loopCount: 0, hasAlpha: session.hasAlpha, orientation: session.orientation)
            }
        #else
            return nil
        #endif
    }

    /// `data`'s embedded thumbnail decoded with `options`; nil when it has none.
    static func decode(_ data: Data, options: ImageDecodeOptions) throws(WebImageError) -> Image? {
        #if HEIC
            let format = ImageFormat(detecting: data)
            guard holds(format) else { return nil }
            return try HEICCoder.decode(data, options: options, format: format, onlyEmbeddedThumbnail: true)
        #else
            return nil
        #endif
    }
}

extension ImageCodersManager {
    /// The header of what ``decode(_:options:)`` decodes with `options`: with
    /// ``ImageDecodeOptions/prefersEmbeddedThumbnail``, a HEIC or AVIF file's embedded thumbnail
    /// when it has one; otherwise ``imageInfo(for:)``.
    public func imageInfo(for data: Data, options: ImageDecodeOptions) throws(WebImageError) -> ImageInfo {
        if options.prefersEmbeddedThumbnail, let thumbnail = EmbeddedThumbnails.info(in: data) { return thumbnail }
        return try imageInfo(for: data)
    }
}
