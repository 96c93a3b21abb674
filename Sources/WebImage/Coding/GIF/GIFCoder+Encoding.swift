import CGIF
import Foundation

/// Collects giflib's output; reached from the C write callback through `UserData`.
private final class GIFOutputSink {
    var data = Data()
}

private let writeToSink: OutputFunc = { gif, bytes, count in
    guard let gif, let bytes, count > 0, let user = gif.pointee.UserData else { return 0 }
    let sink = Unmanaged<GIFOutputSink>.fromOpaque(user).takeUnretainedValue()
    sink.data.append(bytes, count: Int(count))
    return count
}

extension GIFCoder {
    /// Encodes every frame of `image` (or only ``Image/bitmap`` with
    /// ``ImageEncodeOptions/firstFrameOnly`` or for a still image) with giflib.
    ///
    /// Each frame gets its own palette: its exact colours when it has at most 256 (255 plus a
    /// transparent entry when some pixel has alpha below 128), else a median cut. Alpha below
    /// 128 becomes the transparent index; other pixels are written opaque. The first frame's
    /// palette is the global colour table, later frames carry local tables. In an animation, an
    /// opaque frame after an opaque frame is written as the rectangle that changed, over the
    /// kept previous frame (disposal 1); any other frame covers the canvas and the frame before
    /// it is cleared (disposal 2), so transparent pixels never show older frames. Delays are
    /// rounded to centiseconds. The NETSCAPE2.0 loop extension is written unless the loop count is 1, so
    /// decoding gives the same loop count back (a missing extension means 1).
    /// ``ImageEncodeOptions/maxPixelSize`` scales frames down first.
    public func encode(_ image: Image, as format: ImageFormat, options: ImageEncodeOptions) throws(WebImageError)
        -> Data
    {
        guard format == .gif || format == .undefined else { throw .unsupportedFormat(format) }
        let animation = options.firstFrameOnly ? nil : image.animation.flatMap { $0.frameCount > 1 ? $0 : nil }
        let frameCount = animation?.frameCount ?? 1
        let source = image.bitmap.size
        var size = source
        if options.maxPixelSize.isPositive {
            size = DecodeGeometry.scaledSize(
                source, fitting: options.maxPixelSize, preserveAspectRatio: true, shouldScaleUp: false)
        }
        guard size.width <= 0xFFFF, size.height <= 0xFFFF else {
            throw .invalidArgument("GIF sides are at most 65535 pixels, got \(size)")
        }

        let sink = GIFOutputSink()
        var status: Int32 = 0
        guard let gif = EGifOpen(Unmanaged.passUnretained(sink).toOpaque(), writeToSink, &status) else {
            throw .encodingFailed("giflib: \(Self.giflibMessage(status))")
        }
        var writer = GIFWriter(gif: gif)
        let canvas = PixelRect(x: 0, y: 0, width: size.width, height: size.height)
        do throws(WebImageError) {
            // A frame is written once the next one is known: its disposal depends on it.
            var pending: GIFPendingFrame?
            var previous: ImageBitmap?
            for index in 0..<frameCount {
                let frame = try animation?.frame(at: index) ?? ImageFrame(bitmap: image.bitmap, duration: 0)
                guard frame.bitmap.size == source else {
                    throw WebImageError.invalidArgument(
                        "frame \(index) is \(frame.bitmap.size), the first frame is \(source)")
                }
                let bitmap = size == source ? frame.bitmap : try frame.bitmap.resampled(to: size)
                let isOpaque = !GIFFrameDiff.hasTransparentPixels(bitmap)
                var rect = canvas
                var masked: GIFQuantizedFrame?
                if let pending, let previous, pending.isOpaque && isOpaque {
                    rect =
                        GIFFrameDiff.changedRect(from: previous, to: bitmap)
                        ?? PixelRect(x: 0, y: 0, width: 1, height: 1)
                    // Unchanged pixels become the transparent index, unless that costs exact colours.
                    masked = GIFQuantizer.exactPalette(
                        GIFFrameDiff.maskingUnchanged(bitmap, previous: previous, in: rect))
                }
                if let pending { try writer.add(pending, disposal: pending.isOpaque && isOpaque ? 1 : 2) }
                let quantized: GIFQuantizedFrame
                if let masked {
                    quantized = masked
                } else {
                    quantized = GIFQuantizer.quantize(try bitmap.cropped(to: rect))
                }
                if index == 0 {
                    try writer.start(size: size, palette: quantized, loopCount: animation?.loopCount)
                }
                pending = GIFPendingFrame(
                    quantized: quantized, rect: rect, isFirst: index == 0, isOpaque: isOpaque,
                    delay: Self.centiseconds(frame.duration))
                previous = bitmap
            }
            if let pending {
                let disposal = animation == nil ? nil : pending.isOpaque ? 1 : 2
                try writer.add(pending, disposal: disposal)
            }
        } catch {
            _ = writer.close()
            throw error
        }
        try writer.close().get()
        return withExtendedLifetime(sink) { sink.data }
    }

