#if Server
    import Foundation
    import WebImage

    /// Smart gravity (`g:sm`): the crop that keeps the most detail. Like libvips' entropy
    /// strategy, it shaves the image down to the crop from whichever side holds the less
    /// information (the lower Shannon entropy of its luma histogram), a band at a time, working on a
    /// luma copy of at most 256 pixels a side.
    enum SmartCrop {
        static func region(of size: PixelSize, in bitmap: ImageBitmap) -> (x: Int, y: Int) {
            let spareX = bitmap.width - size.width
            let spareY = bitmap.height - size.height
            guard spareX > 0 || spareY > 0 else { return (0, 0) }
            let luma = LumaGrid(bitmap, maxSide: 256)
            let step = Double(luma.step)
            let wantWidth = max(1, Int(clamping: Double(size.width) / step, rounding: .toNearestOrAwayFromZero))
            let wantHeight = max(1, Int(clamping: Double(size.height) / step, rounding: .toNearestOrAwayFromZero))
            var window = (left: 0, top: 0, right: luma.width, bottom: luma.height)
            while window.right - window.left > wantWidth {
                let band = max(1, min(window.right - window.left - wantWidth, wantWidth / 8))
                let leading = luma.entropy(x: window.left..<(window.left + band), y: window.top..<window.bottom)
                let trailing = luma.entropy(x: (window.right - band)..<window.right, y: window.top..<window.bottom)
                if leading < trailing { window.left += band } else { window.right -= band }
            }
            while window.bottom - window.top > wantHeight {
                let band = max(1, min(window.bottom - window.top - wantHeight, wantHeight / 8))
                let leading = luma.entropy(x: window.left..<window.right, y: window.top..<(window.top + band))
                let trailing = luma.entropy(x: window.left..<window.right, y: (window.bottom - band)..<window.bottom)
                if leading < trailing { window.top += band } else { window.bottom -= band }
            }
            let x = min(
                max(Int(clamping: Double(window.left) * step, rounding: .toNearestOrAwayFromZero), 0), max(spareX, 0))
            let y = min(
                max(Int(clamping: Double(window.top) * step, rounding: .toNearestOrAwayFromZero), 0), max(spareY, 0))
            return (x, y)
        }
    }

    /// Luma (BT.601, alpha ignored) sampled every `step` pixels.
    struct LumaGrid {
        let width: Int
        let height: Int
        let step: Int
        private var values: [UInt8]

        init(_ bitmap: ImageBitmap, maxSide: Int) {
            step = max(1, (max(bitmap.width, bitmap.height) + maxSide - 1) / maxSide)
            width = max(1, bitmap.width / step)
            height = max(1, bitmap.height / step)
            let (gridWidth, gridHeight, gridStep) = (width, height, step)
            var grid = [UInt8](repeating: 0, count: width * height)
            bitmap.pixels.withUnsafeBufferPointer { pixels in
                for gridY in 0..<gridHeight {
                    let row = gridY * gridStep * bitmap.width
                    for gridX in 0..<gridWidth {
                        let i = (row + gridX * gridStep) * 4
                        let luma = 299 * Int(pixels[i]) + 587 * Int(pixels[i + 1]) + 114 * Int(pixels[i + 2])
                        grid[gridY * gridWidth + gridX] = UInt8(luma / 1000)
                    }
                }
            }
            values = grid
        }

        /// Shannon entropy (bits) of the luma histogram over the cells in `x` × `y`.
        func entropy(x: Range<Int>, y: Range<Int>) -> Double {
            var histogram = [Int](repeating: 0, count: 256)
            for row in y {
                for column in x { histogram[Int(values[row * width + column])] += 1 }
            }
            let total = Double(x.count * y.count)
            guard total > 0 else { return 0 }
            return histogram.reduce(0.0) { sum, count in
                guard count > 0 else { return sum }
                let p = Double(count) / total
                return sum - p * log2(p)
            }
        }
    }
#endif
