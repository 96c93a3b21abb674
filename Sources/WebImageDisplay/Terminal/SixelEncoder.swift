import WebImage

/// DEC sixel graphics: `ESC P 0;1;0 q`, raster attributes `"1;1;<width>;<height>`, the colour
/// registers `#n;2;r;g;b` (percentages), then six-pixel bands, `ESC \`.
///
/// The palette has at most 256 colours: the image's own colours when it has no more than that,
/// else the colours of a fixed 6×7×6 cube (252 registers; green gets the extra level because
/// the eye is most sensitive to it) that the pixels are rounded into. Only registers a pixel
/// uses are defined. Within a band, each colour is one pass over the columns (`#n`, then a
/// character `?` + six bits per column up to the colour's last pixel in the band, runs of four
/// or more as `!count`), passes are separated by `$` (back to the band's start) and bands by
/// `-`. Parameter 2 of the introducer is 1, so pixels no pass sets (the transparent ones) keep
/// whatever was behind them.
enum SixelEncoder {
    static let greenLevels = 7
    static let redBlueLevels = 6

    static func encode(_ pixels: [UInt8], size: PixelSize, into bytes: inout [UInt8]) {
        let (indices, palette) = quantize(pixels)
        bytes.append(contentsOf: "\u{1B}P0;1;0q\"1;1;\(size.width);\(size.height)".utf8)
        for (register, color) in palette.enumerated() {
            bytes.append(UInt8(ascii: "#"))
            bytes.appendDecimal(register)
            bytes.append(contentsOf: ";2;".utf8)
            bytes.appendDecimal(percent(UInt8(color >> 16)))
            bytes.append(UInt8(ascii: ";"))
            bytes.appendDecimal(percent(UInt8(color >> 8 & 0xFF)))
            bytes.append(UInt8(ascii: ";"))
            bytes.appendDecimal(percent(UInt8(color & 0xFF)))
        }
        var masks = [UInt8](repeating: 0, count: palette.count * size.width)
        var slot = [Int](repeating: -1, count: max(palette.count, 1))  // register → row in masks
        var used = [Int]()  // registers in this band, in order of first use
        var lastColumn = [Int](repeating: 0, count: max(palette.count, 1))  // per row in masks
        let width = size.width
        indices.withUnsafeBufferPointer { indices in
            masks.withUnsafeMutableBufferPointer { masks in
                for top in stride(from: 0, to: size.height, by: 6) {
                    used.removeAll(keepingCapacity: true)
                    for y in top..<min(top + 6, size.height) {
                        let bit = UInt8(1) << (y - top)
                        let rowStart = y * width
                        for x in 0..<width {
                            let register = Int(indices[rowStart + x])
                            guard register >= 0 else { continue }
                            var row = slot[register]
                            if row < 0 {
                                row = used.count
                                slot[register] = row
                                used.append(register)
                                lastColumn[row] = 0
                            }
                            masks[row * width + x] |= bit
                            if x > lastColumn[row] { lastColumn[row] = x }
                        }
                    }
                    for (pass, register) in used.enumerated() {
                        if pass > 0 { bytes.append(UInt8(ascii: "$")) }
                        bytes.append(UInt8(ascii: "#"))
                        bytes.appendDecimal(register)
                        let row = UnsafeMutableBufferPointer(
                            rebasing: masks[(pass * width)..<(pass * width + lastColumn[pass] + 1)])
                        appendRuns(UnsafeBufferPointer(row), into: &bytes)
                        row.update(repeating: 0)
                        slot[register] = -1
                    }
                    if top + 6 < size.height { bytes.append(UInt8(ascii: "-")) }
                }
            }
        }
        bytes.append(contentsOf: [0x1B, UInt8(ascii: "\\")])
    }

    /// One pass's sixel characters, run-length coded.
    private static func appendRuns(_ masks: UnsafeBufferPointer<UInt8>, into bytes: inout [UInt8]) {
        var x = 0
        while x < masks.count {
            let mask = masks[x]
            var run = 1
            while x + run < masks.count && masks[x + run] == mask { run += 1 }
            let character = UInt8(ascii: "?") + mask
            if run >= 4 {
                bytes.append(UInt8(ascii: "!"))
                bytes.appendDecimal(run)
                bytes.append(character)
            } else {
                for _ in 0..<run { bytes.append(character) }
            }
            x += run
        }
    }

    /// Each pixel's register (-1 for a pixel less than half opaque) and the registers' colours
    /// as `0xRRGGBB`.
    static func quantize(_ pixels: [UInt8]) -> (indices: [Int16], palette: [UInt32]) {
        pixels.withUnsafeBufferPointer { pixels in
            let count = pixels.count / 4
            var indices = [Int16](repeating: -1, count: count)
            var palette = [UInt32]()
            indices.withUnsafeMutableBufferPointer { indices in
                if !exactColors(pixels, indices: indices, palette: &palette) {
                    cubeColors(pixels, indices: indices, palette: &palette)
                }
            }
            return (indices, palette)
        }
    }

    /// The image's own colours, if there are no more than 256; false (and a partial palette) if not.
    private static func exactColors(
        _ pixels: UnsafeBufferPointer<UInt8>, indices: UnsafeMutableBufferPointer<Int16>, palette: inout [UInt32]
    ) -> Bool {
        var registers = [UInt32: Int16]()
        for i in 0..<indices.count where pixels[i * 4 + 3] >= 128 {
            let color = UInt32(pixels[i * 4]) << 16 | UInt32(pixels[i * 4 + 1]) << 8 | UInt32(pixels[i * 4 + 2])
            if let register = registers[color] {
                indices[i] = register
            } else if palette.count < 256 {
                registers[color] = Int16(palette.count)
                indices[i] = Int16(palette.count)
                palette.append(color)
            } else {
                return false
            }
        }
        return true
    }

    /// Rounds every pixel into the colour cube, defining only the registers in use.
    private static func cubeColors(
        _ pixels: UnsafeBufferPointer<UInt8>, indices: UnsafeMutableBufferPointer<Int16>, palette: inout [UInt32]
    ) {
        var register = [Int16](repeating: -1, count: redBlueLevels * greenLevels * redBlueLevels)
        palette.removeAll()
        for i in 0..<indices.count {
            guard pixels[i * 4 + 3] >= 128 else {
                indices[i] = -1
                continue
            }
            let r = level(pixels[i * 4], of: redBlueLevels)
            let g = level(pixels[i * 4 + 1], of: greenLevels)
            let b = level(pixels[i * 4 + 2], of: redBlueLevels)
            let cube = (r * greenLevels + g) * redBlueLevels + b
            if register[cube] < 0 {
                register[cube] = Int16(palette.count)
                palette.append(
                    UInt32(value(r, of: redBlueLevels)) << 16 | UInt32(value(g, of: greenLevels)) << 8
                        | UInt32(value(b, of: redBlueLevels)))
            }
            indices[i] = register[cube]
        }
    }

    /// The nearest of `levels` evenly spaced levels to `channel`.
    @inline(__always)
    private static func level(_ channel: UInt8, of levels: Int) -> Int {
        (Int(channel) * (levels - 1) + 127) / 255
    }

    private static func value(_ level: Int, of levels: Int) -> UInt8 {
        UInt8((level * 255 + (levels - 1) / 2) / (levels - 1))
    }

    /// A channel as the 0...100 percentage sixel colour registers take.
    static func percent(_ channel: UInt8) -> Int { (Int(channel) * 100 + 127) / 255 }
}
