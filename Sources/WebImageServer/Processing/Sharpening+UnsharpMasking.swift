#if Server
    import WebImage

    /// `ush:mode:weight:divider`, imgproxy Pro's unsharp masking. Its code is not public; its
    /// documentation says only that a larger weight and a smaller divider sharpen more. Here it is
    /// a 3×3 convolution, as libvips runs a mask: the centre weighs `divider + 8 × weight`, each of
    /// the 8 neighbours `−weight`, and the sum is divided by `divider`, so flat areas are unchanged
    /// and the defaults (1, 24) sharpen mildly.
    extension Sharpening {
        /// Whether the options' unsharp masking applies to an image planned as `plan`: `always`;
        /// `auto` when the plan scales either axis down and `sharpen` is not set; never with `none`.
        static func masksUnsharply(_ options: ProcessingOptions, plan: ProcessingPlan) -> Bool {
            switch options.unsharpMasking.mode {
            case .none: false
            case .always: true
            case .auto: options.sharpen == 0 && (plan.scaleX < 1 || plan.scaleY < 1)
            }
        }

        /// `bitmap` convolved with the mask above (in premultiplied alpha, edges extended); alpha
        /// is kept. The weight and divider are the checked ones of
        /// ``ProcessingOptions/UnsharpMasking``, so their ratio is finite.
        static func unsharpMasked(_ bitmap: ImageBitmap, weight: Double, divider: Double) -> ImageBitmap {
            let amount = Float(weight / divider)
            let (width, height) = (bitmap.width, bitmap.height)
            return bitmap.pixels.withUnsafeBufferPointer { source in
                ImageBitmap(width: width, height: height) { output in
                    // Premultiplied colour of pixel (x, y), the coordinates clamped to the image.
                    func colour(_ x: Int, _ y: Int) -> SIMD3<Float> {
                        let i = (min(max(y, 0), height - 1) * width + min(max(x, 0), width - 1)) * 4
                        let alpha = Float(source[i + 3]) / 255
                        return SIMD3(Float(source[i]), Float(source[i + 1]), Float(source[i + 2])) * alpha
                    }
                    for y in 0..<height {
                        for x in 0..<width {
                            let i = (y * width + x) * 4
                            let alpha = source[i + 3]
                            output[i + 3] = alpha
                            guard alpha > 0 else {
                                for c in 0..<3 { output[i + c] = source[i + c] }
                                continue
                            }
                            let centre = colour(x, y)
                            var neighbours = SIMD3<Float>(repeating: 0)
                            for dy in -1...1 {
                                for dx in -1...1 where dx != 0 || dy != 0 { neighbours += colour(x + dx, y + dy) }
                            }
                            let sharpened = (centre + (centre * 8 - neighbours) * amount) * (255 / Float(alpha))
                            output[i] = UInt8(channel: sharpened.x)
                            output[i + 1] = UInt8(channel: sharpened.y)
                            output[i + 2] = UInt8(channel: sharpened.z)
                        }
                    }
                }
            }
        }
    }
#endif
