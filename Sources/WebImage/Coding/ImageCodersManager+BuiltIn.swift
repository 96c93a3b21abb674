extension ImageCodersManager {
    /// The coders WebImage ships, in the order they are tried: JPEG first, the web's most common
    /// format, so that a JPEG asks one coder. Each recognises its format by its signature, so the
    /// order only matters against coders you add (which go first).
    /// AVIF, HEIC, JPEG XL, TIFF and SVG are there when their package traits are on (all are by default).
    public static var builtInCoders: [any ImageCoding] {
        var coders: [any ImageCoding] = [JPEGCoder(), PNGCoder(), GIFCoder(), WebPCoder()]
        #if AVIF
            coders.append(AVIFCoder())
        #endif
        #if HEIC
            coders.append(HEICCoder())
        #endif
        #if JPEGXL
            coders.append(JPEGXLCoder())
        #endif
        #if TIFF
            coders.append(TIFFCoder())
        #endif
        #if SVG
            coders.append(SVGCoder())
        #endif
        return coders + [BMPCoder(), ICOCoder()]
    }

    /// The formats ``builtInCoders`` read and write, in their order. A format missing here (its
    /// trait was off) fails to decode with ``WebImageError/Code/unsupportedFormat``.
    public static var builtInFormats: [ImageFormat] {
        builtInCoders.flatMap { coder in ImageFormat.allCases.filter { coder.canEncode(to: $0) } }
    }
}
