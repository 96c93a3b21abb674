import Foundation

@testable import WebImage

/// A ThumbHash decoder written from the format's description (evanw.github.io/thumbhash),
/// separate from the library's encoder, so that the tests check what the bytes mean.
struct ThumbHashDecoder {
    let hash: [UInt8]

    var header24: Int { Int(hash[0]) | Int(hash[1]) << 8 | Int(hash[2]) << 16 }
    var header16: Int { Int(hash[3]) | Int(hash[4]) << 8 }
    var hasAlpha: Bool { header24 >> 23 & 1 == 1 }
    var isLandscape: Bool { header16 >> 15 & 1 == 1 }

    /// Luminance factors across and down, as the header stores them (before the decoder's
    /// minimum of 3); their ratio is the picture's approximate aspect ratio.
    var storedLumaCounts: (x: Int, y: Int) {
        let stored = header16 & 7
        let fixed = hasAlpha ? 5 : 7
        return isLandscape ? (fixed, stored) : (stored, fixed)
    }

    /// Width over height, as the hash remembers it.
    var aspectRatio: Double { Double(storedLumaCounts.x) / Double(storedLumaCounts.y) }

    /// The constant colour (the DC factors), which is the picture's average colour.
    var averageColor: RGBA8 {
        let l = Double(header24 & 63) / 63
        let p = Double(header24 >> 6 & 63) / 31.5 - 1
        let q = Double(header24 >> 12 & 63) / 31.5 - 1
        let b = l - 2.0 / 3 * p
        let r = (3 * l - b + q) / 2
        let byte = { (v: Double) in
            UInt8(clamping: Int(clamping: 255 * min(1, max(0, v)), rounding: .toNearestOrAwayFromZero))
        }
        return RGBA8(r: byte(r), g: byte(r - q), b: byte(b))
    }

    /// The picture, 32 pixels on its longer side.
    func decode() -> ImageBitmap {
        let lDC = Double(header24 & 63) / 63
        let pDC = Double(header24 >> 6 & 63) / 31.5 - 1
        let qDC = Double(header24 >> 12 & 63) / 31.5 - 1
        let lScale = Double(header24 >> 18 & 31) / 31
        let pScale = Double(header16 >> 3 & 63) / 63
        let qScale = Double(header16 >> 9 & 63) / 63
        let lx = max(3, storedLumaCounts.x)
        let ly = max(3, storedLumaCounts.y)
        let aDC = hasAlpha ? Double(hash[5] & 15) / 15 : 1
        let aScale = hasAlpha ? Double(hash[5] >> 4) / 15 : 0
        var nibble = 0
        let start = hasAlpha ? 6 : 5
        // The AC factors of an nx × ny triangle, in the order the encoder writes them.
        func factors(_ nx: Int, _ ny: Int, _ scale: Double) -> [(cx: Int, cy: Int, value: Double)] {
            var result: [(Int, Int, Double)] = []
            for cy in 0..<ny {
                var cx = cy == 0 ? 1 : 0
                while cx * ny < nx * (ny - cy) {
                    let byte = Int(hash[start + nibble / 2])
                    let quantised = (byte >> ((nibble % 2) * 4)) & 15
                    result.append((cx, cy, (Double(quantised) / 7.5 - 1) * scale))
                    nibble += 1
                    cx += 1
                }
            }
            return result
        }
        let lAC = factors(lx, ly, lScale)
        let pAC = factors(3, 3, pScale * 1.25)  // the format boosts colour to offset quantisation
        let qAC = factors(3, 3, qScale * 1.25)
        let aAC = hasAlpha ? factors(5, 5, aScale) : []

        let ratio = aspectRatio
        let w = ratio > 1 ? 32 : max(1, Int(clamping: 32 * ratio, rounding: .toNearestOrAwayFromZero))
        let h = ratio > 1 ? max(1, Int(clamping: 32 / ratio, rounding: .toNearestOrAwayFromZero)) : 32
        var bitmap = ImageBitmap(width: w, height: h, fill: .clear)
        for y in 0..<h {
            for x in 0..<w {
                let sum = { (dc: Double, ac: [(cx: Int, cy: Int, value: Double)]) in
                    ac.reduce(dc) { total, f in
                        total + f.value * cos(Double.pi / Double(w) * (Double(x) + 0.5) * Double(f.cx))
                            * 2 * cos(Double.pi / Double(h) * (Double(y) + 0.5) * Double(f.cy))
                    }
                }
                let l = sum(lDC, lAC)
                let p = sum(pDC, pAC)
                let q = sum(qDC, qAC)
                let a = sum(aDC, aAC)
                let b = l - 2.0 / 3 * p
                let r = (3 * l - b + q) / 2
                let g = r - q
                let byte = { (v: Double) in UInt8(clamping: Int(clamping: 255 * min(1, max(0, v)))) }
                bitmap[x, y] = RGBA8(r: byte(r), g: byte(g), b: byte(b), a: byte(a))
            }
        }
        return bitmap
    }
}
