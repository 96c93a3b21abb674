#if Server
    import WebImage

    /// Finds the part of an image inside a uniform border (imgproxy's `trim`).
    ///
    /// The image is flattened onto magenta (so transparency is a colour), smoothed by a 3×3 median
    /// per channel, and a pixel is the object when any channel differs from the background by more
    /// than the threshold. The background is the given colour, else the top-left pixel. An image
    /// that is all background is kept whole.
    enum Trimming {
        static func region(of bitmap: ImageBitmap, _ trim: ProcessingOptions.Trim) -> PixelRect {
            let (width, height) = (bitmap.width, bitmap.height)
            let whole = PixelRect(x: 0, y: 0, width: width, height: height)
            guard width > 2, height > 2 else { return whole }
            let flat = bitmap.composited(onto: RGBA8(r: 255, g: 0, b: 255, a: 255))
            let background = trim.color ?? flat[0, 0]
            let target = [Int(background.r), Int(background.g), Int(background.b)]
            var left = width
            var right = -1
            var top = height
            var bottom = -1
            flat.pixels.withUnsafeBufferPointer { pixels in
                var window = [Int](repeating: 0, count: 9)
                for y in 0..<height {
                    for x in 0..<width {
                        var isObject = false
                        for channel in 0..<3 where !isObject {
                            var count = 0
                            for dy in -1...1 {
                                let row = min(max(y + dy, 0), height - 1) * width
                                for dx in -1...1 {
                                    window[count] = Int(pixels[(row + min(max(x + dx, 0), width - 1)) * 4 + channel])
                                    count += 1
                                }
                            }
                            window.sort()
                            isObject = Double(abs(window[4] - target[channel])) > trim.threshold
                        }
                        if isObject {
                            left = min(left, x)
                            right = max(right, x)
                            top = min(top, y)
                            bottom = max(bottom, y)
                        }
                    }
                }
            }
            guard right >= left, bottom >= top else { return whole }
            var region = PixelRect(x: left, y: top, width: right - left + 1, height: bottom - top + 1)
            if trim.equalHorizontal {
                let cut = min(left, width - 1 - right)
                region = PixelRect(x: cut, y: region.y, width: width - 2 * cut, height: region.height)
            }
            if trim.equalVertical {
                let cut = min(top, height - 1 - bottom)
                region = PixelRect(x: region.x, y: cut, width: region.width, height: height - 2 * cut)
            }
            return region
        }
    }
#endif
