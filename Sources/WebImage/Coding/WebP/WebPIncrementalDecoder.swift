import CWebP
import Foundation

/// Decodes a still WebP from a growing download with libwebp's `WebPIDecoder`
/// (SDWebImageWebPCoder's progressive path).
///
/// libwebp keeps pointers to its decoder config and output buffer, and copies the appended
/// bytes, so the config and the pixel buffer live in memory this object allocates (after the
/// header is known and the pixel limit checked) and frees in `deinit`; partial images are
/// copies. Rows not decoded yet are transparent. Animations have no partial images: the final
/// data is decoded in one go, as SDWebImageWebPCoder does.
final class WebPIncrementalDecoder: IncrementalImageDecoding {
    private let options: ImageDecodeOptions
    private var config: UnsafeMutablePointer<WebPDecoderConfig>?
    private var pixels: UnsafeMutableBufferPointer<UInt8>?
    private var decoder: OpaquePointer?
    private var outputSize = PixelSize.zero
    private var isThumbnail = false
    private var hasAlpha = false
    private var isAnimated = false
    /// How many bytes of the download were handed to libwebp.
    private var consumed = 0
    private var status = VP8_STATUS_SUSPENDED
    private var failure: WebImageError?
    private var input = IncrementalInput()
    /// The final image, kept so that asking again does not decode or copy again.
    private var finalImage: Image?

    init(options: ImageDecodeOptions) {
        self.options = options
    }

    deinit {
        if let decoder { WebPIDelete(decoder) }
        if let config {
            WebPFreeDecBuffer(&config.pointee.output)
            config.deallocate()
        }
        pixels?.deallocate()
    }

    func update(_ data: Data, isFinal: Bool) {
        input.update(data, isFinal: isFinal)
        guard failure == nil, !isAnimated, status != VP8_STATUS_OK else { return }
        do throws(WebImageError) {
            if decoder == nil, try !start(with: data) { return }
            guard let decoder, data.count > consumed else { return }
            status = data.withUnsafeBytes { raw in
                let base = raw.baseAddress!.assumingMemoryBound(to: UInt8.self)
                return WebPIAppend(decoder, base + consumed, raw.count - consumed)
            }
            consumed = data.count
            if status != VP8_STATUS_OK, status != VP8_STATUS_SUSPENDED {
                throw WebPStatus.error(status, while: "decoding the WebP download")
            }
        } catch {
            failure = error
        }
    }

    func currentImage() throws(WebImageError) -> Image? {
        if let failure { throw failure }
        if let finalImage { return finalImage }
        let image = try makeCurrentImage()
        if input.isFinal { finalImage = image }
        return image
    }

    private func makeCurrentImage() throws(WebImageError) -> Image? {
        let scale = options.scaleFactor >= 1 ? options.scaleFactor : 1
        if isAnimated || decoder == nil {
            // Too little data for a header (or an animation): only the complete file decodes.
            return input.isFinal ? try WebPCoder().decode(input.data, options: options) : nil
        }
        guard let decoder, let pixels else { return nil }
        if status == VP8_STATUS_OK {
            let bitmap = ImageBitmap(width: outputSize.width, height: outputSize.height) { buffer in
                _ = buffer.initialize(fromContentsOf: pixels)
            }
            // Metadata chunks may follow the image data: read them once the file is whole.
            let metadata =
                input.isFinal ? input.data.withUnsafeBytes { WebPMetadata.read(options.readMetadata, in: $0) } : .init()
            return Image(
                bitmap: bitmap, scale: scale, format: .webp, hasAlpha: hasAlpha, isIncremental: !input.isFinal,
                isThumbnail: isThumbnail, metadata: metadata)
        }
        if input.isFinal {
            throw .badImageData("the WebP download ended before the image was complete")
        }
        var lastRow: Int32 = 0
        guard WebPIDecGetRGB(decoder, &lastRow, nil, nil, nil) != nil, lastRow > 0 else { return nil }
        let decodedBytes = min(Int(lastRow), outputSize.height) * outputSize.width * 4
        let bitmap = ImageBitmap(width: outputSize.width, height: outputSize.height) { buffer in
            let raw = UnsafeMutableRawBufferPointer(buffer)
            raw.copyMemory(from: UnsafeRawBufferPointer(rebasing: UnsafeRawBufferPointer(pixels)[..<decodedBytes]))
            UnsafeMutableRawBufferPointer(rebasing: raw[decodedBytes...]).initializeMemory(as: UInt8.self, repeating: 0)
        }
        return Image(
            bitmap: bitmap, scale: scale, format: .webp, hasAlpha: hasAlpha, isIncremental: true,
            isThumbnail: isThumbnail)
    }

    /// Reads the header from the bytes so far; once it is complete, checks the pixel limit and
    /// sets up the decoder. Returns false while the header is incomplete.
    private func start(with data: Data) throws(WebImageError) -> Bool {
        if input.isFinal {
            // The whole file is here: a header that still cannot be read is an error.
            _ = try data.withUnsafeBytesTyped { bytes throws(WebImageError) in try WebPContainer.features(of: bytes) }
        }
        if data.count >= 12, ImageFormat(detecting: data) != .webp {
            throw .badImageData("the data is not WebP")
        }
        // Keep waiting while more bytes could complete the header.
        guard
            let features = try data.withUnsafeBytesTyped({ bytes throws(WebImageError) in
                try WebPContainer.partialFeatures(of: bytes)
            })
        else {
            return false
        }
        let size = PixelSize(width: Int(features.width), height: Int(features.height))
        try DecodeGeometry.checkPixelLimit(width: size.width, height: size.height, options: options)
        hasAlpha = features.has_alpha != 0
        if features.has_animation != 0 {
            isAnimated = true
            return false
        }
        let target = DecodeGeometry.targetSize(storedSize: size, orientation: .up, frameCount: 1, options: options)
        outputSize = target ?? size
        isThumbnail = target != nil

        let byteCount = outputSize.pixelCount * 4
        let buffer = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: byteCount)
        buffer.initialize(repeating: 0)
        pixels = buffer
        let config = UnsafeMutablePointer<WebPDecoderConfig>.allocate(capacity: 1)
        config.initialize(to: WebPDecoderConfig())
        self.config = config
        guard WebPInitDecoderConfig(config) != 0 else {
            throw .badImageData("libwebp's decoder version does not match its headers")
        }
        if let target {
            config.pointee.options.use_scaling = 1
            config.pointee.options.scaled_width = Int32(target.width)
            config.pointee.options.scaled_height = Int32(target.height)
        }
        config.pointee.output.colorspace = MODE_RGBA
        config.pointee.output.is_external_memory = 1
        config.pointee.output.u.RGBA.rgba = buffer.baseAddress
        config.pointee.output.u.RGBA.stride = Int32(outputSize.width * 4)
        config.pointee.output.u.RGBA.size = byteCount
        guard let decoder = WebPIDecode(nil, 0, config) else {
            throw .badImageData("libwebp could not start an incremental decoder")
        }
        self.decoder = decoder
        return true
    }
}
