extension ImageCodersManager {
    /// The coders WebImage ships, in the order they are tried. Each recognises its format by its
    /// signature, so the order only matters against coders you add (which go first).
    /// AVIF, HEIC and TIFF are there when their libraries were installed at build time.
    public static var builtInCoders: [any ImageCoding] {
        var coders: [any ImageCoding] = [PNGCoder(), JPEGCoder(), GIFCoder(), WebPCoder()]
        #if canImport(CAVIF)
            coders.append(AVIFCoder())
        #endif
        #if canImport(CHEIF)
            coders.append(HEICCoder())
        #endif
        #if canImport(CJXL)
            coders.append(JPEGXLCoder())
        #endif
        #if canImport(CTIFF)
            coders.append(TIFFCoder())
        #endif
        return coders + [BMPCoder()]
    }
}
