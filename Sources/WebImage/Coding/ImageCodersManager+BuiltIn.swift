extension ImageCodersManager {
    /// The coders WebImage ships, in the order they are tried. Each recognises its format by its
    /// signature, so the order only matters against coders you add (which go first).
    public static var builtInCoders: [any ImageCoding] {
        [PNGCoder(), JPEGCoder(), GIFCoder(), WebPCoder(), AVIFCoder(), JPEGXLCoder(), TIFFCoder(), BMPCoder()]
    }
}
