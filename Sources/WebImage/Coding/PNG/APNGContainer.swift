import Foundation

/// What one `fcTL` chunk says about an APNG frame, and where its compressed data lies.
struct APNGFrameInfo: Equatable {
    enum Disposal: UInt8 {
        /// Leave the canvas as the frame left it.
        case none = 0
        /// Clear the frame's region to transparent black.
        case background = 1
        /// Restore the frame's region to what it was before the frame.
        case previous = 2
    }

    var x: Int
    var y: Int
    var width: Int
    var height: Int
    /// Seconds, after SDWebImage's rule (see ``GIFContainer``): below 0.011 s becomes 0.1 s.
    var duration: Double
    var disposal: Disposal
    /// Alpha-composite onto the canvas (`APNG_BLEND_OP_OVER`) rather than replace the region.
    var blendsOver: Bool
    /// The zlib stream's pieces: IDAT data, or `fdAT` data after its sequence number.
    var dataRanges: [Range<Int>]
}

/// The animation chunks of an APNG (`acTL`, `fcTL`, `fdAT`), read with bounds checks and no
/// trust in the declared frame count: frames are the `fcTL` chunks actually present, and never
/// more than `acTL` declares.
struct APNGContainer {
    /// The IHDR chunk's 13 data bytes (the canvas).
    var header: [UInt8]
    var canvasWidth: Int
    var canvasHeight: Int
    /// PLTE and tRNS, whole (length, type, data, CRC): each frame's pixels need them.
    var sharedChunks: [UInt8]
    /// 0 means forever.
    var loopCount: Int
    var frames: [APNGFrameInfo]

    /// The container of `bytes`, or nil for a still PNG (no `acTL` before the image data, or
    /// no frame), which decodes as before. Throws for frames that do not fit the canvas.
    static func parse(_ bytes: UnsafeRawBufferPointer) throws(WebImageError) -> APNGContainer? {
        guard bytes.count >= 8, bytes.prefix(8).elementsEqual(PNGChunkScan.signature) else { return nil }
        var header: [UInt8]?
        var shared: [UInt8] = []
        var declared: (frames: Int, plays: Int)?
        var frames: [APNGFrameInfo] = []
        var sawImageData = false
        var defaultImageIsFrame = false
        var offset = 8
        while bytes.count - offset >= 12 {
            let length = Int(read32(bytes, offset))
            let type = String(decoding: bytes[(offset + 4)..<(offset + 8)], as: UTF8.self)
            let start = offset + 8
            guard length <= bytes.count - start - 4 else { break }  // cut short: stop here
            let data = start..<(start + length)
            switch type {
            case "IHDR" where length == 13 && offset == 8: header = Array(bytes[data])  // libpng reads only the first
            case "PLTE", "tRNS": shared += bytes[offset..<(data.upperBound + 4)]
            case "acTL" where length == 8 && !sawImageData:
                declared = (Int(read32(bytes, start)), Int(read32(bytes, start + 4)))
            case "fcTL" where length == 26 && declared != nil:
                frames.append(try frameControl(bytes, start, frameNumber: frames.count))
            case "IDAT":
                // The default image is the first frame only when an fcTL came before it.
                if !sawImageData { defaultImageIsFrame = !frames.isEmpty }
                if defaultImageIsFrame { frames[0].dataRanges.append(data) }
                sawImageData = true
            case "fdAT" where length > 4 && !frames.isEmpty:
                frames[frames.count - 1].dataRanges.append((start + 4)..<data.upperBound)
            default: break
            }
            if type == "IEND" { break }
            offset = data.upperBound + 4
        }
        guard let header, let declared, declared.frames > 0 else { return nil }
        frames = Array(frames.prefix(declared.frames).filter { !$0.dataRanges.isEmpty })
        guard !frames.isEmpty else { return nil }
        let width = Int(read32(header, 0))
        let height = Int(read32(header, 4))
        for (index, frame) in frames.enumerated()
        where frame.x + frame.width > width || frame.y + frame.height > height {
            throw .badImageData(
                "APNG: frame \(index) (\(frame.width)x\(frame.height) at \(frame.x),\(frame.y)) lies outside the \(width)x\(height) canvas"
            )
        }
        return APNGContainer(
            header: header, canvasWidth: width, canvasHeight: height, sharedChunks: shared,
            loopCount: declared.plays, frames: frames)
    }

    private static func frameControl(_ bytes: UnsafeRawBufferPointer, _ start: Int, frameNumber: Int)
        throws(WebImageError) -> APNGFrameInfo
    {
        let width = Int(read32(bytes, start + 4))
        let height = Int(read32(bytes, start + 8))
        let x = Int(read32(bytes, start + 12))
        let y = Int(read32(bytes, start + 16))
        guard width > 0, height > 0, width <= Int32.max, height <= Int32.max, x <= Int32.max, y <= Int32.max else {
            throw .badImageData("APNG: frame \(frameNumber) claims a size of \(width)x\(height) at \(x),\(y)")
        }
        let numerator = Double(Int(bytes[start + 20]) << 8 | Int(bytes[start + 21]))
        let denominator = Double(Int(bytes[start + 22]) << 8 | Int(bytes[start + 23]))
        let seconds = numerator / (denominator == 0 ? 100 : denominator)
        return APNGFrameInfo(
            x: x, y: y, width: width, height: height, duration: seconds < 0.011 ? 0.1 : seconds,
            disposal: APNGFrameInfo.Disposal(rawValue: bytes[start + 24]) ?? .none, blendsOver: bytes[start + 25] == 1,
            dataRanges: [])
    }

    private static func read32(_ bytes: UnsafeRawBufferPointer, _ offset: Int) -> UInt32 {
        UInt32(bytes[offset]) << 24 | UInt32(bytes[offset + 1]) << 16 | UInt32(bytes[offset + 2]) << 8
            | UInt32(bytes[offset + 3])
    }

    private static func read32(_ bytes: [UInt8], _ offset: Int) -> UInt32 {
        bytes.withUnsafeBytes { read32($0, offset) }
    }
}
