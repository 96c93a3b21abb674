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

/// `bg:colour`: straight-alpha "over" onto an opaque colour.
enum Flattening {
    static func flattened(_ bitmap: ImageBitmap, onto background: RGBA8) -> ImageBitmap {
        let bg = (Int(background.r), Int(background.g), Int(background.b))
        return bitmap.pixels.withUnsafeBufferPointer { source in
            ImageBitmap(width: bitmap.width, height: bitmap.height) { output in
                var i = 0
                while i < source.count {
                    let alpha = Int(source[i + 3])
                    let inverse = 255 - alpha
                    output[i] = UInt8((Int(source[i]) * alpha + bg.0 * inverse + 127) / 255)
                    output[i + 1] = UInt8((Int(source[i + 1]) * alpha + bg.1 * inverse + 127) / 255)
                    output[i + 2] = UInt8((Int(source[i + 2]) * alpha + bg.2 * inverse + 127) / 255)
                    output[i + 3] = 255
                    i += 4
                }
            }
        }
    }
}
