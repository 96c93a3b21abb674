/// How hard an encoder works for a smaller file (``ImageEncodeOptions/effort``). Quality is not
/// affected: lossless stays lossless, and a lossy format keeps its quality setting.
///
/// | format | fastest | balanced (default) | smallest |
/// |---|---|---|---|
/// | PNG | zlib level 3, the Up filter on every row | level 6, libpng's adaptive filter per row (Pillow's defaults) | level 9 or 6, adaptive, whichever is smaller |
/// | WebP still | method 2 | method 4 (libwebp's and Pillow's default) | method 6 |
/// | WebP animation | method 0 | method 1 | method 4 |
/// | JPEG | — | — | optimized Huffman tables |
/// | AVIF still | libaom speed 9 | speed 9 | speed 6 |
/// | AVIF sequence | libaom speed 9 (real-time mode) | speed 6 | speed 4 |
/// | HEIC | x265 preset veryfast | slow (libheif's and pillow-heif's default) | slower |
/// | JPEG XL | effort 3 | effort 7 (libjxl's, cjxl's and pillow-jxl-plugin's default) | effort 9 |
///
/// A PNG of at most 256 colours is written with a palette whenever that is smaller, at every
/// level. The WebP animation levels are lower than the still ones because each frame is encoded
/// several times (as a key frame and as a change to the one before): method 1 writes about 35 %
/// fewer bytes than Pillow's default animation settings (method 0 with a key frame every 3–5
/// frames), in less time (Benchmarks/README.md).
public enum EncodeEffort: Int, Sendable, Comparable, CaseIterable {
    case fastest
    case balanced
    case smallest

    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }
}

/// How a JPEG stores colour (``ImageEncodeOptions/chromaSubsampling``): the resolution of its
/// two colour channels against its brightness.
public enum ChromaSubsampling: Sendable {
    /// Colour at half the width and half the height: the smallest files, libjpeg's default.
    case yuv420
    /// Colour at half the width, full height.
    case yuv422
    /// Colour at full resolution: sharp coloured edges (text, line art), larger files.
    case yuv444
}
