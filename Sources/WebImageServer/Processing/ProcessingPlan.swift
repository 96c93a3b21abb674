#if Server
    import Foundation
    import WebImage

    /// The geometry of one request, worked out from the source's size before anything is decoded:
    /// the crop, the scale, the result size, and how small the decoder may make the image.
    ///
    /// Sizes are in the source's pixels as shown (EXIF orientation applied), after the request's
    /// rotation. The order is imgproxy's: crop the source, scale the crop, crop the scaled image to
    /// the box (fill), then filters and extending.
    @_spi(Internals) public struct ProcessingPlan: Equatable, Sendable {
        /// The source as shown, after the rotation.
        package var rotatedSource: PixelSize
        /// The crop of the rotated source that gets scaled.
        package var cropSize: PixelSize
        /// Horizontal and vertical scale factors (equal except for `force`).
        package var scaleX: Double
        package var scaleY: Double
        /// The crop after scaling.
        @_spi(Internals) public var scaledSize: PixelSize
        /// The result before extending: the scaled crop, cut to the box for fill types.
        package var resultSize: PixelSize
        /// The box asked for in pixels (width × DPR, height × DPR); 0 where a side is free.
        package var box: PixelSize

        /// Refused above this many result pixels: the library's decode limit.
        @_spi(Internals) public static let maxResultPixels = ImageDecodeOptions.defaultMaxPixelCount

        @_spi(Internals) public init(source: PixelSize, options: ProcessingOptions) throws(ServiceError) {
            let turned = options.rotate == 90 || options.rotate == 270
            rotatedSource = turned ? PixelSize(width: source.height, height: source.width) : source
            cropSize = Self.cropSize(options.crop, of: rotatedSource)
            box = PixelSize(
                width: Self.pixels(Double(options.width) * options.dpr),
                height: Self.pixels(Double(options.height) * options.dpr))
            (scaleX, scaleY) = Self.scale(crop: cropSize, box: box, options: options)
            scaledSize = PixelSize(
                width: max(1, Self.pixels(Double(cropSize.width) * scaleX)),
                height: max(1, Self.pixels(Double(cropSize.height) * scaleY)))
            resultSize = Self.resultSize(scaled: scaledSize, box: box, options: options)
            let extended = extendedSize(options)
            guard extended.pixelCount <= Self.maxResultPixels, scaledSize.pixelCount <= Self.maxResultPixels else {
                throw .badRequest("the result would be \(extended.width)x\(extended.height) pixels, above the limit")
            }
        }

        /// The canvas size once extended (the result size when extending is off or not needed).
        @_spi(Internals) public func extendedSize(_ options: ProcessingOptions) -> PixelSize {
            guard options.extend != nil else { return resultSize }
            return PixelSize(width: max(resultSize.width, box.width), height: max(resultSize.height, box.height))
        }

        /// The size to ask the decoder for (as shown, before the rotation), or nil for full size:
        /// the whole source at the larger scale factor, so neither axis is decoded below what the
        /// scale needs.
        @_spi(Internals) public func decodeSize(turned: Bool) -> PixelSize? {
            let scale = max(scaleX, scaleY)
            guard scale < 1 else { return nil }
            let width = Int(clamping: Double(rotatedSource.width) * scale, rounding: .up)
            let height = Int(clamping: Double(rotatedSource.height) * scale, rounding: .up)
            return turned ? PixelSize(width: height, height: width) : PixelSize(width: width, height: height)
        }

        /// A computed length in whole pixels, rounded half away from zero and saturated to
        /// 0...`Int32.max` (NaN is 0), so that no size product can overflow and the pixel limit refuses it.
        private static func pixels(_ value: Double) -> Int {
            Int(clamping: value.clamped(to: 0...Double(Int32.max)), rounding: .toNearestOrAwayFromZero)
        }

        /// imgproxy's crop lengths: 0 the whole side, 1 or more pixels, below 1 a fraction (at least 1 px).
        static func cropSize(_ crop: ProcessingOptions.Crop?, of source: PixelSize) -> PixelSize {
            guard let crop else { return source }
            func length(_ value: Double, _ full: Int) -> Int {
                if value == 0 { return full }
                if value >= 1 { return min(Int(clamping: value), full) }
                return max(1, Int(clamping: value * Double(full)))
            }
            return PixelSize(width: length(crop.width, source.width), height: length(crop.height, source.height))
        }

        private static func scale(crop: PixelSize, box: PixelSize, options: ProcessingOptions) -> (Double, Double) {
            let fitX = box.width > 0 ? Double(box.width) / Double(crop.width) : nil
            let fitY = box.height > 0 ? Double(box.height) / Double(crop.height) : nil
            var x: Double
            var y: Double
            switch effectiveType(crop: crop, box: box, options.resizingType) {
            case .force:
                x = fitX ?? 1
                y = fitY ?? 1
            case .fill, .fillDown:
                let scale = [fitX, fitY].compactMap { $0 }.max() ?? 1
                (x, y) = (scale, scale)
            case .fit, .auto:
                let scale = [fitX, fitY].compactMap { $0 }.min() ?? 1
                (x, y) = (scale, scale)
            }
            if !options.enlarge {
                x = min(x, 1)
                y = min(y, 1)
            }
            return (x, y)
        }

        /// `auto` is fill when the crop and the box are both landscape or both portrait, else fit.
        static func effectiveType(
            crop: PixelSize, box: PixelSize, _ type: ProcessingOptions.ResizingType
        ) -> ProcessingOptions.ResizingType {
            guard type == .auto else { return type }
            guard box.width > 0, box.height > 0 else { return .fit }
            return (crop.width >= crop.height) == (box.width >= box.height) ? .fill : .fit
        }

        private static func resultSize(scaled: PixelSize, box: PixelSize, options: ProcessingOptions) -> PixelSize {
            let type = effectiveType(crop: scaled, box: box, options.resizingType)
            guard type == .fill || type == .fillDown else { return scaled }
            var width = box.width > 0 ? min(box.width, scaled.width) : scaled.width
            var height = box.height > 0 ? min(box.height, scaled.height) : scaled.height
            if type == .fillDown, box.width > 0, box.height > 0, scaled.width < box.width || scaled.height < box.height
            {
                // Keep the box's aspect ratio inside the (too small) scaled image.
                let ratio = Double(box.width) / Double(box.height)
                if Double(scaled.width) / Double(scaled.height) > ratio {
                    height = scaled.height
                    width = max(1, pixels(Double(height) * ratio))
                } else {
                    width = scaled.width
                    height = max(1, pixels(Double(width) / ratio))
                }
            }
            return PixelSize(width: width, height: height)
        }
    }
#endif
