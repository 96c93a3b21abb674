import CWebImageShims

/// What a PNG's IHDR and tRNS chunks say, as stored.
struct PNGHeader: Equatable {
    var width: Int
    var height: Int
    /// 1, 2, 4, 8 or 16 bits per sample.
    var bitDepth: Int
    /// The PNG colour type: 0 gray, 2 RGB, 3 palette, 4 gray+alpha, 6 RGBA.
    var colorType: Int
    /// Adam7 interlacing.
    var isInterlaced: Bool
    /// A tRNS chunk (a transparent key colour, or alpha for palette entries).
    var hasTransparencyChunk: Bool

    init(_ header: cwi_png_header) {
        width = Int(header.width)
        height = Int(header.height)
        bitDepth = Int(header.bit_depth)
        colorType = Int(header.color_type)
        isInterlaced = header.interlaced != 0
        hasTransparencyChunk = header.has_trns != 0
    }

    /// An alpha channel or a tRNS chunk.
    var hasAlpha: Bool { colorType & 4 != 0 || hasTransparencyChunk }

    /// Samples per stored pixel.
    var channelCount: Int {
        switch colorType {
        case 2: 3
        case 4: 2
        case 6: 4
        default: 1
        }
    }
}
