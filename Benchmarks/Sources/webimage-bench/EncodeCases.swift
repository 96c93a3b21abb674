import Foundation
import WebImage

/// Encoding cases: pixels already decoded (in the setup, untimed) → a file, reporting its size
/// beside the time. Each is mirrored by the case of the same name in
/// Benchmarks/peers/pillow_bench.py, with the same settings.
let encodeCases: [BenchCase] = [
    encodeCase(
        "jpeg-encode", input: "photo.jpg", as: .jpeg, quality: 0.8,
        summary: "4000x3000 photo to JPEG q80 (4:2:0, libjpeg-turbo on both sides)"),
    encodeCase(
        "png-encode", input: "photo-1mp.png", as: .png,
        summary: "1152x864 RGB photo to PNG, default settings on both sides"),
    encodeCase(
        "webp-encode", input: "photo-1mp.png", as: .webp, quality: 0.8,
        summary: "1152x864 RGB photo to lossy WebP q80 (method 4)"),
    encodeCase(
        "webp-lossless-encode", input: "photo-1mp.png", as: .webp, lossless: true,
        summary: "1152x864 RGB photo to lossless WebP (effort 75, method 4)"),
    encodeCase(
        "webp-anim-encode", input: "anim.gif", as: .webp, quality: 0.8,
        summary: "20 frames of 480x360 (the GIF input, decoded) to animated lossy WebP q80"),
    encodeCase(
        "avif-encode", input: "photo-1mp.png", as: .avif, quality: 0.63,
        summary: "1152x864 RGB photo to AVIF q63 (quantizer 23, 4:2:0, libaom at our default speed 9, every core)"),
    encodeCase(
        "heic-encode", input: "photo-1mp.png", as: .heic, quality: 0.8,
        summary: "1152x864 RGB photo to HEIC q80 (x265 preset slow, 4:2:0, every core)"),
    encodeCase(
        "jxl-encode", input: "photo-1mp.png", as: .jpegXL, quality: 0.8,
        summary: "1152x864 RGB photo to lossy JPEG XL q80 (distance 1.9, effort 7, libjxl, 1 thread)"),
    encodeCase(
        "gif-encode", input: "anim.gif", as: .gif,
        summary: "20 frames of 480x360 (the GIF input, decoded) to an animated GIF"),
]

/// A case that decodes `input` once, then encodes it as `format` with `quality` (or lossless)
/// on every run.
private func encodeCase(
    _ name: String, input: String, as format: ImageFormat, quality: Double = 1, lossless: Bool = false,
    summary: String
) -> BenchCase {
    var options = ImageEncodeOptions()
    options.compressionQuality = quality
    options.lossless = lossless
    return BenchCase(name, summary: summary) { [options] context in
        let image = try ImageCodersManager.shared.decode(try context.input(input), options: ImageDecodeOptions())
        let frames = try image.animation?.allFrames().count ?? 1
        return {
            let data = try ImageCodersManager.shared.encode(image, as: format, options: options)
            let edges = data.prefix(16) + data.suffix(16)
            return RunOutput(
                checksum: edges.reduce(0) { $0 + Int($1) }, shape: "\(image.width)x\(image.height)x\(frames)",
                bytes: data.count)
        }
    }
}
