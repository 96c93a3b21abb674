#if Server
    import WebImage

    /// Where the result came from in the frame the processor was given, so that regions of the
    /// source (`blur_areas`) can be found in the result: the frame after the request's rotation and
    /// flips, the crop of it that was scaled, the scaled size, and the part of that kept.
    struct ResultGeometry: Equatable {
        /// The frame as shown, after `rotate` and `flip`.
        var frame: PixelSize
        /// The crop of ``frame`` that was scaled.
        var crop: PixelRect
        /// The size the crop was scaled to.
        var scaled: PixelSize
        /// The part of the scaled crop that is the result.
        var result: PixelRect
        var rotate: Int
        var flipHorizontal: Bool
        var flipVertical: Bool

        /// The pixels of the result that `area` (fractions of the source as shown, before the
        /// rotation and flips) covers, rounded to the nearest pixel edges; nil when none.
        func rect(of area: ProcessingOptions.Area) -> PixelRect? {
            var left = area.left
            var top = area.top
            var right = min(area.left + area.width, 1)
            var bottom = min(area.top + area.height, 1)
            // The request's rotation (clockwise), then its flips, as the frame had them.
            switch rotate {
            case 90: (left, top, right, bottom) = (1 - bottom, left, 1 - top, right)
            case 180: (left, top, right, bottom) = (1 - right, 1 - bottom, 1 - left, 1 - top)
            case 270: (left, top, right, bottom) = (top, 1 - right, bottom, 1 - left)
            default: break
            }
            if flipHorizontal { (left, right) = (1 - right, 1 - left) }
            if flipVertical { (top, bottom) = (1 - bottom, 1 - top) }
            // A fraction of the frame's side → pixels of the frame → of the crop, scaled → of the result.
            func x(_ fraction: Double) -> Int {
                let scaledX = (fraction * Double(frame.width) - Double(crop.x)) * Double(scaled.width)
                return edge(scaledX / Double(crop.width) - Double(result.x), limit: result.width)
            }
            func y(_ fraction: Double) -> Int {
                let scaledY = (fraction * Double(frame.height) - Double(crop.y)) * Double(scaled.height)
                return edge(scaledY / Double(crop.height) - Double(result.y), limit: result.height)
            }
            func edge(_ value: Double, limit: Int) -> Int {
                min(max(Int(clamping: value, rounding: .toNearestOrAwayFromZero), 0), limit)
            }
            let (startX, endX, startY, endY) = (x(left), x(right), y(top), y(bottom))
            guard startX < endX, startY < endY else { return nil }
            return PixelRect(x: startX, y: startY, width: endX - startX, height: endY - startY)
        }
    }

    extension ImageBitmap {
        /// This bitmap with the pixels inside `rects` replaced by a Gaussian blur of `sigma` of the
        /// whole bitmap (each rect reads the unblurred pixels around it, never another rect's blur).
        /// Each rect is blurred with a margin wider than the blur reaches; when the margins add up
        /// to more than the bitmap, it is blurred once as a whole instead, so the cost is never more
        /// than one blur of it.
        func blurred(in rects: [PixelRect], sigma: Double) throws(WebImageError) -> ImageBitmap {
            guard !rects.isEmpty else { return self }
            let blur = ImageBlurTransformer(radius: sigma)
            // Three box passes reach at most 3 × (radius + 1) pixels, and a box's radius is below σ + 1.
            let margin = 3 * (Int(clamping: sigma, rounding: .up) + 2)
            let padded = rects.map { rect in
                let x = max(rect.x - margin, 0)
                let y = max(rect.y - margin, 0)
                return PixelRect(
                    x: x, y: y, width: min(rect.x + rect.width + margin, width) - x,
                    height: min(rect.y + rect.height + margin, height) - y)
            }
            let paddedPixels = padded.reduce(0) { $0 + $1.width * $1.height }
            var result = self
            if paddedPixels >= size.pixelCount {
                let whole = try blur.transformedImage(Image(bitmap: self), forKey: "").bitmap
                for rect in rects { result.copy(rect, from: whole, at: (rect.x, rect.y)) }
                return result
            }
            for (rect, around) in zip(rects, padded) {
                let part = try blur.transformedImage(Image(bitmap: try cropped(to: around)), forKey: "").bitmap
                result.copy(rect, from: part, at: (rect.x - around.x, rect.y - around.y))
            }
            return result
        }

        /// Copies `rect`'s pixels from `source`, where they start at `origin`.
        private mutating func copy(_ rect: PixelRect, from source: ImageBitmap, at origin: (x: Int, y: Int)) {
            let rowBytes = rect.width * 4
            let targetWidth = width
            source.pixels.withUnsafeBufferPointer { from in
                pixels.withUnsafeMutableBufferPointer { to in
                    for row in 0..<rect.height {
                        let read = ((origin.y + row) * source.width + origin.x) * 4
                        let write = ((rect.y + row) * targetWidth + rect.x) * 4
                        for offset in 0..<rowBytes { to[write + offset] = from[read + offset] }
                    }
                }
            }
        }
    }
#endif
