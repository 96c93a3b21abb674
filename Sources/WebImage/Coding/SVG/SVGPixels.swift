/// cairo's pixels to the package's: cairo's ARGB32 is one native-endian 32-bit word a pixel with
/// premultiplied colour; ``ImageBitmap`` holds R, G, B, A bytes with straight alpha.
enum SVGPixels {
    /// Converts `pixels` in place. Colour is divided by alpha rounding to nearest, as cairo does
    /// when it writes a PNG, so that the result matches `rsvg-convert`'s.
    static func straightRGBA(fromPremultipliedARGB pixels: UnsafeMutableBufferPointer<UInt8>) {
        var at = 0
        while at + 3 < pixels.count {
            #if _endian(little)
                let (blue, green, red, alpha) = (pixels[at], pixels[at + 1], pixels[at + 2], pixels[at + 3])
            #else
                let (alpha, red, green, blue) = (pixels[at], pixels[at + 1], pixels[at + 2], pixels[at + 3])
            #endif
            pixels[at] = straight(red, alpha)
            pixels[at + 1] = straight(green, alpha)
            pixels[at + 2] = straight(blue, alpha)
            pixels[at + 3] = alpha
            at += 4
        }
    }

    @inline(__always)
    private static func straight(_ colour: UInt8, _ alpha: UInt8) -> UInt8 {
        switch alpha {
        case 255: return colour
        case 0: return 0
        default:
            let value = (UInt32(colour) * 255 + UInt32(alpha) / 2) / UInt32(alpha)
            return UInt8(truncatingIfNeeded: min(value, 255))
        }
    }
}
