import Foundation
import WebImage

/// Resizing, thumbnail and blur cases. `resize-lanczos`, `thumb-path` and `blur` are mirrored in
/// Benchmarks/peers/pillow_bench.py, `thumb-path-vips` in Benchmarks/peers/vips_bench.py.
/// The `-1core` variants keep our side on one core (the pixels are the same), for comparison
/// with the single-threaded Pillow peer.
let transformCases: [BenchCase] = [
    resizeCase("resize-lanczos", usesMultipleCores: true),
    resizeCase("resize-lanczos-1core", usesMultipleCores: false),
    thumbnailCase("thumb-path", peer: "pillow"),
    thumbnailCase("thumb-path-vips", peer: "vips"),
    blurCase("blur", usesMultipleCores: true),
    blurCase("blur-1core", usesMultipleCores: false),
]

/// `photo.jpg` decoded once (untimed, opaque), then resampled to 400x300 with Lanczos-3.
private func resizeCase(_ name: String, usesMultipleCores: Bool) -> BenchCase {
    BenchCase(
        name,
        summary: "4000x3000 opaque bitmap in memory to 400x300 Lanczos-3"
            + (usesMultipleCores ? "" : " on one core")
    ) { context in
        let bitmap = try ImageCodersManager.shared.decode(try context.input("photo.jpg"), options: ImageDecodeOptions())
            .bitmap
        let size = PixelSize(width: 400, height: 300)
        return {
            let out = try bitmap.resampled(to: size, filter: .lanczos3, usesMultipleCores: usesMultipleCores)
            return RunOutput(checksum: Int(out.pixels[out.pixels.count / 2]), shape: "\(out.width)x\(out.height)x1")
        }
    }
}

/// The whole thumbnail path from bytes: a 1/8 DCT decode to 500x375, then Lanczos-3 to 400x300.
private func thumbnailCase(_ name: String, peer: String) -> BenchCase {
    BenchCase(name, peer: peer, summary: "4000x3000 JPEG bytes to a 400x300 thumbnail, decode included") {
        context in
        let data = try context.input("photo.jpg")
        var options = ImageDecodeOptions()
        options.thumbnailPixelSize = PixelSize(width: 400, height: 300)
        return { [options] in
            let image = try ImageCodersManager.shared.decode(data, options: options)
            let pixels = image.bitmap.pixels
            return RunOutput(checksum: Int(pixels[pixels.count / 2]), shape: "\(image.width)x\(image.height)x1")
        }
    }
}

/// `rgba.png` (1024x1024 with transparency) decoded once, then blurred with radius (σ) 10.
private func blurCase(_ name: String, usesMultipleCores: Bool) -> BenchCase {
    BenchCase(
        name,
        summary: "1024x1024 RGBA bitmap in memory, Gaussian blur radius 10"
            + (usesMultipleCores ? "" : " on one core")
    ) { context in
        let image = try ImageCodersManager.shared.decode(try context.input("rgba.png"), options: ImageDecodeOptions())
        var blur = ImageBlurTransformer(radius: 10)
        blur.usesMultipleCores = usesMultipleCores
        return { [blur] in
            let out = try blur.transformedImage(image, forKey: "rgba.png")
            let pixels = out.bitmap.pixels
            return RunOutput(checksum: Int(pixels[pixels.count / 2]), shape: "\(out.width)x\(out.height)x1")
        }
    }
}