    static func centiseconds(_ seconds: Double) -> Int {
        guard seconds.isFinite, seconds > 0 else { return 0 }
        return min(Int(clamping: seconds * 100, rounding: .toNearestOrAwayFromZero), 65535)
    }

    static func giflibMessage(_ code: Int32) -> String {
        GifErrorString(code).map { String(cString: $0) } ?? "error \(code)"
    }
}

/// A frame quantized and placed, waiting for its disposal to be known.
private struct GIFPendingFrame {
    var quantized: GIFQuantizedFrame
    var rect: PixelRect
    var isFirst: Bool
    var isOpaque: Bool
    var delay: Int
}

/// The giflib calls for one file, in order; every failure becomes ``WebImageError/encodingFailed(_:underlying:)``.
private struct GIFWriter {
    let gif: UnsafeMutablePointer<GifFileType>
    private var closed = false

    init(gif: UnsafeMutablePointer<GifFileType>) {
        self.gif = gif
    }

    private func check(_ result: Int32, _ step: String) throws(WebImageError) {
        guard result == GIF_OK else {
            throw .encodingFailed("giflib \(step): \(GIFCoder.giflibMessage(gif.pointee.Error))")
        }
    }

    /// A colour map padded to a power of two (giflib's requirement); the caller frees it.
    private func colorMap(_ frame: GIFQuantizedFrame) throws(WebImageError) -> UnsafeMutablePointer<ColorMapObject> {
        var size = 2
        while size < frame.paletteCount { size *= 2 }
        var colors = [GifColorType](repeating: GifColorType(Red: 0, Green: 0, Blue: 0), count: size)
        for (i, color) in frame.colors.enumerated() {
            colors[i] = GifColorType(Red: color.r, Green: color.g, Blue: color.b)
        }
        guard let map = GifMakeMapObject(Int32(size), colors) else {
            throw .encodingFailed("giflib could not allocate a colour map")
        }
        return map
    }

    func start(size: PixelSize, palette: GIFQuantizedFrame, loopCount: Int?) throws(WebImageError) {
        EGifSetGifVersion(gif, true)
        let map = try colorMap(palette)
        defer { GifFreeMapObject(map) }
        try check(EGifPutScreenDesc(gif, Int32(size.width), Int32(size.height), 8, 0, map), "screen descriptor")
        if let loopCount, loopCount != 1 {
            let loops = min(max(loopCount, 0), 0xFFFF)
            let identifier = Array("NETSCAPE2.0".utf8)
            let body: [UInt8] = [1, UInt8(loops & 0xFF), UInt8(loops >> 8)]
            try check(EGifPutExtensionLeader(gif, APPLICATION_EXT_FUNC_CODE), "loop extension")
            try check(EGifPutExtensionBlock(gif, Int32(identifier.count), identifier), "loop extension")
            try check(EGifPutExtensionBlock(gif, Int32(body.count), body), "loop extension")
            try check(EGifPutExtensionTrailer(gif), "loop extension")
        }
    }

    /// Writes a frame; `disposal` nil means a still image (a control block only for transparency).
    func add(_ pending: GIFPendingFrame, disposal: Int?) throws(WebImageError) {
        let frame = pending.quantized
        let (x, y) = (Int32(pending.rect.x), Int32(pending.rect.y))
        let (width, height) = (Int32(pending.rect.width), Int32(pending.rect.height))
        if disposal != nil || frame.transparentIndex != nil {
            var control = GraphicsControlBlock(
                DisposalMode: Int32(disposal ?? Int(DISPOSAL_UNSPECIFIED)), UserInputFlag: false,
                DelayTime: Int32(pending.delay),
                TransparentColor: Int32(frame.transparentIndex ?? Int(NO_TRANSPARENT_COLOR)))
            var bytes = [UInt8](repeating: 0, count: 4)
            let length = EGifGCBToExtension(&control, &bytes)
            try check(EGifPutExtension(gif, GRAPHICS_EXT_FUNC_CODE, Int32(length), bytes), "graphic control")
        }
        if pending.isFirst {
            try check(EGifPutImageDesc(gif, x, y, width, height, false, nil), "image descriptor")
        } else {
            let map = try colorMap(frame)
            defer { GifFreeMapObject(map) }
            try check(EGifPutImageDesc(gif, x, y, width, height, false, map), "image descriptor")
        }
        // Row by row: giflib takes an Int32 length, and width × height may not fit one.
        try frame.indices.withUnsafeBufferPointer { indices throws(WebImageError) in
            let rowLength = Int(width)
            for row in 0..<Int(height) {
                let line = UnsafeMutablePointer(mutating: indices.baseAddress! + row * rowLength)
                try check(EGifPutLine(gif, line, width), "image data")
            }
        }
    }

    /// Writes the trailer and frees giflib's state; safe to call more than once.
    mutating func close() -> Result<Void, WebImageError> {
        guard !closed else { return .success(()) }
        closed = true
        var status: Int32 = 0
        guard EGifCloseFile(gif, &status) == GIF_OK else {
            return .failure(.encodingFailed("giflib close: \(GIFCoder.giflibMessage(status))"))
        }
        return .success(())
    }
}
