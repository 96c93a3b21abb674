import CWebP
import Foundation

/// Owns a `WebPAnimDecoder` and a private copy of the file it reads (libwebp keeps pointers into
/// the data for the decoder's lifetime, so it must not be a Swift buffer that can move).
/// Remembers its position so that sequential frames cost one frame decode each.
///
/// Not thread-safe: ``WebPAnimationProvider`` keeps it behind a lock.
final class WebPAnimationDecoder {
    private let bytes: UnsafeMutableRawBufferPointer
    private let decoder: OpaquePointer
    let canvas: PixelSize
    /// The size frames are resampled to, or nil for the canvas size.
    let outputSize: PixelSize?
    let frameCount: Int
    /// The index `WebPAnimDecoderGetNext` will decode next.
    private var nextIndex = 0

    /// The caller has checked the canvas against the pixel limit (the decoder allocates it).
    init(data: Data, outputSize: PixelSize?) throws(WebImageError) {
        let copy = UnsafeMutableRawBufferPointer.allocate(byteCount: max(data.count, 1), alignment: 16)
        if !data.isEmpty { data.copyBytes(to: copy) }
        var options = WebPAnimDecoderOptions()
        var webpData = WebPData(bytes: copy.baseAddress!.assumingMemoryBound(to: UInt8.self), size: data.count)
        guard WebPAnimDecoderOptionsInit(&options) != 0 else {
            copy.deallocate()
            throw .badImageData("libwebp's demux version does not match its headers")
        }
        options.color_mode = MODE_RGBA
        options.use_threads = Self.useThreads ? 1 : 0
        guard let decoder = WebPAnimDecoderNew(&webpData, &options) else {
            copy.deallocate()
            throw .badImageData("the animated WebP is truncated or corrupt")
        }
        var info = WebPAnimInfo()
        guard WebPAnimDecoderGetInfo(decoder, &info) != 0, info.frame_count > 0 else {
            WebPAnimDecoderDelete(decoder)
            copy.deallocate()
            throw .badImageData("the animated WebP has no frames")
        }
        self.bytes = copy
        self.decoder = decoder
        self.canvas = PixelSize(width: Int(info.canvas_width), height: Int(info.canvas_height))
        self.frameCount = Int(info.frame_count)
        self.outputSize = outputSize
    }

    deinit {
        WebPAnimDecoderDelete(decoder)
        bytes.deallocate()
    }

    /// Whether libwebp filters frames on a second thread. Off, as for stills: it gains nothing
    /// on an animation either (Benchmarks/README.md).
    static let useThreads = false

    /// Bytes of pixels libwebp holds: the current canvas and the previous disposed canvas.
    var heldByteCount: Int { canvas.pixelCount * 4 * 2 }

    /// The full-canvas frame `index`, composited, at ``outputSize``.
    func frame(at index: Int) throws(WebImageError) -> ImageBitmap {
        guard index >= 0, index < frameCount else {
            throw .invalidArgument("frame index \(index) is outside 0..<\(frameCount)")
        }
        if index < nextIndex {
            WebPAnimDecoderReset(decoder)
            nextIndex = 0
        }
        var pixels: UnsafeMutablePointer<UInt8>?
        var timestamp: Int32 = 0
        while nextIndex <= index {
            guard WebPAnimDecoderGetNext(decoder, &pixels, &timestamp) != 0, pixels != nil else {
                let failed = nextIndex
                // Leave the decoder in a known state for the next call.
                WebPAnimDecoderReset(decoder)
                nextIndex = 0
                throw .badImageData("frame \(failed) of the animated WebP is corrupt")
            }
            nextIndex += 1
        }
        let source = UnsafeRawBufferPointer(start: pixels, count: canvas.pixelCount * 4)
        let full = ImageBitmap(width: canvas.width, height: canvas.height) { buffer in
            UnsafeMutableRawBufferPointer(buffer).copyMemory(from: source)
        }
        guard let outputSize else { return full }
        return try full.resampled(to: outputSize)
    }
}
