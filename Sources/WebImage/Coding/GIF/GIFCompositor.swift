import Foundation

/// Renders a GIF's frames one after another onto a full RGBA canvas.
///
/// The canvas starts transparent. Disposal follows browsers and ImageIO: 0 and 1 keep the
/// frame, 2 clears its rectangle to transparent (the background colour index is ignored),
/// 3 restores what the rectangle held before the frame; values 4–7 act as 1. Frame rectangles
/// are clipped to the canvas. A transparent index, or an index past the colour table (or any
/// index when there is no colour table), leaves the canvas pixel as it was.
struct GIFCompositor {
    let container: GIFContainer
    let maxPixelCount: Int
    /// RGBA bytes of the canvas after the last rendered frame.
    private(set) var canvas: [UInt8]
    /// The index of the last rendered frame, or -1.
    private(set) var renderedIndex = -1
    private var saved: [UInt8] = []
    private var indices: [UInt8] = []
    private var codeStream: [UInt8] = []
    private let lzw = GIFLZWDecoder()

    init(container: GIFContainer, maxPixelCount: Int) {
        self.container = container
        self.maxPixelCount = maxPixelCount
        canvas = [UInt8](repeating: 0, count: container.width * container.height * 4)
    }

    /// Bytes held between frames: canvas, saved rectangle and scratch buffers.
    var heldByteCount: Int { canvas.count + saved.count + indices.count + codeStream.count }

    /// The canvas as a bitmap (sharing storage until the next frame is rendered).
    var bitmap: ImageBitmap {
        // The canvas size was checked positive before the compositor was made.
        try! ImageBitmap(width: container.width, height: container.height, pixels: canvas)
    }

    /// Starts over at a transparent canvas.
    mutating func reset() {
        canvas.withUnsafeMutableBufferPointer { $0.update(repeating: 0) }
        saved = []
        renderedIndex = -1
    }

    /// Renders frame `renderedIndex + 1` from `data`, applying the previous frame's disposal.
    mutating func renderNext(from data: Data) throws(WebImageError) {
        let index = renderedIndex + 1
        precondition(index < container.frames.count, "no frame left to render")
        if index > 0 { dispose(container.frames[index - 1]) }
        let frame = container.frames[index]
        let clip = clippedRect(frame)
        if frame.disposal == 3 { save(clip) }
        if clip.width > 0 && clip.height > 0 {
            try data.withUnsafeBytesTyped { bytes throws(WebImageError) in try draw(frame, clip: clip, bytes: bytes) }
        }
        renderedIndex = index
    }

    private func clippedRect(_ frame: GIFFrameInfo) -> (x: Int, y: Int, width: Int, height: Int) {
        let width = max(0, min(frame.width, container.width - frame.x))
        let height = max(0, min(frame.height, container.height - frame.y))
        return (frame.x, frame.y, width, height)
    }

    private mutating func save(_ rect: (x: Int, y: Int, width: Int, height: Int)) {
        saved.removeAll(keepingCapacity: true)
        guard rect.width > 0, rect.height > 0 else { return }
        let rowBytes = rect.width * 4
        for row in 0..<rect.height {
            let start = ((rect.y + row) * container.width + rect.x) * 4
            saved.append(contentsOf: canvas[start..<(start + rowBytes)])
        }
    }

    private mutating func dispose(_ frame: GIFFrameInfo) {
        let rect = clippedRect(frame)
        guard rect.width > 0, rect.height > 0 else { return }
        let rowBytes = rect.width * 4
        let canvasWidth = container.width
        switch frame.disposal {
        case 2:
            canvas.withUnsafeMutableBufferPointer { pixels in
                for row in 0..<rect.height {
                    let start = ((rect.y + row) * canvasWidth + rect.x) * 4
                    pixels[start..<(start + rowBytes)].update(repeating: 0)
                }
            }
        case 3 where saved.count == rowBytes * rect.height:
            for row in 0..<rect.height {
                let start = ((rect.y + row) * canvasWidth + rect.x) * 4
                canvas.replaceSubrange(
                    start..<(start + rowBytes), with: saved[(row * rowBytes)..<((row + 1) * rowBytes)])
            }
        default:
            break
        }
    }

