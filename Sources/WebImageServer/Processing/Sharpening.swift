#if Server
    import WebImage

    /// `sh:sigma`: an unsharp mask, the image plus the difference from its Gaussian blur of that
    /// sigma (amount 1), per colour channel; alpha is kept.
    enum Sharpening {
        static func unsharpMask(_ bitmap: ImageBitmap, sigma: Double) throws(WebImageError) -> ImageBitmap {
            let blurred = try ImageBlurTransformer(radius: sigma)
                .transformedImage(Image(bitmap: bitmap), forKey: "").bitmap
            return bitmap.pixels.withUnsafeBufferPointer { original in
                blurred.pixels.withUnsafeBufferPointer { soft in
                    ImageBitmap(width: bitmap.width, height: bitmap.height) { output in
                        var i = 0
                        while i < original.count {
                            for channel in 0..<3 {
                                let value = 2 * Int(original[i + channel]) - Int(soft[i + channel])
                                output[i + channel] = UInt8(clamping: value)
                            }
                            output[i + 3] = original[i + 3]
                            i += 4
                        }
                    }
                }
            }
        }
    }
#endif
