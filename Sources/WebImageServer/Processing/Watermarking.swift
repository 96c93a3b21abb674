#if Server
    import WebImage

    /// Places the service's watermark on a result, as imgproxy does: fitted into `scale` of the
    /// result when asked (enlarging too), placed by its position with the offsets times the DPR
    /// (hanging over the edges if the offsets say so), or tiled from the centre with the offsets as
    /// spacing; then composited over the result in sRGB, its alpha times the opacity. A result
    /// without alpha stays opaque.
    struct Watermarking: Sendable {
        /// The mark, upright, straight alpha.
        let mark: ImageBitmap
        let options: ProcessingOptions.Watermark
        /// The service's base opacity (imgproxy's `IMGPROXY_WATERMARK_OPACITY`).
        let baseOpacity: Double

        func applied(to image: ImageBitmap, dprScale: Double) throws(WebImageError) -> ImageBitmap {
            let opacity = min(max(baseOpacity * options.opacity, 0), 1)
            guard opacity > 0 else { return image }
            var tile = try fitted(to: image.size)
            switch options.position {
            case .anchored(let anchor):
                let origin = GravityPlacement.origin(
                    of: tile.size, in: image.size, gravity: .anchored(anchor, x: options.x, y: options.y),
                    pixelScale: dprScale, allowsOverflow: true)
                return image.composited(over: [origin], mark: tile, opacity: opacity)
            case .replicate, .chess:
                let spacingX = Self.spacing(options.x, side: image.width, scale: dprScale)
                let spacingY = Self.spacing(options.y, side: image.height, scale: dprScale)
                tile = tile.placed(
                    on: PixelSize(width: tile.width + spacingX, height: tile.height + spacingY),
                    at: (spacingX / 2, spacingY / 2))
                var across = (image.width + tile.width - 1) / tile.width
                var down = (image.height + tile.height - 1) / tile.height
                if across % 2 == 0 { across += 1 }
                if down % 2 == 0 { down += 1 }
                let left = (across * tile.width - image.width) / 2
                let top = (down * tile.height - image.height) / 2
                var origins: [(x: Int, y: Int)] = []
                for row in 0..<down {
                    for column in 0..<across where options.position == .replicate || (row + column) % 2 == 0 {
                        origins.append((column * tile.width - left, row * tile.height - top))
                    }
                }
                return image.composited(over: origins, mark: tile, opacity: opacity)
            }
        }

        /// The mark fitted into `scale` of the result (enlarged or reduced), or as it is.
        private func fitted(to result: PixelSize) throws(WebImageError) -> ImageBitmap {
            guard options.scale > 0 else { return mark }
            func side(_ length: Int) -> Int {
                max(1, Int(clamping: (Double(length) * options.scale).rounded(.toNearestOrEven)))
            }
            var fit = ProcessingOptions()
            fit.width = side(result.width)
            fit.height = side(result.height)
            fit.enlarge = true
            guard let plan = try? ProcessingPlan(source: mark.size, options: fit) else {
                throw .invalidArgument("the watermark cannot be fitted to \(fit.width)x\(fit.height)")
            }
            return plan.scaledSize == mark.size ? mark : try mark.resampled(to: plan.scaledSize)
        }

        /// Tile spacing: pixels times the DPR from 1 up, else a fraction of the side; never below 0
        /// and never more than the side.
        private static func spacing(_ value: Double, side: Int, scale: Double) -> Int {
            let pixels = abs(value) >= 1 ? value * scale : value * Double(side)
            return Int(clamping: pixels.rounded(.toNearestOrEven).clamped(to: 0...Double(side)))
        }
    }

    extension ImageBitmap {
        /// `mark` composited over this bitmap at each origin (clipped to it), alpha times `opacity`.
        func composited(over origins: [(x: Int, y: Int)], mark: ImageBitmap, opacity: Double) -> ImageBitmap {
            var result = self
            let scale = Float(opacity)
            for origin in origins {
                let startX = max(origin.x, 0)
                let startY = max(origin.y, 0)
                let endX = min(origin.x + mark.width, width)
                let endY = min(origin.y + mark.height, height)
                guard startX < endX, startY < endY else { continue }
                for y in startY..<endY {
                    for x in startX..<endX {
                        let top = mark[x - origin.x, y - origin.y]
                        let alpha = Float(top.a) / 255 * scale
                        guard alpha > 0 else { continue }
                        let under = result[x, y]
                        let below = Float(under.a) / 255
                        let out = alpha + below * (1 - alpha)
                        func channel(_ source: UInt8, _ destination: UInt8) -> UInt8 {
                            let value = (Float(source) * alpha + Float(destination) * below * (1 - alpha)) / out
                            return UInt8(channel: value)
                        }
                        result[x, y] = RGBA8(
                            r: channel(top.r, under.r), g: channel(top.g, under.g), b: channel(top.b, under.b),
                            a: UInt8(channel: out * 255))
                    }
                }
            }
            return result
        }
    }
#endif
