import Foundation

/// Photoshop image resources ("8BIM" blocks), the container JPEG's APP13 segment and TIFF's tag
/// 34377 use for IPTC-IIM (resource 0x0404) and for the print resolution (resource 0x03ED).
///
/// Each block is `8BIM`, a 16-bit resource ID, a Pascal-string name padded to an even length, a
/// 32-bit size and the data, padded to an even length. A block whose size runs past the data
/// ends the list; bytes that do not start a block are skipped one at a time (some writers leave
/// out the padding), so any bytes are safe to pass.
enum PhotoshopResources {
    /// What starts an APP13 segment that holds resources.
    static let jpegSignature = Array("Photoshop 3.0\0".utf8)
    static let iptcID = 0x0404
    static let resolutionID = 0x03ED
    private static let blockSignature = Array("8BIM".utf8)

    /// The resources of `bytes` in order, as their ID and where their data lies.
    static func blocks(in bytes: [UInt8]) -> [(id: Int, data: Range<Int>)] {
        var blocks: [(id: Int, data: Range<Int>)] = []
        var index = 0
        // The smallest block: signature, ID, an empty name (two bytes with its padding), size.
        while index <= bytes.count - 12 {
            guard bytes[index..<(index + 4)].elementsEqual(blockSignature) else {
                index += 1
                continue
            }
            let id = Int(bytes[index + 4]) << 8 | Int(bytes[index + 5])
            let nameLength = 1 + Int(bytes[index + 6])
            let sizeAt = index + 6 + nameLength + nameLength % 2
            guard sizeAt <= bytes.count - 4 else { break }
            let size = bytes[sizeAt..<(sizeAt + 4)].reduce(0) { $0 << 8 | Int($1) }
            let start = sizeAt + 4
            guard size <= bytes.count - start else { break }
            blocks.append((id, start..<(start + size)))
            index = start + size + size % 2
        }
        return blocks
    }

    /// The `photoshop.resolution` fields imgproxy's `/info` reports, from a ResolutionInfo
    /// resource: `XResolution` and `YResolution` (pixels per unit, a 16.16 fixed-point number),
    /// the unit they are in (`XResolutionUnit`, `YResolutionUnit`: "inches" or "cm") and the unit
    /// Photoshop shows the width and height in (`WidthUnit`, `HeightUnit`: "inches", "cm",
    /// "points", "picas" or "columns"). A unit code outside those stays a number. Nil when the
    /// resource is shorter than its 16 bytes.
    static func resolution(_ data: ArraySlice<UInt8>) -> [String: MetadataValue]? {
        guard data.count >= 16 else { return nil }
        func field(_ offset: Int, _ width: Int) -> Int {
            data[(data.startIndex + offset)..<(data.startIndex + offset + width)].reduce(0) { $0 << 8 | Int($1) }
        }
        let resolutionUnits = [1: "inches", 2: "cm"]
        let sizeUnits = [1: "inches", 2: "cm", 3: "points", 4: "picas", 5: "columns"]
        func named(_ code: Int, _ names: [Int: String]) -> MetadataValue {
            names[code].map(MetadataValue.text) ?? .integer(code)
        }
        func fixed(_ raw: Int) -> MetadataValue {
            raw % 65_536 == 0 ? .integer(raw / 65_536) : .number(Double(raw) / 65_536)
        }
        return [
            "XResolution": fixed(field(0, 4)), "XResolutionUnit": named(field(4, 2), resolutionUnits),
            "WidthUnit": named(field(6, 2), sizeUnits),
            "YResolution": fixed(field(8, 4)), "YResolutionUnit": named(field(12, 2), resolutionUnits),
            "HeightUnit": named(field(14, 2), sizeUnits),
        ]
    }
}
