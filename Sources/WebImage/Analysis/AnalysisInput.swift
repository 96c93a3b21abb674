/// What the image analyses share: the pixels as shown, made small before anything else is done,
/// so that an analysis costs little and allocates a bounded amount whatever the image's size.
enum AnalysisInput {
    /// The pixels as shown (``Image/orientation`` applied), shrunk with `filter` until neither
    /// side exceeds `limit`, keeping the aspect ratio; never enlarged.
    static func upright(_ image: Image, fittingWithin limit: Int, filter: ResamplingFilter = .box) -> ImageBitmap {
        let shown = image.orientedSize
        let longest = max(shown.width, shown.height)
        guard longest > limit else { return TransformSupport.uprightBitmap(of: image) }
        let scale = Double(limit) / Double(longest)
        let side = { (length: Int) in
            min(limit, max(1, Int(clamping: Double(length) * scale, rounding: .toNearestOrAwayFromZero)))
        }
        return upright(
            image, resizedTo: PixelSize(width: side(shown.width), height: side(shown.height)), filter: filter)
    }

    /// The pixels as shown, resampled to exactly `size` (a size as shown, both sides positive).
    ///
    /// The stored bitmap is resampled first and the small result turned, so a large image is
    /// never turned whole. Resampling and turning commute: the filters are symmetric.
    static func upright(_ image: Image, resizedTo size: PixelSize, filter: ResamplingFilter) -> ImageBitmap {
        let stored = image.orientation.swapsDimensions ? PixelSize(width: size.height, height: size.width) : size
        let small: ImageBitmap
        do {
            small = try image.bitmap.resampled(to: stored, filter: filter)
        } catch {
            // Unreachable for the small positive sizes the analyses ask for; should the
            // resampler refuse anyway, picking the nearest pixels still gives the size asked.
            small = nearestPixels(of: image.bitmap, size: stored)
        }
        return small.applyingOrientation(image.orientation)
    }

    /// `bitmap` resized to `size` by picking the pixel under each output pixel's centre.
    private static func nearestPixels(of bitmap: ImageBitmap, size: PixelSize) -> ImageBitmap {
        let width = max(1, size.width)
        let height = max(1, size.height)
        var result = ImageBitmap(width: width, height: height, fill: .clear)
        for y in 0..<height {
            let sourceY = min(bitmap.height - 1, (2 * y + 1) * bitmap.height / (2 * height))
            for x in 0..<width {
                let sourceX = min(bitmap.width - 1, (2 * x + 1) * bitmap.width / (2 * width))
                result[x, y] = bitmap[sourceX, sourceY]
            }
        }
        return result
    }

    /// At most `limit` pixels of `bitmap`, taken on an even grid (every `step`-th pixel of
    /// every `step`-th row): colours as stored, never mixed by a filter, so a colour count or a
    /// palette sees only colours that the image has. Fully transparent pixels come back as
    /// ``RGBA8/clear``, since the colour they hide is not part of the image.
    static func gridSamples(of bitmap: ImageBitmap, limit: Int = 1 << 16) -> [RGBA8] {
        let width = bitmap.width
        let height = bitmap.height
        let ratio = Double(width) * Double(height) / Double(max(1, limit))
        var step = max(1, Int(clamping: ratio.squareRoot(), rounding: .down))
        while ((width + step - 1) / step) * ((height + step - 1) / step) > limit { step += 1 }
        var samples: [RGBA8] = []
        samples.reserveCapacity(((width + step - 1) / step) * ((height + step - 1) / step))
        bitmap.pixels.withUnsafeBufferPointer { pixels in
            for y in stride(from: 0, to: height, by: step) {
                for x in stride(from: 0, to: width, by: step) {
                    let i = (y * width + x) * 4
                    let alpha = pixels[i + 3]
                    samples.append(
                        alpha == 0 ? .clear : RGBA8(r: pixels[i], g: pixels[i + 1], b: pixels[i + 2], a: alpha))
                }
            }
        }
        return samples
    }
}
