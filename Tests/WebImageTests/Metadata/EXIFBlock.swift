import Foundation

/// Builds TIFF-structured EXIF blocks for tests, in either byte order: IFD0 and the Exif, GPS
/// and Interoperability IFDs (each pointed to from its parent when it has entries), then the
/// values longer than four bytes.
struct EXIFBlock {
    /// A value as an entry stores it: its TIFF type code, component count and bytes.
    struct Value {
        var type: Int
        var count: Int
        var bytes: [UInt8]
    }

    var littleEndian = true
    var ifd0: [(tag: Int, value: Value)] = []
    var exif: [(tag: Int, value: Value)] = []
    var gps: [(tag: Int, value: Value)] = []
    var interoperability: [(tag: Int, value: Value)] = []

    func u16(_ value: Int) -> [UInt8] { littleEndian ? le16(value) : be16(value) }
    func u32(_ value: Int) -> [UInt8] { littleEndian ? le32(value) : be32(value) }

    func ascii(_ text: String) -> Value { Value(type: 2, count: text.utf8.count + 1, bytes: Array(text.utf8) + [0]) }
    func byte(_ values: [UInt8]) -> Value { Value(type: 1, count: values.count, bytes: values) }
    func short(_ values: Int...) -> Value { Value(type: 3, count: values.count, bytes: values.flatMap(u16)) }
    func long(_ values: Int...) -> Value { Value(type: 4, count: values.count, bytes: values.flatMap(u32)) }
    func rational(_ values: (Int, Int)...) -> Value {
        Value(type: 5, count: values.count, bytes: values.flatMap { u32($0.0) + u32($0.1) })
    }
    func signedRational(_ values: (Int, Int)...) -> Value {
        Value(type: 10, count: values.count, bytes: values.flatMap { u32($0.0) + u32($0.1) })
    }
    func undefined(_ bytes: [UInt8]) -> Value { Value(type: 7, count: bytes.count, bytes: bytes) }

    /// The offset of IFD0's entry `index` (its 12 bytes) in ``data``, for tests that corrupt it.
    static func entryOffset(_ index: Int) -> Int { 8 + 2 + 12 * index }

    var data: Data {
        // Pointers go last in their IFD; an IFD is written only when it has entries.
        var directories = [ifd0, exif, gps, interoperability]
        let pointers = [(0, 0x8769, 1), (0, 0x8825, 2), (1, 0xA005, 3)]  // parent, tag, child
        for (parent, tag, child) in pointers where !directories[child].isEmpty {
            directories[parent].append((tag, long(0)))  // patched below
        }
        var offsets: [Int] = []
        var position = 8
        for directory in directories {
            offsets.append(directory.isEmpty ? 0 : position)
            if !directory.isEmpty { position += 2 + 12 * directory.count + 4 }
        }
        var values: [UInt8] = []
        var out: [UInt8] = (littleEndian ? [0x49, 0x49] : [0x4D, 0x4D]) + u16(42) + u32(8)
        for (index, directory) in directories.enumerated() where !directory.isEmpty {
            out += u16(directory.count)
            for (tag, value) in directory {
                var value = value
                if let pointer = pointers.first(where: { $0.0 == index && $0.1 == tag }) {
                    value = long(offsets[pointer.2])
                }
                out += u16(tag) + u16(value.type) + u32(value.count)
                if value.bytes.count <= 4 {
                    out += value.bytes + [UInt8](repeating: 0, count: 4 - value.bytes.count)
                } else {
                    out += u32(position + values.count)
                    values += value.bytes
                    if values.count % 2 == 1 { values.append(0) }
                }
            }
            out += u32(0)  // no next IFD
        }
        return Data(out + values)
    }
}
