#if Server
    import Foundation
    import WebImage

    /// Runs a request's processing on one decoded frame, in imgproxy's order: rotate and flip, crop,
    /// scale, crop to the target, the filters (``filtered(_:geometry:key:)``), extend, extend to the
    /// aspect ratio, pad, then our round corner and tint, then flatten onto the background, then the
    /// watermark. An animation runs it on every frame (see ``ImageTransforming``).
    ///
    /// The frame may be smaller than the source (decoded at a reduced size, ``ProcessingPlan``): the
    /// crop is scaled to it, so the result is the same size either way.
    struct ImageProcessor: ImageTransforming {
        let options: ProcessingOptions
        let plan: ProcessingPlan
        /// The watermark step, last (nil: none).
        var watermark: Watermarking? = nil

        var transformerKey: String { "WebImageServer.ImageProcessor" }

        func transformedImage(_ image: Image, forKey key: String) throws(WebImageError) -> Image {
            var bitmap = image.bitmap
            // Deep pixels (preserve_hdr) go through the same geometry; the 8-bit ones are made from them.
            var deep = image.deepBitmap
            var turns = turnOrientations
            if options.autoRotate, image.orientation != .up { turns.insert(image.orientation, at: 0) }
            for turn in turns {
                bitmap = bitmap.applyingOrientation(turn)
                deep = deep?.applyingOrientation(turn)
            }
            let frame = bitmap.size
            let crop = sourceCrop(of: bitmap)
            if crop.size != frame {
                bitmap = try bitmap.cropped(to: crop)
                deep = try deep?.cropped(to: crop)
            }
            if let resized = try deep?.resampled(to: plan.scaledSize, filter: options.resizingAlgorithm.filter) {
                deep = resized
                bitmap = resized.reducedToEightBits()
            } else {
                bitmap = try bitmap.resampled(to: plan.scaledSize, filter: options.resizingAlgorithm.filter)
            }
            var kept = PixelRect(x: 0, y: 0, size: plan.scaledSize)
            if plan.resultSize != plan.scaledSize {
                let origin = GravityPlacement.origin(
                    of: plan.resultSize, in: plan.scaledSize, gravity: options.gravity, pixelScale: plan.dprScale,
                    bitmap: bitmap)
                kept = PixelRect(x: origin.x, y: origin.y, size: plan.resultSize)
                bitmap = try bitmap.cropped(to: kept)
                deep = try deep?.cropped(to: kept)
            }
            var result = Image(
                bitmap: bitmap, scale: 1, orientation: .up, format: image.format, hasAlpha: image.hasAlpha,
                isTransformed: true, metadata: image.metadata)
            result.deepBitmap = deep
            let geometry = ResultGeometry(
                frame: frame, crop: crop, scaled: plan.scaledSize, result: kept, rotate: options.rotate,
                flipHorizontal: options.flipHorizontal, flipVertical: options.flipVertical)
            // The filters, round corner, tint, flattening and watermark work on 8-bit pixels: each
            // one that changes them drops the deep ones (see ``Image/bitmap``).
            result = try filtered(result, geometry: geometry, key: key)
            if let extend = options.extend {
                result = try placed(result, on: plan.extendedSize, gravity: extend.gravity)
            }
            if let extend = options.extendAspectRatio {
                result = try placed(result, on: plan.canvasSize, gravity: extend.gravity)
            }
            if !plan.padding.isZero { result = try padded(result) }
            if options.cornerRadius > 0 {
                result = try ImageRoundCornerTransformer(radius: options.cornerRadius).transformedImage(
                    result, forKey: key)
            }
            if let tint = options.tint {
                result = try ImageTintTransformer(color: tint).transformedImage(result, forKey: key)
            }
            if let background = options.background, result.hasAlpha { result = flattened(result, onto: background) }
            if let watermark { result.bitmap = try watermark.applied(to: result.bitmap, dprScale: plan.dprScale) }
            return result
        }

        /// The request's rotation, then its flips (imgproxy's order; the sizes only see the
        /// rotation), as the orientations whose permutations make them.
        private var turnOrientations: [ImageOrientation] {
            var turns: [ImageOrientation] = []
            switch options.rotate {
            case 90: turns.append(.right)
            case 180: turns.append(.down)
            case 270: turns.append(.left)
            default: break
            }
            switch (options.flipHorizontal, options.flipVertical) {
            case (true, true): turns.append(.down)
            case (true, false): turns.append(.upMirrored)
            case (false, true): turns.append(.downMirrored)
            case (false, false): break
            }
            return turns
        }

        /// The plan's crop, scaled to this frame's size (the whole frame when there is none). Its
        /// place is worked out on the source's pixels, by the crop's gravity (else the main one),
        /// and scaled to the frame with it; smart gravity looks at the frame itself.
        private func sourceCrop(of bitmap: ImageBitmap) -> PixelRect {
            guard plan.cropSize != plan.rotatedSource else { return PixelRect(x: 0, y: 0, size: bitmap.size) }
            let fx = Double(bitmap.width) / Double(plan.rotatedSource.width)
            let fy = Double(bitmap.height) / Double(plan.rotatedSource.height)
            func scaled(_ value: Int, _ factor: Double) -> Int {
                Int(clamping: Double(value) * factor, rounding: .toNearestOrAwayFromZero)
            }
            let size = PixelSize(
                width: min(bitmap.width, max(1, scaled(plan.cropSize.width, fx))),
                height: min(bitmap.height, max(1, scaled(plan.cropSize.height, fy))))
            let gravity = options.crop?.gravity ?? options.gravity
            var origin: (x: Int, y: Int)
            if case .smart = gravity {
                origin = GravityPlacement.origin(of: size, in: bitmap.size, gravity: gravity, bitmap: bitmap)
            } else {
                let inSource = GravityPlacement.origin(of: plan.cropSize, in: plan.rotatedSource, gravity: gravity)
                origin = (
                    min(max(0, scaled(inSource.x, fx)), bitmap.width - size.width),
                    min(max(0, scaled(inSource.y, fy)), bitmap.height - size.height)
                )
            }
            return PixelRect(x: origin.x, y: origin.y, size: size)
        }

        /// The image on a transparent canvas of `canvas`'s size, placed by `gravity` (offsets in
        /// pixels times the DPR applied).
        private func placed(_ image: Image, on canvas: PixelSize, gravity: ProcessingOptions.Gravity)
            throws(WebImageError) -> Image
        {
            guard canvas != image.bitmap.size else { return image }
            let origin = GravityPlacement.origin(
                of: image.bitmap.size, in: canvas, gravity: gravity, pixelScale: plan.dprScale)
            return try placed(image, on: canvas, at: origin)
        }

        /// The image inside transparent margins of the plan's padding.
        private func padded(_ image: Image) throws(WebImageError) -> Image {
            let margins = plan.padding
            let canvas = PixelSize(
                width: image.bitmap.width + margins.left + margins.right,
                height: image.bitmap.height + margins.top + margins.bottom)
            return try placed(image, on: canvas, at: (margins.left, margins.top))
        }

        /// The image (and its deep pixels) copied onto a transparent canvas at `origin`.
        private func placed(_ image: Image, on canvas: PixelSize, at origin: (x: Int, y: Int)) throws(WebImageError)
            -> Image
        {
            var result = image
            let deep = try image.deepBitmap?.placed(on: canvas, x: origin.x, y: origin.y)
            result.bitmap = image.bitmap.placed(on: canvas, at: origin)
            result.deepBitmap = deep
            result.hasAlpha = true
            return result
        }
    }

    extension PixelRect {
        init(x: Int, y: Int, size: PixelSize) {
            self.init(x: x, y: y, width: size.width, height: size.height)
        }
    }

    extension ImageBitmap {
        /// This bitmap copied onto a transparent canvas of `size` at `origin` (which keeps it inside).
        func placed(on size: PixelSize, at origin: (x: Int, y: Int)) -> ImageBitmap {
            pixels.withUnsafeBufferPointer { source in
                ImageBitmap(width: size.width, height: size.height) { canvas in
                    canvas.initialize(repeating: 0)
                    let rowBytes = width * 4
                    for row in 0..<height {
                        let to = ((origin.y + row) * size.width + origin.x) * 4
                        UnsafeMutableRawPointer(canvas.baseAddress! + to).copyMemory(
                            from: source.baseAddress! + row * rowBytes, byteCount: rowBytes)
                    }
                }
            }
        }
    }
#endif
