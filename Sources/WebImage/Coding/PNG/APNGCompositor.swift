import Foundation

/// Renders an APNG's frames one after another onto a full RGBA canvas, as the APNG
/// specification says: the canvas starts transparent black; a frame replaces its region
/// (`APNG_BLEND_OP_SOURCE`) or is alpha-composited over it (`OVER`, straight alpha); then its
/// disposal clears the region, restores what it held before, or leaves it. A first frame that
/// asks to restore the previous contents clears instead.
struct APNGCompositor {
    let container: APNGContainer
    let data: Data
    /// The canvas after the last rendered frame.
    private(set) var canvas: ImageBitmap
    /// The index of the last rendered frame, or -1.
    private(set) var renderedIndex = -1
    /// The region the last frame covered, as it was before the frame (disposal "previous").
    private var saved: [UInt8] = []

    init(container: APNGContainer, data: Data) {
        self.container = container
        self.data = data
        canvas = ImageBitmap(width: container.canvasWidth, height: container.canvasHeight) { $0.update(repeating: 0) }
    }

    /// Bytes held between frames: the canvas and the saved region.
    var heldByteCount: Int { canvas.byteCount + saved.count }

    mutating func reset() {
        canvas.pixels.withUnsafeMutableBufferPointer { $0.update(repeating: 0) }
        saved = []
        renderedIndex = -1
    }

    /// Renders frame `renderedIndex + 1`, after the previous frame's disposal.
    mutating func renderNext() throws(WebImageError) {
        let index = renderedIndex + 1
        precondition(index < container.frames.count, "no frame left to render")
        if index > 0 { dispose(container.frames[index - 1], index: index - 1) }
        let frame = container.frames[index]
        let pixels = try APNGFrameDecoder.pixels(of: frame, in: container, data: data)
        saved = frame.disposal == .previous && index > 0 ? region(frame) : []
        draw(pixels, frame)
        renderedIndex = index
    }

    private mutating func dispose(_ frame: APNGFrameInfo, index: Int) {
        switch frame.disposal {
        case .none: return
        case .previous where index > 0: restore(frame, saved)
        case .background, .previous: restore(frame, [UInt8](repeating: 0, count: frame.width * frame.height * 4))
        }
    }

    private func region(_ frame: APNGFrameInfo) -> [UInt8] {
        let rowBytes = frame.width * 4
        var bytes: [UInt8] = []
        bytes.reserveCapacity(rowBytes * frame.height)
        for row in 0..<frame.height {
            let start = ((frame.y + row) * canvas.width + frame.x) * 4
            bytes += canvas.pixels[start..<(start + rowBytes)]
        }
        return bytes
    }

    private mutating func restore(_ frame: APNGFrameInfo, _ bytes: [UInt8]) {
        let rowBytes = frame.width * 4
        let width = canvas.width
        canvas.pixels.withUnsafeMutableBufferPointer { canvas in
            for row in 0..<frame.height {
                let start = ((frame.y + row) * width + frame.x) * 4
                for i in 0..<rowBytes { canvas[start + i] = bytes[row * rowBytes + i] }
            }
        }
    }

    private mutating func draw(_ source: ImageBitmap, _ frame: APNGFrameInfo) {
        let width = canvas.width
        source.pixels.withUnsafeBufferPointer { source in
            canvas.pixels.withUnsafeMutableBufferPointer { canvas in
                for row in 0..<frame.height {
                    let from = row * frame.width * 4
                    let to = ((frame.y + row) * width + frame.x) * 4
                    if !frame.blendsOver {
                        for i in 0..<(frame.width * 4) { canvas[to + i] = source[from + i] }
                        continue
                    }
                    for pixel in 0..<frame.width {
                        Self.blendOver(source, from + pixel * 4, onto: canvas, to + pixel * 4)
                    }
                }
            }
        }
    }

    /// Porter–Duff "over" on straight alpha, rounded to the nearest level.
    private static func blendOver(
        _ source: UnsafeBufferPointer<UInt8>, _ s: Int, onto canvas: UnsafeMutableBufferPointer<UInt8>, _ d: Int
    ) {
        let sourceAlpha = Int(source[s + 3])
        if sourceAlpha == 0 { return }
        if sourceAlpha == 255 {
            for channel in 0..<4 { canvas[d + channel] = source[s + channel] }
            return
        }
        let canvasWeight = Int(canvas[d + 3]) * (255 - sourceAlpha)
        let total = sourceAlpha * 255 + canvasWeight  // the result's alpha × 255
        for channel in 0..<3 {
            let mixed = Int(source[s + channel]) * sourceAlpha * 255 + Int(canvas[d + channel]) * canvasWeight
            canvas[d + channel] = UInt8((mixed + total / 2) / total)
        }
        canvas[d + 3] = UInt8((total + 127) / 255)
    }
}
