import Foundation

/// What the block structure of a GIF says, read without decoding any LZW data.
///
/// Parsing follows one rule for damaged files: a structural error or the end of the data
/// inside a frame drops that frame and everything after it, as long as at least one complete
/// frame came before; otherwise the whole file is bad data.
struct GIFContainer: Sendable {
    /// Logical screen (canvas) size.
    var width: Int
    var height: Int
    /// Byte offset of the global colour table, and its entry count (0 = none).
    var globalPaletteOffset: Int
    var globalPaletteCount: Int
    /// From the NETSCAPE2.0 / ANIMEXTS1.0 extension; 1 when missing, 0 = forever.
    var loopCount: Int
    var frames: [GIFFrameInfo]
    /// Whether frames were dropped because the data ended or broke inside them.
    var isTruncated: Bool

    /// Whether any pixel of the canvas can end up transparent: a frame declares a transparent
    /// index, or a frame does not cover the whole canvas (uncovered pixels stay transparent).
    var hasAlpha: Bool {
        frames.contains { frame in
            frame.transparentIndex >= 0 || frame.x != 0 || frame.y != 0
                || frame.width < width || frame.height < height
        }
    }
}

/// One image descriptor with the graphic control extension before it.
struct GIFFrameInfo: Sendable {
    var x: Int
    var y: Int
    var width: Int
    var height: Int
    var interlaced: Bool
    /// Byte offset of the local colour table and its entry count (0 = use the global table).
    var paletteOffset: Int
    var paletteCount: Int
    var minCodeSize: Int
    /// Offset of the first data sub-block's length byte, and the summed payload length.
    var dataOffset: Int
    var dataLength: Int
    var delayCentiseconds: Int
    /// 0 unspecified, 1 keep, 2 restore to background (transparent), 3 restore to previous.
    var disposal: Int
    /// The transparent palette index, or -1.
    var transparentIndex: Int
    /// Only from partial parsing: the data ends inside this frame's sub-blocks.
    var isCutOff = false

    /// SDWebImage's rule: the delay in seconds, and anything below 0.011 s becomes 0.1 s.
    var duration: Double {
        let seconds = Double(delayCentiseconds) / 100
        return seconds < 0.011 ? 0.1 : seconds
    }
}

/// A parse failure inside the block structure.
private enum GIFParseFailure: Error {
    case truncated
    case malformed(String)
}

/// A bounds-checked cursor over the file's bytes.
private struct GIFByteReader {
    let bytes: UnsafeRawBufferPointer
    var position = 0

    mutating func byte() throws(GIFParseFailure) -> Int {
        guard position < bytes.count else { throw .truncated }
        defer { position += 1 }
        return Int(bytes[position])
    }

    mutating func uint16() throws(GIFParseFailure) -> Int {
        let low = try byte()
        return low | (try byte() << 8)
    }

    mutating func skip(_ count: Int) throws(GIFParseFailure) {
        guard count <= bytes.count - position else { throw .truncated }
        position += count
    }

    /// Skips a chain of data sub-blocks up to its zero terminator; returns the payload length.
    mutating func skipSubBlocks() throws(GIFParseFailure) -> Int {
        var total = 0
        while true {
            let length = try byte()
            if length == 0 { return total }
            try skip(length)
            total += length
        }
    }
}

extension GIFContainer {
    /// Whether `data` starts with a GIF signature.
    static func hasSignature(_ data: Data) -> Bool {
        guard data.count >= 6 else { return false }
        let prefix = [UInt8](data.prefix(6))
        return prefix == Array("GIF87a".utf8) || prefix == Array("GIF89a".utf8)
    }

    /// Parses every block of `data`. Throws ``WebImageError/badImageData(_:underlying:)``.
    static func parse(_ data: Data) throws(WebImageError) -> GIFContainer {
        guard !data.isEmpty else { throw .badImageData("the GIF data is empty") }
        guard hasSignature(data) else { throw .badImageData("the data has no GIF signature") }
        // Only partial parsing returns nil.
        return try data.withUnsafeBytesTyped { bytes throws(WebImageError) in try parse(bytes: bytes, partial: false)! }
    }

    /// Parses data that is still arriving: a frame whose data sub-blocks are cut off is kept
    /// (with the bytes so far) as the last frame. Nil while no frame has started yet.
    static func parsePartial(_ data: Data) throws(WebImageError) -> GIFContainer? {
        guard data.count >= 6 else { return nil }
        guard hasSignature(data) else { throw .badImageData("the data has no GIF signature") }
        return try data.withUnsafeBytesTyped { bytes throws(WebImageError) in try parse(bytes: bytes, partial: true) }
    }

