#if Server
    import Foundation
    import WebImage

    /// How a source stores its pixels, in libvips's words as imgproxy reports them: the colour
    /// space (`srgb`, `b-w`, `cmyk`, `rgb16`, `grey16`), the number of bands and the sample format
    /// (`uchar`, `ushort`).
    ///
    /// JPEG (from its frame header) and PNG (from its header and transparency chunk) are read as
    /// stored. Other formats are reported as decoded: 8-bit sRGB, with 4 bands when they have an
    /// alpha channel and 3 otherwise.
    struct StoredLayout: Equatable {
        var colorspace: String
        var bands: Int
        var sampleFormat: String

        init(colorspace: String, bands: Int, sampleFormat: String) {
            self.colorspace = colorspace
            self.bands = bands
            self.sampleFormat = sampleFormat
        }

        /// The layout of `data`, whose header reads as `info`.
        init(of data: Data, info: ImageInfo) {
            let bytes = [UInt8](data.prefix(1 << 20))
            switch info.format {
            case .jpeg:
                if let layout = Self.jpeg(bytes) {
                    self = layout
                    return
                }
            case .png:
                if let layout = Self.png(bytes) {
                    self = layout
                    return
                }
            default:
                break
            }
            self.init(colorspace: "srgb", bands: info.hasAlpha ? 4 : 3, sampleFormat: "uchar")
        }

        /// From the first start-of-frame marker: its precision and component count.
        static func jpeg(_ bytes: [UInt8]) -> StoredLayout? {
            var index = 2
            while index + 9 < bytes.count {
                guard bytes[index] == 0xFF else { return nil }
                let marker = bytes[index + 1]
                if marker == 0xFF {
                    index += 1
                    continue
                }
                let length = Int(bytes[index + 2]) << 8 | Int(bytes[index + 3])
                let isFrame = (0xC0...0xCF).contains(marker) && ![0xC4, 0xC8, 0xCC].contains(marker)
                if isFrame {
                    let wide = bytes[index + 4] > 8
                    switch bytes[index + 9] {
                    case 1:
                        return StoredLayout(
                            colorspace: wide ? "grey16" : "b-w", bands: 1, sampleFormat: wide ? "ushort" : "uchar")
                    case 4: return StoredLayout(colorspace: "cmyk", bands: 4, sampleFormat: wide ? "ushort" : "uchar")
                    default:
                        return StoredLayout(
                            colorspace: wide ? "rgb16" : "srgb", bands: 3, sampleFormat: wide ? "ushort" : "uchar")
                    }
                }
                guard length >= 2 else { return nil }
                index += 2 + length
            }
            return nil
        }

        /// From `IHDR` (colour type and bit depth) and whether a `tRNS` chunk adds alpha.
        static func png(_ bytes: [UInt8]) -> StoredLayout? {
            guard bytes.count >= 33 else { return nil }
            let depth = bytes[24]
            let colorType = bytes[25]
            var transparency = false
            var index = 8
            while index + 8 <= bytes.count {
                let length =
                    Int(bytes[index]) << 24 | Int(bytes[index + 1]) << 16 | Int(bytes[index + 2]) << 8
                    | Int(bytes[index + 3])
                let type = String(decoding: bytes[(index + 4)..<(index + 8)], as: UTF8.self)
                if type == "tRNS" { transparency = true }
                if type == "IDAT" || type == "IEND" { break }
                index += 12 + length
            }
            let wide = depth == 16
            let sample = wide ? "ushort" : "uchar"
            switch colorType {
            case 0:
                return StoredLayout(
                    colorspace: wide ? "grey16" : "b-w", bands: transparency ? 2 : 1, sampleFormat: sample)
            case 4: return StoredLayout(colorspace: wide ? "grey16" : "b-w", bands: 2, sampleFormat: sample)
            case 2:
                return StoredLayout(
                    colorspace: wide ? "rgb16" : "srgb", bands: transparency ? 4 : 3, sampleFormat: sample)
            case 3: return StoredLayout(colorspace: "srgb", bands: transparency ? 4 : 3, sampleFormat: "uchar")
            case 6: return StoredLayout(colorspace: wide ? "rgb16" : "srgb", bands: 4, sampleFormat: sample)
            default: return nil
            }
        }
    }
#endif
