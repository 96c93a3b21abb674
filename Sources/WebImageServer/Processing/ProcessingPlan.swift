#if Server
    import Foundation
    import WebImage

    /// The geometry of one request, worked out from the source's size before anything is decoded:
    /// the crop, the scale, the result size, the canvas and how small the decoder may make the image.
    ///
    /// Sizes are in the source's pixels as shown (EXIF orientation applied), after the request's
    /// rotation. The order and the arithmetic are imgproxy's:
    /// 1. The crop (`c`) takes whole pixels (truncated) or a fraction of a side (rounded, at least 1).
    /// 2. The shrink of each axis is the crop's side over the requested one (a side of 0 follows the
    ///    other); fit takes the larger shrink, fill and fill-down the smaller, force each its own.
    /// 3. The shrink is divided by `zoom`. Without `enlarge` (and for a raster source), a shrink
    ///    below 1 is lifted to 1 on the smaller axis and the other keeps the ratio, and the DPR is
    ///    capped so that it enlarges nothing (with `extend`, the DPR is not raised first to make
    ///    up for the lift).
    /// 4. `min-width`/`min-height` lower the shrink until the crop reaches them, keeping the ratio.
    /// 5. The shrink is divided by the DPR, and the scaled crop's sides are rounded half away from zero.
    /// 6. The target is the requested size times the DPR and zoom; the result is the scaled crop cut
    ///    to it (fill-down without `enlarge` cuts the target's aspect ratio instead).
    /// 7. `extend` grows the canvas to the target, `extend_aspect_ratio` to the target's aspect ratio,
    ///    and `padding` (times the DPR, rounded half to even) adds its margins.
    /// 8. With `max_result_dimension`, when that canvas's longer side is above it, the scales and the
    ///    DPR are multiplied by the limit over that side (never below one pixel) and step 6 runs again.
    @_spi(Internals) public struct ProcessingPlan: Equatable, Sendable {
        /// The source as shown, after the rotation.
        package var rotatedSource: PixelSize
        /// The crop of the rotated source that gets scaled.
        package var cropSize: PixelSize
        /// Horizontal and vertical scale factors.
        package var scaleX: Double
        package var scaleY: Double
        /// The DPR actually applied: the requested one, capped where it would enlarge.
        package var dprScale: Double
        /// The requested size in result pixels (times DPR and zoom); 0 where a side is free.
        package var target: PixelSize
        /// The crop after scaling.
        @_spi(Internals) public var scaledSize: PixelSize
        /// The result before extending: the scaled crop, cut to the target.
        package var resultSize: PixelSize
        /// The canvas after `extend` (the result size when it is off or has nothing to grow).
        package var extendedSize: PixelSize
        /// The canvas after `extend_aspect_ratio` too.
        package var canvasSize: PixelSize
        /// The margins `padding` adds around the canvas, in result pixels.
        package var padding: ProcessingOptions.Padding
        /// The final image: the canvas with its margins.
        @_spi(Internals) public var finalSize: PixelSize

        /// Refused above this many result pixels: the library's decode limit.
        @_spi(Internals) public static let maxResultPixels = ImageDecodeOptions.defaultMaxPixelCount

        /// The plan for a source of `source` pixels (as shown). A vector source (SVG) is enlarged
        /// without `enlarge`, as imgproxy enlarges one: it is drawn at the size asked for.
        @_spi(Internals) public init(source: PixelSize, options: ProcessingOptions, vectorSource: Bool = false)
            throws(ServiceError)
        {
            let turned = options.rotate == 90 || options.rotate == 270
            rotatedSource = turned ? PixelSize(width: source.height, height: source.width) : source
            cropSize = Self.cropSize(
                options.crop, correctedTo: options.cropAspectRatio, of: rotatedSource)
            let shrink = Self.shrink(of: cropSize, options: options, enlarges: options.enlarge || vectorSource)
            var scales = Scales(x: 1 / shrink.x, y: 1 / shrink.y, dpr: shrink.dpr)
            var sizes = Sizes(crop: cropSize, scales: scales, options: options)
            // max_result_dimension: scale everything down until the longer side of the result, as
            // extended and padded, fits (extend_aspect_ratio counts only without extend).
            if let limit = options.maxResultDimension, limit > 0 {
                var outer = sizes.result
                if options.extend != nil {
                    outer = PixelSize(
                        width: max(outer.width, sizes.target.width), height: max(outer.height, sizes.target.height))
                } else if options.extendAspectRatio != nil, let ratio = sizes.aspectRatioCanvas {
                    outer = PixelSize(width: max(outer.width, ratio.width), height: max(outer.height, ratio.height))
                }
                let margins = Self.margins(options.padding, dpr: scales.dpr)
                let longer = max(
                    outer.width + margins.left + margins.right, outer.height + margins.top + margins.bottom)
                if longer > limit {
                    let factor = Double(limit) / Double(longer)
                    scales.x = max(scales.x * factor, 1 / Double(cropSize.width))
                    scales.y = max(scales.y * factor, 1 / Double(cropSize.height))
                    scales.dpr *= factor
                    sizes = Sizes(crop: cropSize, scales: scales, options: options)
                }
            }
            scaleX = scales.x
            scaleY = scales.y
            dprScale = scales.dpr
            target = sizes.target
            scaledSize = sizes.scaled
            resultSize = sizes.result
            var canvas = resultSize
            if options.extend != nil {
                canvas = PixelSize(width: max(canvas.width, target.width), height: max(canvas.height, target.height))
            }
            extendedSize = canvas
            if options.extendAspectRatio != nil, let ratio = sizes.aspectRatioCanvas {
                canvas = PixelSize(width: max(canvas.width, ratio.width), height: max(canvas.height, ratio.height))
            }
            canvasSize = canvas
            padding = Self.margins(options.padding, dpr: dprScale)
            // Each term is at most Int32.max, so the sums cannot overflow.
            finalSize = PixelSize(
                width: canvas.width + padding.left + padding.right, height: canvas.height + padding.top + padding.bottom
            )
            guard finalSize.pixelCount <= Self.maxResultPixels, scaledSize.pixelCount <= Self.maxResultPixels,
                finalSize.width <= Int(Int32.max), finalSize.height <= Int(Int32.max)
            else {
                throw .badRequest("the result would be \(finalSize.width)x\(finalSize.height) pixels, above the limit")
            }
        }

        /// The scale of each axis and the DPR applied.
        private struct Scales {
            var x: Double
            var y: Double
            var dpr: Double
        }

        /// The sizes that follow from the scales (step 6): the target, the scaled crop, the result
        /// cut from it, and the canvas `extend_aspect_ratio` would make around that.
        private struct Sizes {
            var target: PixelSize
            var scaled: PixelSize
            var result: PixelSize
            var aspectRatioCanvas: PixelSize?

            init(crop: PixelSize, scales: Scales, options: ProcessingOptions) {
                target = PixelSize(
                    width: pixels(Double(options.width) * (scales.dpr * options.zoomX)),
                    height: pixels(Double(options.height) * (scales.dpr * options.zoomY)))
                scaled = PixelSize(
                    width: max(1, pixels(Double(crop.width) * scales.x)),
                    height: max(1, pixels(Double(crop.height) * scales.y)))
                let cut = resultCrop(scaled: scaled, target: target, options: options)
                result = PixelSize(
                    width: cut.width > 0 ? min(cut.width, scaled.width) : scaled.width,
                    height: cut.height > 0 ? min(cut.height, scaled.height) : scaled.height)
                aspectRatioCanvas = ProcessingPlan.aspectRatioCanvas(of: result, target: target)
            }
        }

        /// `padding` in result pixels: times the DPR, rounded half to even, at most `Int32.max` each.
        private static func margins(_ padding: ProcessingOptions.Padding, dpr: Double) -> ProcessingOptions.Padding {
            func margin(_ value: Int) -> Int {
                Int(clamping: (Double(value) * dpr).clamped(to: 0...Double(Int32.max)), rounding: .toNearestOrEven)
            }
            return ProcessingOptions.Padding(
                top: margin(padding.top), right: margin(padding.right), bottom: margin(padding.bottom),
                left: margin(padding.left))
        }

        /// The size to ask the decoder for (as shown, before the rotation), or nil for full size:
        /// the whole source at the larger scale factor, so neither axis is decoded below what the
        /// scale needs. A source that can be drawn larger (`enlarges`, an SVG) is asked for a
        /// larger size too.
        @_spi(Internals) public func decodeSize(turned: Bool, enlarges: Bool = false) -> PixelSize? {
            let scale = max(scaleX, scaleY)
            guard scale < 1 || (enlarges && scale > 1) else { return nil }
            let width = Int(clamping: Double(rotatedSource.width) * scale, rounding: .up)
            let height = Int(clamping: Double(rotatedSource.height) * scale, rounding: .up)
            return turned ? PixelSize(width: height, height: width) : PixelSize(width: width, height: height)
        }

        /// A computed length in whole pixels, rounded half away from zero and saturated to
        /// 0...`Int32.max` (NaN is 0), so that no size product can overflow and the pixel limit refuses it.
        static func pixels(_ value: Double) -> Int {
            Int(clamping: value.clamped(to: 0...Double(Int32.max)), rounding: .toNearestOrAwayFromZero)
        }

        /// imgproxy's crop lengths: 0 the whole side, 1 or more whole pixels (truncated), below 1 a
        /// fraction rounded half away from zero (at least 1 px); never more than the side. Then
        /// `crop_aspect_ratio`: the longer side (for the ratio) shrinks to it, or with `enlarges` the
        /// shorter one grows, and an area grown past the source becomes the largest of the ratio
        /// that fits it. Corrected sides are rounded half away from zero, at least 1 px.
        static func cropSize(
            _ crop: ProcessingOptions.Crop?, correctedTo aspect: ProcessingOptions.CropAspectRatio? = nil,
            of source: PixelSize
        ) -> PixelSize {
            let area = uncorrectedCropSize(crop, of: source)
            guard let aspect, aspect.ratio > 0, aspect.ratio.isFinite else { return area }
            let ratio = aspect.ratio
            func side(_ value: Double) -> Int { max(1, pixels(value)) }
            let wider = Double(area.width) / Double(area.height) > ratio
            if !aspect.enlarges {
                return wider
                    ? PixelSize(width: min(area.width, side(Double(area.height) * ratio)), height: area.height)
                    : PixelSize(width: area.width, height: min(area.height, side(Double(area.width) / ratio)))
            }
            let grown =
                wider
                ? PixelSize(width: area.width, height: side(Double(area.width) / ratio))
                : PixelSize(width: side(Double(area.height) * ratio), height: area.height)
            guard grown.width > source.width || grown.height > source.height else { return grown }
            return Double(source.width) / Double(source.height) > ratio
                ? PixelSize(width: min(source.width, side(Double(source.height) * ratio)), height: source.height)
                : PixelSize(width: source.width, height: min(source.height, side(Double(source.width) / ratio)))
        }

        /// The crop area before any aspect ratio correction.
        private static func uncorrectedCropSize(_ crop: ProcessingOptions.Crop?, of source: PixelSize) -> PixelSize {
            guard let crop else { return source }
            func length(_ value: Double, _ full: Int) -> Int {
                if value == 0 { return full }
                if value >= 1 {
                    return min(Int(clamping: value.clamped(to: 0...Double(Int32.max)), rounding: .down), full)
                }
                return min(max(1, pixels(value * Double(full))), full)
            }
            return PixelSize(width: length(crop.width, source.width), height: length(crop.height, source.height))
        }

        /// The shrink of each axis (source pixels per result pixel) and the DPR applied (steps 2–5).
        private static func shrink(of crop: PixelSize, options: ProcessingOptions, enlarges: Bool) -> (
            x: Double, y: Double, dpr: Double
        ) {
            let sourceWidth = Double(crop.width)
            let sourceHeight = Double(crop.height)
            let wantedWidth = options.width > 0 ? Double(options.width) : sourceWidth
            let wantedHeight = options.height > 0 ? Double(options.height) : sourceHeight
            var x = wantedWidth != sourceWidth ? sourceWidth / wantedWidth : 1
            var y = wantedHeight != sourceHeight ? sourceHeight / wantedHeight : 1
            if x != 1 || y != 1 {
                let box = PixelSize(width: options.width, height: options.height)
                let type = effectiveType(crop: crop, box: box, options.resizingType)
                if options.width == 0, type != .force {
                    x = y
                } else if options.height == 0, type != .force {
                    y = x
                } else if type == .fit {
                    (x, y) = (max(x, y), max(x, y))
                } else if type == .fill || type == .fillDown {
                    (x, y) = (min(x, y), min(x, y))
                }
            }
            // A zoom as large as a Double allows must not reach 0 (then 0/0 below).
            x = max(x / options.zoomX, .leastNormalMagnitude)
            y = max(y / options.zoomY, .leastNormalMagnitude)
            var dpr = options.dpr
            if !enlarges {
                let smaller = min(x, y)
                if smaller < 1 {
                    x /= smaller
                    y /= smaller
                    if options.extend == nil { dpr /= smaller }
                }
                dpr = min(dpr, min(x, y))
            }
            if options.minWidth > 0 {
                let needed = sourceWidth / Double(options.minWidth)
                if needed < x {
                    y /= x / needed
                    x = needed
                }
            }
            if options.minHeight > 0 {
                let needed = sourceHeight / Double(options.minHeight)
                if needed < y {
                    x /= y / needed
                    y = needed
                }
            }
            x = min(max(x / dpr, .leastNormalMagnitude), sourceWidth)
            y = min(max(y / dpr, .leastNormalMagnitude), sourceHeight)
            return (x, y, dpr)
        }

        /// `auto` is fill when the crop and the box are both landscape or both portrait, else fit.
        static func effectiveType(
            crop: PixelSize, box: PixelSize, _ type: ProcessingOptions.ResizingType
        ) -> ProcessingOptions.ResizingType {
            guard type == .auto else { return type }
            let wantedWidth = box.width > 0 ? box.width : crop.width
            let wantedHeight = box.height > 0 ? box.height : crop.height
            return (crop.width >= crop.height) == (wantedWidth >= wantedHeight) ? .fill : .fit
        }

        /// What the scaled crop is cut to (0: a free side): the target, or for fill-down without
        /// `enlarge` the target's aspect ratio inside a scaled crop that is too small for it.
        fileprivate static func resultCrop(
            scaled: PixelSize, target: PixelSize, options: ProcessingOptions
        ) -> PixelSize {
            guard options.resizingType == .fillDown, !options.enlarge else { return target }
            let overWidth = Double(target.width) / Double(scaled.width)
            let overHeight = Double(target.height) / Double(scaled.height)
            if overWidth > overHeight, overWidth > 1 {
                let height = pixels(Double(scaled.width) * (Double(target.height) / Double(target.width)))
                return PixelSize(width: scaled.width, height: height)
            }
            if overHeight > overWidth, overHeight > 1 {
                let width = pixels(Double(scaled.height) * (Double(target.width) / Double(target.height)))
                return PixelSize(width: width, height: scaled.height)
            }
            return target
        }

        /// The canvas with the target's aspect ratio around `result`, or nil when either target side
        /// is free or the ratio already matches.
        fileprivate static func aspectRatioCanvas(of result: PixelSize, target: PixelSize) -> PixelSize? {
            guard target.width > 0, target.height > 0 else { return nil }
            let overWidth = Double(target.width) / Double(result.width)
            let overHeight = Double(target.height) / Double(result.height)
            if overHeight > overWidth {
                let height = pixels(Double(result.width) * (Double(target.height) / Double(target.width)))
                return PixelSize(width: result.width, height: height)
            }
            if overWidth > overHeight {
                let width = pixels(Double(result.height) * (Double(target.width) / Double(target.height)))
                return PixelSize(width: width, height: result.height)
            }
            return nil
        }
    }
#endif
