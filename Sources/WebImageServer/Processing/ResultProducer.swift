import Foundation
import WebImage

/// Source bytes to result bytes: read the header, plan, then either pass the source through
/// (nothing to change) or decode no larger than the plan needs, process every frame, encode.
package struct ResultProducer {
    let configuration: ServiceConfiguration
    let options: ProcessingOptions

    package init(configuration: ServiceConfiguration, options: ProcessingOptions) {
        self.configuration = configuration
        self.options = options
    }

    package func produce(from data: Data, format requested: ImageFormat?) throws(ServiceError) -> ProcessedResult {
        do {
            let coders = ImageCodersManager.shared
            let info = try coders.imageInfo(for: data)
            let shown =
                options.autoRotate
                ? PixelSize(width: info.width, height: info.height)
                : (info.orientation.swapsDimensions
                    ? PixelSize(width: info.height, height: info.width)
                    : PixelSize(width: info.width, height: info.height))
            guard shown.pixelCount <= configuration.maxSourcePixels else {
                throw WebImageError.imageTooLarge(
                    width: shown.width, height: shown.height, limit: configuration.maxSourcePixels)
            }
            guard info.frameCount <= configuration.maxAnimationFrames else {
                throw ServiceError.unprocessable(
                    "the source has \(info.frameCount) frames, above the limit of \(configuration.maxAnimationFrames)")
            }
            let plan = try ProcessingPlan(source: shown, options: options)
            if passesThrough(data, info: info, plan: plan, requested: requested) {
                return ProcessedResult(data: data, contentType: info.format.mimeType ?? "application/octet-stream")
            }
            // Kept orientation: the decoder reads the size box as shown, so turn it too.
            let swapsBox = !options.autoRotate && info.orientation.swapsDimensions
            let image = try coders.decode(data, options: decodeOptions(plan, swapsBox: swapsBox))
            let processed = try ImageProcessor(options: options, plan: plan).transformedImage(
                image, forKey: "", animated: true, maxAnimationByteCount: configuration.maxAnimationBytes)
            let format = requested ?? OutputFormats.fallback(source: info.format, hasAlpha: processed.hasAlpha)
            let bytes = try coders.encode(processed, as: format, options: encodeOptions(format))
            return ProcessedResult(data: bytes, contentType: format.mimeType ?? "application/octet-stream")
        } catch let error as ServiceError {
            throw error
        } catch let error as WebImageError {
            throw ServiceErrorMapping.map(error)
        } catch {
            throw .internalError("processing failed")
        }
    }

    /// Whether the source's own bytes are the result: the same format, upright, nothing to
    /// crop, scale, filter, re-encode or strip. They are sent without being decoded.
    private func passesThrough(_ data: Data, info: ImageInfo, plan: ProcessingPlan, requested: ImageFormat?) -> Bool {
        let format = requested ?? OutputFormats.fallback(source: info.format, hasAlpha: info.hasAlpha)
        guard format == info.format, info.orientation == .up else { return false }
        guard plan.cropSize == plan.rotatedSource, plan.scaledSize == plan.rotatedSource,
            plan.resultSize == plan.rotatedSource, plan.extendedSize(options) == plan.resultSize
        else { return false }
        guard options.rotate == 0, options.blur == 0, options.sharpen == 0, options.background == nil,
            options.cornerRadius == 0, options.tint == nil, options.quality == nil, options.maxBytes == nil
        else { return false }
        if options.stripColorProfile, let profile = MetadataProbe.iccProfile(in: data),
            !ColorManagement.isSRGB(profile)
        {
            return false
        }
        return !options.stripMetadata || MetadataProbe.kinds(in: data).isDisjoint(with: [.exif, .xmp])
    }

    private func decodeOptions(_ plan: ProcessingPlan, swapsBox: Bool) -> ImageDecodeOptions {
        var decode = ImageDecodeOptions()
        decode.maxPixelCount = configuration.maxSourcePixels
        decode.maxAnimationByteCount = configuration.maxAnimationBytes
        decode.applyOrientation = options.autoRotate
        decode.readMetadata = options.stripMetadata ? [.iccProfile] : .all
        decode.convertToSRGB = options.stripColorProfile
        let turned = options.rotate == 90 || options.rotate == 270
        if let size = plan.decodeSize(turned: turned != swapsBox) { decode.thumbnailPixelSize = size }
        return decode
    }

    private func encodeOptions(_ format: ImageFormat) -> ImageEncodeOptions {
        var encode = ImageEncodeOptions()
        encode.compressionQuality = Double(options.quality ?? configuration.quality(for: format)) / 100
        encode.keptMetadata = options.stripMetadata ? [.iccProfile] : .all
        encode.maxFileSize = options.maxBytes
        encode.backgroundColor = options.background ?? .white
        return encode
    }
}
