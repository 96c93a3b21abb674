#if Server
    import Foundation
    import WebImage

    /// Runs a request's processing on one decoded frame, in imgproxy's order: rotate, crop, scale,
    /// crop to the box (fill), blur, sharpen, extend, then our round corner and tint, then flatten
    /// onto the background. An animation runs it on every frame (see ``ImageTransforming``).
    ///
    /// The frame may be smaller than the source (decoded at a reduced size, ``ProcessingPlan``): the
    /// crop is scaled to it, so the result is the same size either way.
    struct ImageProcessor: ImageTransforming {
        let options: ProcessingOptions
        let plan: ProcessingPlan

        var transformerKey: String { "WebImageServer.ImageProcessor" }

        func transformedImage(_ image: Image, forKey key: String) throws(WebImageError) -> Image {
            var bitmap = image.bitmap
            if options.autoRotate, image.orientation != .up { bitmap = bitmap.applyingOrientation(image.orientation) }
            bitmap = rotated(bitmap)
            bitmap = try croppedSource(bitmap)
            bitmap = try bitmap.resampled(to: plan.scaledSize)
            if plan.resultSize != plan.scaledSize {
                let origin = GravityPlacement.origin(
                    of: plan.resultSize, in: plan.scaledSize, gravity: options.gravity, pixelScale: options.dpr,
                    bitmap: bitmap)
                bitmap = try bitmap.cropped(to: PixelRect(x: origin.x, y: origin.y, size: plan.resultSize))
            }
            var result = Image(
                bitmap: bitmap, scale: 1, orientation: .up, format: image.format, hasAlpha: image.hasAlpha,
                isTransformed: true, metadata: image.metadata)
            if options.blur > 0 {
                result = try ImageBlurTransformer(radius: options.blur).transformedImage(result, forKey: key)
            }
            if options.sharpen > 0 { result.bitmap = try Sharpening.unsharpMask(result.bitmap, sigma: options.sharpen) }
            if let extend = options.extend { result = extended(result, gravity: extend.gravity) }
            if options.cornerRadius > 0 {
                result = try ImageRoundCornerTransformer(radius: options.cornerRadius).transformedImage(
                    result, forKey: key)
            }
            if let tint = options.tint {
                result = try ImageTintTransformer(color: tint).transformedImage(result, forKey: key)
            }
            if let background = options.background, result.hasAlpha {
                result.bitmap = result.bitmap.composited(onto: background)
                result.hasAlpha = false
            }
            return result
        }

        private func rotated(_ bitmap: ImageBitmap) -> ImageBitmap {
            switch options.rotate {
            case 90: bitmap.applyingOrientation(.right)
            case 180: bitmap.applyingOrientation(.down)
            case 270: bitmap.applyingOrientation(.left)
            default: bitmap
            }
        }

        /// The plan's crop, scaled to this frame's size, placed by the crop's gravity (else the main one).
        private func croppedSource(_ bitmap: ImageBitmap) throws(WebImageError) -> ImageBitmap {
            guard plan.cropSize != plan.rotatedSource else { return bitmap }
            let fx = Double(bitmap.width) / Double(plan.rotatedSource.width)
            let fy = Double(bitmap.height) / Double(plan.rotatedSource.height)
            let size = PixelSize(
                width: min(
                    bitmap.width,
                    max(1, Int(clamping: Double(plan.cropSize.width) * fx, rounding: .toNearestOrAwayFromZero))),
                height: min(
                    bitmap.height,
                    max(1, Int(clamping: Double(plan.cropSize.height) * fy, rounding: .toNearestOrAwayFromZero))))
            let origin = GravityPlacement.origin(
                of: size, in: bitmap.size, gravity: options.crop?.gravity ?? options.gravity, pixelScale: fx,
                bitmap: bitmap)
            return try bitmap.cropped(to: PixelRect(x: origin.x, y: origin.y, size: size))
        }

        /// The image on a transparent canvas of the box's size, placed by `gravity`.
        private func extended(_ image: Image, gravity: ProcessingOptions.Gravity) -> Image {
            let canvas = plan.extendedSize(options)
            guard canvas != image.bitmap.size else { return image }
            let origin = GravityPlacement.origin(
                of: image.bitmap.size, in: canvas, gravity: gravity, pixelScale: options.dpr)
            var result = image
            result.bitmap = image.bitmap.placed(on: canvas, at: origin)
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