    /// The frame's colour table as RGBA words (native order gives bytes R, G, B, A); entries
    /// that must not be drawn are 0.
    private func palette(for frame: GIFFrameInfo, bytes: UnsafeRawBufferPointer) -> [UInt32] {
        var table = [UInt32](repeating: 0, count: 256)
        let count = min(frame.paletteCount, 256)
        guard count > 0, frame.paletteOffset + count * 3 <= bytes.count else { return table }
        for i in 0..<count {
            let base = frame.paletteOffset + i * 3
            let rgba =
                UInt32(bytes[base]) | UInt32(bytes[base + 1]) << 8 | UInt32(bytes[base + 2]) << 16
                | 0xFF00_0000
            table[i] = UInt32(littleEndian: rgba)
        }
        if frame.transparentIndex >= 0 && frame.transparentIndex < 256 { table[frame.transparentIndex] = 0 }
        return table
    }

    private mutating func draw(
        _ frame: GIFFrameInfo, clip: (x: Int, y: Int, width: Int, height: Int), bytes: UnsafeRawBufferPointer
    ) throws(WebImageError) {
        // Only the rows that reach the canvas are decoded, except for interlaced frames whose
        // rows arrive out of order.
        let rows = frame.interlaced ? frame.height : clip.height
        let (pixelCount, overflow) = rows.multipliedReportingOverflow(by: frame.width)
        if overflow || pixelCount > maxPixelCount {
            throw .imageTooLarge(width: frame.width, height: frame.height, limit: maxPixelCount)
        }
        gatherCodeStream(frame, bytes: bytes)
        if indices.count < pixelCount { indices = [UInt8](repeating: 0, count: pixelCount) }
        let lzw = self.lzw
        let decoded = codeStream.withUnsafeBytes { input in
            indices.withUnsafeMutableBufferPointer { output in
                lzw.decode(
                    input, minCodeSize: frame.minCodeSize,
                    into: UnsafeMutableBufferPointer(rebasing: output[0..<pixelCount]))
            }
        }
        let colors = palette(for: frame, bytes: bytes)
        let canvasWidth = container.width
        let frameWidth = frame.width
        canvas.withUnsafeMutableBytes { raw in
            let pixels = raw.bindMemory(to: UInt32.self)
            indices.withUnsafeBufferPointer { source in
                colors.withUnsafeBufferPointer { table in
                    for streamRow in 0..<rows {
                        let rowStart = streamRow * frameWidth
                        if rowStart >= decoded { break }
                        let row = frame.interlaced ? Self.interlacedRow(streamRow, height: frame.height) : streamRow
                        guard row < clip.height else { continue }
                        let available = min(clip.width, decoded - rowStart)
                        let target = (clip.y + row) * canvasWidth + clip.x
                        for column in 0..<available {
                            let color = table[Int(source[rowStart + column])]
                            if color != 0 { pixels[target + column] = color }
                        }
                    }
                }
            }
        }
    }

    /// Copies the frame's data sub-blocks into one contiguous code stream.
    private mutating func gatherCodeStream(_ frame: GIFFrameInfo, bytes: UnsafeRawBufferPointer) {
        codeStream.removeAll(keepingCapacity: true)
        codeStream.reserveCapacity(frame.dataLength)
        var position = frame.dataOffset
        // The parser validated the chain, except for a frame cut off in data still arriving,
        // whose last sub-block may be incomplete: the bytes present are used.
        while position < bytes.count {
            let length = min(Int(bytes[position]), bytes.count - position - 1)
            position += 1
            if length == 0 { break }
            codeStream.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[position..<(position + length)]))
            position += length
        }
    }

    /// The image row of the `streamRow`-th row of an interlaced frame (passes of 8, 8, 4, 2).
    static func interlacedRow(_ streamRow: Int, height: Int) -> Int {
        let pass1 = (height + 7) / 8
        if streamRow < pass1 { return streamRow * 8 }
        let pass2 = (height + 3) / 8
        if streamRow < pass1 + pass2 { return (streamRow - pass1) * 8 + 4 }
        let pass3 = (height + 1) / 4
        if streamRow < pass1 + pass2 + pass3 { return (streamRow - pass1 - pass2) * 4 + 2 }
        return (streamRow - pass1 - pass2 - pass3) * 2 + 1
    }
}
