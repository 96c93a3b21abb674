#if Server
    import WebImage

    extension ImageProcessor {
        /// imgproxy's filter step, on the result after the resize and before extending. imgproxy
        /// Pro's order is not documented; this one follows libvips' habits (point operations, then
        /// neighbourhood ones, then overlays):
        /// 1. unsharp masking (`ush`), which belongs to the resize;
        /// 2. the colour operations: `adjust` (brightness, contrast, saturation), `monochrome`,
        ///    `duotone`;
        /// 3. `blur`, `sharpen` and `pixelate`, as imgproxy applies them together;
        /// 4. `blur_areas` and `progressive_blur`;
        /// 5. the overlays: `colorize`, then `gradient`.
        func filtered(_ image: Image, geometry: ResultGeometry, key: String) throws(WebImageError) -> Image {
            var result = image
            // The automatic mask of a downscale would cost preserve_hdr its deep pixels: it is
            // left out for them (an explicit `always` still applies, at 8 bits).
            let keepsDepth = result.deepBitmap != nil && options.unsharpMasking.mode == .auto
            if Sharpening.masksUnsharply(options, plan: plan), !keepsDepth {
                let masking = options.unsharpMasking
                result.bitmap = Sharpening.unsharpMasked(
                    result.bitmap, weight: masking.weight, divider: masking.divider)
            }
            var steps: [any ImageTransforming] = []
            if options.adjustsColour {
                steps.append(
                    ImageColorAdjustTransformer(
                        brightness: Double(options.brightness), contrast: options.contrast,
                        saturation: options.saturation))
            }
            if let monochrome = options.monochrome {
                steps.append(ImageMonochromeTransformer(intensity: monochrome.intensity, color: monochrome.color))
            }
            if let duotone = options.duotone {
                steps.append(
                    ImageDuotoneTransformer(intensity: duotone.intensity, dark: duotone.dark, light: duotone.light))
            }
            for step in steps { result = try step.transformedImage(result, forKey: key) }
            if options.blur > 0 {
                result = try ImageBlurTransformer(radius: options.blur).transformedImage(result, forKey: key)
            }
            if options.sharpen > 0 { result.bitmap = try Sharpening.unsharpMask(result.bitmap, sigma: options.sharpen) }
            if options.pixelate > 1 { result.bitmap = result.bitmap.pixelated(block: options.pixelate) }
            if let blurAreas = options.blurAreas {
                let rects = blurAreas.areas.compactMap(geometry.rect(of:))
                result.bitmap = try result.bitmap.blurred(in: rects, sigma: blurAreas.sigma)
            }
            if let blur = options.progressiveBlur {
                let ramp = blur.ramp
                result = try ImageProgressiveBlurTransformer(
                    radius: blur.sigma, angle: ramp.angle, start: ramp.start, stop: ramp.stop
                ).transformedImage(result, forKey: key)
            }
            if let colorize = options.colorize {
                result = try colorized(result, colorize, key: key)
            }
            if let gradient = options.gradient {
                let ramp = gradient.ramp
                result = try ImageGradientTransformer(
                    opacity: gradient.opacity, color: gradient.color, angle: ramp.angle, start: ramp.start,
                    stop: ramp.stop
                ).transformedImage(result, forKey: key)
            }
            return result
        }

        /// `colorize`: the library's tint with the colour at the option's opacity (alpha in 255ths),
        /// composited source-over (transparent areas take the colour too) or, keeping the image's
        /// alpha, source-atop.
        private func colorized(
            _ image: Image, _ colorize: ProcessingOptions.Colorize, key: String
        ) throws(WebImageError) -> Image {
            var color = colorize.color
            color.a = UInt8(clamping: colorize.opacity * 255, rounding: .toNearestOrAwayFromZero)
            guard color.a > 0 else { return image }
            let mode: ImageBlendMode = colorize.keepsAlpha ? .sourceAtop : .normal
            return try ImageTintTransformer(color: color, blendMode: mode).transformedImage(image, forKey: key)
        }

        /// Transparency flattened onto `background` at the options' `background_alpha`: opaque
        /// (alpha 1, as imgproxy OSS flattens) or composited source-over onto the translucent colour.
        /// The background colour's own alpha digits are ignored, as they always were.
        func flattened(_ image: Image, onto background: RGBA8) -> Image {
            var result = image
            let alpha = options.backgroundAlpha
            if alpha >= 1 {
                result.bitmap = image.bitmap.composited(onto: background)
                result.hasAlpha = false
            } else {
                result.bitmap = image.bitmap.composited(onto: background, alpha: alpha)
                result.hasAlpha = result.bitmap.containsTransparency
            }
            return result
        }
    }

    extension ImageBitmap {
        /// Each pixel composited source-over onto `background` of opacity `alpha` (0…1).
        func composited(onto background: RGBA8, alpha: Double) -> ImageBitmap {
            let below = Float(alpha)
            let colour = SIMD3<Float>(Float(background.r), Float(background.g), Float(background.b))
            var result = self
            result.pixels.withUnsafeMutableBufferPointer { pixels in
                var i = 0
                while i < pixels.count {
                    let top = Float(pixels[i + 3]) / 255
                    let out = top + below * (1 - top)
                    if out > 0 {
                        let own = SIMD3<Float>(Float(pixels[i]), Float(pixels[i + 1]), Float(pixels[i + 2]))
                        let mixed = (own * top + colour * (below * (1 - top))) / out
                        pixels[i] = UInt8(channel: mixed.x)
                        pixels[i + 1] = UInt8(channel: mixed.y)
                        pixels[i + 2] = UInt8(channel: mixed.z)
                    }
                    pixels[i + 3] = UInt8(channel: out * 255)
                    i += 4
                }
            }
            return result
        }
    }
#endif
