import Foundation
import WebImage

/// Source bytes to result bytes: read the header, plan, decode no larger than the plan needs,
/// process every frame, encode.
struct ResultProducer {
    let configuration: ServiceConfiguration
    let options: ProcessingOptions

    func produce(from data: Data, format requested: ImageFormat?) throws(ServiceError) -> ProcessedResult {
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

    private func decodeOptions(_ plan: ProcessingPlan, swapsBox: Bool) -> ImageDecodeOptions {
        var decode = ImageDecodeOptions()
        decode.maxPixelCount = configuration.maxSourcePixels
        decode.maxAnimationByteCount = configuration.maxAnimationBytes
        decode.applyOrientation = options.autoRotate
        decode.readMetadata = options.stripMetadata ? [.iccProfile] : .all
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
