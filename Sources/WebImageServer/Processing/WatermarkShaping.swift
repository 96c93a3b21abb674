#if Server
    import Foundation
    import WebImage

    /// imgproxy Pro's shaping of a mark before it is placed, in this order: fitted into
    /// `watermark_size` (enlarging too, only when `wm`'s scale is 0), turned by `watermark_rotate`
    /// (clockwise, on a canvas grown to the turned mark's bounding box, its corners transparent),
    /// and given `watermark_shadow`'s shadow: the mark's silhouette in black blurred by the sigma,
    /// under the mark, on a canvas grown by three sigmas on each side. Every step checks the size it
    /// would make against `pixelLimit` first: too large is a 400.
    struct WatermarkShaping {
        let options: ProcessingOptions.CustomWatermark
        /// `wm`'s scale: when not 0, the placement fits the mark and `watermark_size` is not used.
        let placementScale: Double
        let pixelLimit: Int

        var changesMark: Bool {
            (placementScale == 0 && (options.width > 0 || options.height > 0)) || turns || options.shadow > 0
        }

        /// The rotation within a turn, not 0.
        private var turns: Bool { options.rotation.truncatingRemainder(dividingBy: 360) != 0 }

        func shaped(_ mark: ImageBitmap) throws(ServiceError) -> ImageBitmap {
            var mark = mark
            if placementScale == 0, options.width > 0 || options.height > 0 { mark = try resized(mark) }
            if turns { mark = try rotated(mark) }
            if options.shadow > 0 { mark = try shadowed(mark) }
            return mark
        }

        private func check(_ width: Int, _ height: Int, _ step: String) throws(ServiceError) {
            let (pixels, overflows) = width.multipliedReportingOverflow(by: height)
            guard !overflows, pixels <= pixelLimit else {
                throw .badRequest(
                    "the watermark's \(step) would be \(width)x\(height), above the limit of \(pixelLimit) pixels")
            }
        }

        private func resized(_ mark: ImageBitmap) throws(ServiceError) -> ImageBitmap {
            var fit = ProcessingOptions()
            fit.width = options.width
            fit.height = options.height
            fit.enlarge = true
            guard let plan = try? ProcessingPlan(source: mark.size, options: fit) else {
                throw .badRequest("the watermark cannot be fitted to \(options.width)x\(options.height)")
            }
            try check(plan.scaledSize.width, plan.scaledSize.height, "size")
            do {
                return try mark.resampled(to: plan.scaledSize)
            } catch {
                throw ServiceErrorMapping.map(error)
            }
        }

        private func rotated(_ mark: ImageBitmap) throws(ServiceError) -> ImageBitmap {
            // The bounding box of any turn fits in a square of the two sides together.
            let side = mark.width + mark.height
            try check(side, side, "rotation")
            let degrees = options.rotation.truncatingRemainder(dividingBy: 360)
            do {
                return try ImageRotationTransformer(angle: -degrees * .pi / 180)
                    .transformedImage(Image(bitmap: mark, hasAlpha: true), forKey: "").bitmap
            } catch {
                throw ServiceErrorMapping.map(error)
            }
        }

        private func shadowed(_ mark: ImageBitmap) throws(ServiceError) -> ImageBitmap {
            let margin = Int(clamping: (options.shadow * 3).rounded(.up))
            let width = mark.width + 2 * margin
            let height = mark.height + 2 * margin
            try check(width, height, "shadow")
            var silhouette = ImageBitmap(width: width, height: height, fill: RGBA8(r: 0, g: 0, b: 0, a: 0))
            for y in 0..<mark.height {
                for x in 0..<mark.width {
                    silhouette[x + margin, y + margin] = RGBA8(r: 0, g: 0, b: 0, a: mark[x, y].a)
                }
            }
            do {
                let blurred = try ImageBlurTransformer(radius: options.shadow)
                    .transformedImage(Image(bitmap: silhouette, hasAlpha: true), forKey: "").bitmap
                return blurred.composited(over: [(margin, margin)], mark: mark, opacity: 1)
            } catch {
                throw ServiceErrorMapping.map(error)
            }
        }
    }
#endif
