import Foundation
import WebImage

/// Decoding cases: bytes already in memory → RGBA8 through `ImageCodersManager.shared`, the path
/// users get. Each is mirrored by the case of the same name in Benchmarks/peers/pillow_bench.py
/// (the SVG one in Benchmarks/peers/rsvg_bench.py).
let codecCases: [BenchCase] = [
    decodeCase(
        "jpeg-decode", input: "photo.jpg",
        summary: "4000x3000 q85 JPEG, full decode to RGBA"),
    decodeCase(
        "jpeg-thumb", input: "photo.jpg", thumbnail: PixelSize(width: 500, height: 375),
        summary: "4000x3000 JPEG to a 500x375 thumbnail (exactly the 1/8 DCT size: no resampling)"),
    decodeCase(
        "jpeg-thumb-resample", input: "photo.jpg", thumbnail: PixelSize(width: 400, height: 300),
        summary: "4000x3000 JPEG to a 400x300 thumbnail (1/8 DCT decode to 500x375, then resample)"),
    decodeCase(
        "png-decode", input: "rgba.png",
        summary: "1024x1024 RGBA PNG, full decode"),
    decodeCase(
        "gif-decode", input: "anim.gif",
        summary: "480x360 GIF, all 20 frames decoded and composited"),
    decodeCase(
        "webp-decode", input: "still.webp",
        summary: "2000x1500 lossy q80 WebP, decode to RGBA"),
    decodeCase(
        "webp-anim-decode", input: "anim.webp",
        summary: "480x360 lossy q80 animated WebP, all 20 frames decoded to full-canvas RGBA"),
    decodeCase(
        "apng-decode", input: "anim.png",
        summary: "480x360 RGBA APNG, all 20 frames composited (changed rectangles blended over)"),
    decodeCase(
        "avif-decode", input: "still.avif",
        summary: "1600x1200 AVIF (Pillow q60, 4:2:0), decode to RGBA (dav1d on both sides)"),
    decodeCase(
        "heic-decode", input: "still.heic",
        summary: "1600x1200 HEIC (pillow-heif q60, 4:2:0), decode to RGBA (libde265 on both sides)"),
    decodeCase(
        "jxl-decode", input: "still.jxl",
        summary: "1600x1200 lossy JPEG XL (distance 1.9, effort 7), decode to RGBA (libjxl vs jxl-oxide, 1 thread)"),
    decodeCase(
        "tiff-decode", input: "still.tif",
        summary: "2000x1500 RGB TIFF, LZW with prediction, decode to RGBA (libtiff on both sides)"),
    decodeCase(
        "bmp-decode", input: "still.bmp",
        summary: "2000x1500 24-bit BMP, decode to RGBA (ours in Swift, Pillow's in C)"),
    decodeCase(
        "ico-decode", input: "icon.ico",
        summary: "ICO of seven 32-bit bitmap entries (16 to 256), the 256x256 one decoded to RGBA"),
    decodeCase(
        "png16-decode", input: "deep.png", keepsDepth: true,
        summary: "1024x1024 16-bit RGBA PNG, decode keeping 16 bits (and the 8-bit bitmap made from them)"),
    decodeCase(
        "svg-rasterise", input: "logo.svg", peer: "rsvg",
        summary:
            "1000x1000 SVG (400 stroked curves, gradients, translucency), rasterised at its own size (librsvg on both sides)"
    ),
    iccCostCase(),
    decodeCase(
        "icc-decode-pillow", input: "photo-adobe.jpg",
        summary: "4000x3000 JPEG with an Adobe RGB profile, decode + conversion to sRGB (Pillow: ImageCms)"),
]

/// The conversion's added cost: the photo with an Adobe RGB profile decoded and converted to
/// sRGB, against the same decode keeping the pixels as stored (the Swift peer).
private func iccCostCase() -> BenchCase {
    @Sendable func body(_ context: BenchContext, converting: Bool) throws -> BenchCase.Body {
        let data = try context.input("photo-adobe.jpg")
        var options = ImageDecodeOptions()
        options.convertToSRGB = converting
        return { try digest(ImageCodersManager.shared.decode(data, options: options)) }
    }
    return BenchCase(
        "icc-cost", summary: "4000x3000 JPEG with an Adobe RGB profile: decode + sRGB conversion vs the decode alone",
        setup: { try body($0, converting: true) }, swiftPeer: { try body($0, converting: false) })
}

/// A case that decodes the input file `input` with the default options plus `thumbnail` (and
/// ``ImageDecodeOptions/preservesHighBitDepth`` with `keepsDepth`), and touches every frame of an
/// animation (decoding it if the coder chose lazy frames).
private func decodeCase(
    _ name: String, input: String, thumbnail: PixelSize = .zero, keepsDepth: Bool = false, peer: String = "pillow",
    summary: String
) -> BenchCase {
    let options = {
        var options = ImageDecodeOptions()
        options.thumbnailPixelSize = thumbnail
        options.preservesHighBitDepth = keepsDepth
        return options
    }()
    return BenchCase(name, peer: peer, summary: summary) { context in
        let data = try context.input(input)
        return {
            let image = try ImageCodersManager.shared.decode(data, options: options)
            return try digest(image)
        }
    }
}

/// Sums a few bytes of every frame (first, middle and last pixel) and describes the shape.
private func digest(_ image: Image) throws -> RunOutput {
    let bitmaps = try image.animation?.allFrames().map(\.bitmap) ?? [image.bitmap]
    var checksum = 0
    for bitmap in bitmaps {
        let pixels = bitmap.pixels
        for index in [0, pixels.count / 8 * 4, pixels.count - 4] where index >= 0 {
            checksum &+= pixels[index..<index + 4].reduce(0) { $0 &+ Int($1) }
        }
    }
    return RunOutput(checksum: checksum, shape: "\(image.width)x\(image.height)x\(bitmaps.count)")
}
