import Foundation

extension VirtualTerminal {
    /// One kitty graphics command: `G`, comma-separated keys, `;`, payload.
    mutating func kittyCommand(_ body: [UInt8]) {
        guard body.first == UInt8(ascii: "G") else {
            unknownSequences.append("APC \(String(decoding: body.prefix(16), as: UTF8.self))")
            return
        }
        let text = String(decoding: body.dropFirst(), as: UTF8.self)
        let parts = text.split(separator: ";", maxSplits: 1, omittingEmptySubsequences: false)
        var keys = [String: String]()
        for pair in parts[0].split(separator: ",") {
            let keyValue = pair.split(separator: "=", maxSplits: 1)
            keys[String(keyValue[0])] = keyValue.count > 1 ? String(keyValue[1]) : ""
        }
        let payload = parts.count > 1 ? Array(parts[1].utf8) : []
        if keys["a"] == "d" {
            if let id = keys["i"].flatMap({ UInt32($0) }) { liveKittyImageIDs.remove(id) }
            return
        }
        if var transmission = pendingKitty {
            transmission.payload += payload
            transmission.sizes.append(payload.count)
            pendingKitty = transmission
        } else {
            pendingKitty = (keys, payload, [payload.count], cursor)
        }
        guard keys["m"] != "1", let transmission = pendingKitty else { return }
        pendingKitty = nil
        let decoded = Data(base64Encoded: Data(transmission.payload)).map { [UInt8]($0) } ?? []
        let image = KittyImage(
            keys: transmission.keys, chunkCount: transmission.sizes.count, chunkPayloadSizes: transmission.sizes,
            width: Int(transmission.keys["s"] ?? "") ?? 0, height: Int(transmission.keys["v"] ?? "") ?? 0,
            pixels: decoded, position: transmission.position)
        kittyImages.append(image)
        if let id = image.id { liveKittyImageIDs.insert(id) }
    }

    /// One sixel DCS body: parameters, `q`, then the sixel data.
    mutating func sixel(_ body: [UInt8]) {
        guard let q = body.firstIndex(of: UInt8(ascii: "q")) else {
            unknownSequences.append("DCS \(String(decoding: body.prefix(16), as: UTF8.self))")
            return
        }
        var image = SixelImage(
            introducer: String(decoding: body[..<q], as: UTF8.self), width: 0, height: 0, definedColorCount: 0,
            pixels: [], position: cursor)
        var palette = [Int: (UInt8, UInt8, UInt8)]()
        var color = (UInt8(0), UInt8(0), UInt8(0))
        var x = 0
        var bandTop = 0
        var i = body.index(after: q)

        func numbers() -> [Int] {
            var values = [Int]()
            var current = 0
            var any = false
            while i < body.count {
                let byte = body[i]
                if byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") {
                    current = current * 10 + Int(byte - UInt8(ascii: "0"))
                    any = true
                } else if byte == UInt8(ascii: ";") {
                    values.append(current)
                    current = 0
                } else {
                    break
                }
                i += 1
            }
            if any || !values.isEmpty { values.append(current) }
            return values
        }

        func draw(_ character: UInt8, times: Int) {
            let bits = Int(character) - Int(UInt8(ascii: "?"))
            for _ in 0..<times {
                for bit in 0..<6 where bits & (1 << bit) != 0 {
                    let y = bandTop + bit
                    guard x < image.width && y < image.height else {
                        unknownSequences.append("sixel pixel outside the raster at \(x),\(y)")
                        continue
                    }
                    let p = (y * image.width + x) * 4
                    image.pixels[p] = color.0
                    image.pixels[p + 1] = color.1
                    image.pixels[p + 2] = color.2
                    image.pixels[p + 3] = 255
                }
                x += 1
            }
        }

        while i < body.count {
            let byte = body[i]
            i += 1
            switch byte {
            case UInt8(ascii: "\""):
                let raster = numbers()
                if raster.count == 4 {
                    image.width = raster[2]
                    image.height = raster[3]
                    image.pixels = [UInt8](repeating: 0, count: raster[2] * raster[3] * 4)
                }
            case UInt8(ascii: "#"):
                let values = numbers()
                if values.count == 5 && values[1] == 2 {
                    func channel(_ percent: Int) -> UInt8 { UInt8((percent * 255 + 50) / 100) }
                    palette[values[0]] = (channel(values[2]), channel(values[3]), channel(values[4]))
                    image.definedColorCount = palette.count
                } else if values.count == 1 {
                    color = palette[values[0]] ?? (0, 0, 0)
                }
            case UInt8(ascii: "!"):
                let count = numbers().first ?? 1
                if i < body.count {
                    draw(body[i], times: count)
                    i += 1
                }
            case UInt8(ascii: "$"): x = 0
            case UInt8(ascii: "-"):
                x = 0
                bandTop += 6
            case UInt8(ascii: "?")...UInt8(ascii: "~"): draw(byte, times: 1)
            default: unknownSequences.append("sixel byte \(byte)")
            }
        }
        sixelImages.append(image)
    }
}
