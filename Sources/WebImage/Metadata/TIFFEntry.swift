import Foundation

/// The value types a TIFF (and so EXIF) entry can hold, by their type code, with the size of one
/// component.
enum TIFFFieldType: Int {
    case byte = 1
    case ascii = 2
    case short = 3
    case long = 4
    case rational = 5
    case signedByte = 6
    case undefined = 7
    case signedShort = 8
    case signedLong = 9
    case signedRational = 10
    case float = 11
    case double = 12
    /// TIFF's IFD type: an offset, read like a LONG.
    case ifd = 13

    var componentSize: Int {
        switch self {
        case .byte, .ascii, .signedByte, .undefined: 1
        case .short, .signedShort: 2
        case .long, .signedLong, .float, .ifd: 4
        case .rational, .signedRational, .double: 8
        }
    }
}

/// One 12-byte IFD entry whose value lies inside the data: its tag, type, component count and
/// where its bytes are (in the entry itself when they fit in four bytes, else at its offset).
struct TIFFEntry {
    var tag: Int
    var type: TIFFFieldType
    var count: Int
    var valueRange: Range<Int>
}

extension TIFFReader {
    /// The entries of the IFD at `ifd`, in file order. An entry of an unknown type, or whose value
    /// would run past the data (a count of 0xFFFFFFFF, an offset out of range), is left out; the
    /// list ends where the data does.
    func entries(inIFDAt ifd: Int) -> [TIFFEntry] {
        guard let count = u16(ifd) else { return [] }
        var entries: [TIFFEntry] = []
        for index in 0..<count {
            let position = ifd + 2 + index * 12
            guard let tag = u16(position), let code = u16(position + 2), let components = u32(position + 4),
                u32(position + 8) != nil
            else { break }
            guard let type = TIFFFieldType(rawValue: code), let range = valueRange(of: type, components, at: position)
            else { continue }
            entries.append(TIFFEntry(tag: tag, type: type, count: components, valueRange: range))
        }
        return entries
    }

    /// Where `count` components of `type` lie for the entry at `entry`, or nil when they do not
    /// fit in the data.
    private func valueRange(of type: TIFFFieldType, _ count: Int, at entry: Int) -> Range<Int>? {
        let (total, overflow) = count.multipliedReportingOverflow(by: type.componentSize)
        guard !overflow, total <= bytes.count else { return nil }
        if total <= 4 { return (entry + 8)..<(entry + 8 + total) }
        guard let offset = u32(entry + 8), offset <= bytes.count - total else { return nil }
        return offset..<(offset + total)
    }

    /// The components of an integer entry (BYTE, SHORT, LONG, their signed kinds, IFD), signed
    /// kinds sign-extended; nil for other types.
    func integers(of entry: TIFFEntry) -> [Int]? {
        let start = entry.valueRange.lowerBound
        let size = entry.type.componentSize
        let read: (Int) -> Int?
        switch entry.type {
        case .byte, .undefined: read = { Int(bytes[$0]) }
        case .signedByte: read = { Int(Int8(bitPattern: bytes[$0])) }
        case .short: read = u16
        case .signedShort: read = { u16($0).map { Int(Int16(truncatingIfNeeded: $0)) } }
        case .long, .ifd: read = u32
        case .signedLong: read = { u32($0).map { Int(Int32(truncatingIfNeeded: $0)) } }
        default: return nil
        }
        return (0..<entry.count).compactMap { read(start + $0 * size) }
    }

    /// The numerator and denominator of each component of a RATIONAL or SRATIONAL entry.
    func rationals(of entry: TIFFEntry) -> [(numerator: Int, denominator: Int)]? {
        let signed: Bool
        switch entry.type {
        case .rational: signed = false
        case .signedRational: signed = true
        default: return nil
        }
        func component(_ offset: Int) -> Int? {
            guard let value = u32(offset) else { return nil }
            return signed ? Int(Int32(truncatingIfNeeded: value)) : value
        }
        let start = entry.valueRange.lowerBound
        return (0..<entry.count).compactMap { index in
            guard let numerator = component(start + index * 8), let denominator = component(start + index * 8 + 4)
            else { return nil }
            return (numerator, denominator)
        }
    }

    /// The components of a FLOAT or DOUBLE entry.
    func reals(of entry: TIFFEntry) -> [Double]? {
        let start = entry.valueRange.lowerBound
        switch entry.type {
        case .float:
            return (0..<entry.count).compactMap { index in
                u32(start + index * 4).map { Double(Float(bitPattern: UInt32(truncatingIfNeeded: $0))) }
            }
        case .double:
            return (0..<entry.count).compactMap { index in
                guard let first = u32(start + index * 8), let second = u32(start + index * 8 + 4) else { return nil }
                let bits = littleEndian ? UInt64(second) << 32 | UInt64(first) : UInt64(first) << 32 | UInt64(second)
                return Double(bitPattern: bits)
            }
        default:
            return nil
        }
    }

    /// The value's bytes as stored.
    func rawBytes(of entry: TIFFEntry) -> [UInt8] { Array(bytes[entry.valueRange]) }
}