    /// Nil when `partial` and the data ends before any frame started.
    private static func parse(bytes: UnsafeRawBufferPointer, partial: Bool) throws(WebImageError) -> GIFContainer? {
        var reader = GIFByteReader(bytes: bytes, position: 6)
        var container: GIFContainer
        do {
            let width = try reader.uint16()
            let height = try reader.uint16()
            let packed = try reader.byte()
            _ = try reader.byte()  // background colour index: disposal 2 clears to transparent
            _ = try reader.byte()  // pixel aspect ratio
            var paletteCount = 0
            let paletteOffset = reader.position
            if packed & 0x80 != 0 {
                paletteCount = 2 << (packed & 0x07)
                try reader.skip(paletteCount * 3)
            }
            container = GIFContainer(
                width: width, height: height, globalPaletteOffset: paletteOffset,
                globalPaletteCount: paletteCount, loopCount: 1, frames: [], isTruncated: false)
        } catch .truncated {
            if partial { return nil }
            throw .badImageData("the GIF header is truncated")
        } catch {
            throw .badImageData("the GIF header is malformed")
        }
        do {
            try readBlocks(&reader, into: &container, partial: partial)
        } catch {
            guard !container.frames.isEmpty else {
                if partial, case .truncated = error { return nil }
                switch error {
                case .truncated:
                    throw .badImageData("the GIF data ends before its first frame is complete")
                case .malformed(let reason): throw .badImageData(reason)
                }
            }
            container.isTruncated = true
        }
        guard !container.frames.isEmpty else {
            if partial { return nil }
            throw .badImageData("the GIF contains no image")
        }
        return container
    }

    private static func readBlocks(
        _ reader: inout GIFByteReader, into container: inout GIFContainer, partial: Bool
    ) throws(GIFParseFailure) {
        var control = (delay: 0, disposal: 0, transparent: -1)
        while reader.position < reader.bytes.count {
            switch try reader.byte() {
            case 0x3B:  // trailer
                return
            case 0x21:
                let label = try reader.byte()
                if label == 0xF9 {
                    control = try readGraphicControl(&reader)
                } else if label == 0xFF {
                    if let loops = try readApplication(&reader) { container.loopCount = loops }
                } else {
                    _ = try reader.skipSubBlocks()
                }
            case 0x2C:
                var frame = try readImageDescriptor(&reader, partial: partial)
                frame.delayCentiseconds = control.delay
                frame.disposal = control.disposal
                frame.transparentIndex = control.transparent
                if frame.paletteCount == 0 {
                    frame.paletteOffset = container.globalPaletteOffset
                    frame.paletteCount = container.globalPaletteCount
                }
                container.frames.append(frame)
                control = (0, 0, -1)
                if frame.isCutOff { throw .truncated }
            case let other:
                throw .malformed("unknown GIF block introducer 0x\(String(other, radix: 16))")
            }
        }
    }

    private static func readGraphicControl(
        _ reader: inout GIFByteReader
    ) throws(GIFParseFailure) -> (delay: Int, disposal: Int, transparent: Int) {
        let start = reader.position
        let total = try reader.skipSubBlocks()
        guard total >= 4, reader.bytes[start] >= 4 else { return (0, 0, -1) }
        var fields = GIFByteReader(bytes: reader.bytes, position: start + 1)
        let packed = try fields.byte()
        let delay = try fields.uint16()
        let transparent = try fields.byte()
        return (delay, (packed >> 2) & 0x07, packed & 0x01 != 0 ? transparent : -1)
    }

    /// The loop count if this is a NETSCAPE2.0 / ANIMEXTS1.0 block, else nil.
    private static func readApplication(_ reader: inout GIFByteReader) throws(GIFParseFailure) -> Int? {
        let idLength = try reader.byte()
        if idLength == 0 { return nil }
        let idStart = reader.position
        try reader.skip(idLength)
        let identifier = Array(UnsafeRawBufferPointer(rebasing: reader.bytes[idStart..<reader.position]))
        let isLoopBlock = identifier == Array("NETSCAPE2.0".utf8) || identifier == Array("ANIMEXTS1.0".utf8)
        var loops: Int?
        while true {
            let length = try reader.byte()
            if length == 0 { return loops }
            let start = reader.position
            try reader.skip(length)
            if isLoopBlock, length >= 3, reader.bytes[start] == 1 {
                loops = Int(reader.bytes[start + 1]) | Int(reader.bytes[start + 2]) << 8
            }
        }
    }

    private static func readImageDescriptor(
        _ reader: inout GIFByteReader, partial: Bool
    ) throws(GIFParseFailure) -> GIFFrameInfo {
        let x = try reader.uint16()
        let y = try reader.uint16()
        let width = try reader.uint16()
        let height = try reader.uint16()
        let packed = try reader.byte()
        var paletteCount = 0
        let paletteOffset = reader.position
        if packed & 0x80 != 0 {
            paletteCount = 2 << (packed & 0x07)
            try reader.skip(paletteCount * 3)
        }
        let minCodeSize = try reader.byte()
        guard (1...11).contains(minCodeSize) else {
            throw .malformed("invalid LZW minimum code size \(minCodeSize)")
        }
        let dataOffset = reader.position
        var dataLength = 0
        var isCutOff = false
        do {
            dataLength = try reader.skipSubBlocks()
        } catch .truncated where partial {
            isCutOff = true
        }
        return GIFFrameInfo(
            x: x, y: y, width: width, height: height, interlaced: packed & 0x40 != 0,
            paletteOffset: paletteOffset, paletteCount: paletteCount, minCodeSize: minCodeSize,
            dataOffset: dataOffset, dataLength: dataLength, delayCentiseconds: 0, disposal: 0,
            transparentIndex: -1, isCutOff: isCutOff)
    }
}
