#if Server
    import WebImage

    /// Where a region of one size goes inside a container of another, by a ``ProcessingOptions/Gravity``,
    /// with imgproxy's arithmetic: the centre is `(container − region + 1) / 2` rounded half to even,
    /// a focus point is the point (rounded half to even) minus half the region (rounded down), and
    /// offsets are rounded half to even.
    enum GravityPlacement {
        /// The top-left corner of `region` inside `container` (crop: the region is smaller;
        /// extend: the container is the canvas and the region the image). Offsets of magnitude 1 or
        /// more are pixels times `pixelScale`; smaller ones are fractions of the container's side.
        /// Anchored offsets point inward from their edge. The result keeps the region inside the
        /// container when it fits, or with `allowsOverflow` keeps one pixel of it on the container.
        /// Smart gravity needs the pixels (`bitmap`); without them it centres.
        static func origin(
            of region: PixelSize, in container: PixelSize, gravity: ProcessingOptions.Gravity,
            pixelScale: Double = 1, bitmap: ImageBitmap? = nil, allowsOverflow: Bool = false
        ) -> (x: Int, y: Int) {
            let spareX = container.width - region.width
            let spareY = container.height - region.height
            var x: Double
            var y: Double
            switch gravity {
            case .smart:
                guard let bitmap, spareX >= 0, spareY >= 0 else { return (spareX / 2, spareY / 2) }
                let found = SmartCrop.region(of: region, in: bitmap)
                return (found.x, found.y)
            case .focusPoint(let fx, let fy):
                x = (fx * Double(container.width)).rounded(.toNearestOrEven) - Double(region.width / 2)
                y = (fy * Double(container.height)).rounded(.toNearestOrEven) - Double(region.height / 2)
            case .anchored(let anchor, let ox, let oy):
                let dx = offset(ox, side: container.width, scale: pixelScale)
                let dy = offset(oy, side: container.height, scale: pixelScale)
                switch anchor {
                case .west, .northWest, .southWest: x = dx
                case .east, .northEast, .southEast: x = Double(spareX) - dx
                case .center, .north, .south: x = centre(spareX) + dx
                }
                switch anchor {
                case .north, .northWest, .northEast: y = dy
                case .south, .southWest, .southEast: y = Double(spareY) - dy
                case .center, .west, .east: y = centre(spareY) + dy
                }
            }
            guard allowsOverflow else { return (clamp(x, spare: spareX), clamp(y, spare: spareY)) }
            // A watermark may hang over the edges, keeping at least one pixel on the image.
            func overflowing(_ value: Double, region: Int, container: Int) -> Int {
                min(max(Int(clamping: value, rounding: .down), 1 - region), container - 1)
            }
            return (
                overflowing(x, region: region.width, container: container.width),
                overflowing(y, region: region.height, container: container.height)
            )
        }

        private static func centre(_ spare: Int) -> Double {
            ((Double(spare) + 1) / 2).rounded(.toNearestOrEven)
        }

        private static func offset(_ value: Double, side: Int, scale: Double) -> Double {
            (abs(value) >= 1 ? value * scale : value * Double(side)).rounded(.toNearestOrEven)
        }

        /// Within 0…spare (or spare…0 when the region is larger, as when extending). An offset too
        /// large for any image (an infinite product included) lands on the far edge; NaN on the near one.
        private static func clamp(_ value: Double, spare: Int) -> Int {
            let rounded = Int(clamping: value, rounding: .down)
            return spare >= 0 ? min(max(rounded, 0), spare) : max(min(rounded, 0), spare)
        }
    }
#endif
