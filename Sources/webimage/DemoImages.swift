import Foundation
import WebImage
import WebImageTestOrigin

/// One image of the demo set: where the origin serves it, how the tile is captioned, and how
/// many times the load list names it.
struct DemoItem {
    var caption: String
    var path: String
    /// Fault-injection query the URL carries (`drip=...`, `short=...`), or empty.
    var query = ""
    var copies = 3
    /// Whether the load is meant to fail (a broken item).
    var isBroken = false
}

/// Generates the demo's images with the library's own encoders and registers them on an origin.
/// Everything is deterministic: the same bytes on every run.
enum DemoImages {
    static let width = 160
    static let height = 120

    /// Registers every body on `origin` and returns the items in tile order.
    static func register(on origin: TestOrigin) throws -> [DemoItem] {
        func add(_ path: String, _ data: Data, _ type: String) {
            origin.register(path: path, body: data, contentType: type)
        }
        var lossy = ImageEncodeOptions()
        lossy.compressionQuality = 0.85
        var lossless = ImageEncodeOptions()
        lossless.lossless = true
        let codecs = ImageCodersManager.shared

        add("/photo.jpg", try codecs.encode(still(hue: 0, alpha: false), as: .jpeg, options: lossy), "image/jpeg")
        var progressive = lossy
        progressive.progressive = true
        add(
            "/progressive.jpg", try codecs.encode(still(hue: 8, alpha: false), as: .jpeg, options: progressive),
            "image/jpeg")
        add(
            "/badge.png", try codecs.encode(still(hue: 1, alpha: true), as: .png, options: ImageEncodeOptions()),
            "image/png")
        add(
            "/palette.gif", try codecs.encode(still(hue: 2, alpha: false), as: .gif, options: ImageEncodeOptions()),
            "image/gif")
        add("/lossy.webp", try codecs.encode(still(hue: 3, alpha: false), as: .webp, options: lossy), "image/webp")
        add("/lossless.webp", try codecs.encode(still(hue: 4, alpha: true), as: .webp, options: lossless), "image/webp")
        add(
            "/spinner.gif", try codecs.encode(animated(hue: 5, format: .gif), as: .gif, options: ImageEncodeOptions()),
            "image/gif")
        add(
            "/spinner.webp", try codecs.encode(animated(hue: 6, format: .webp), as: .webp, options: lossy), "image/webp"
        )
        var avif = lossy
        avif.effort = .fastest
        add("/photo.avif", try codecs.encode(still(hue: 9, alpha: true), as: .avif, options: avif), "image/avif")
        add(
            "/spinner.png", try codecs.encode(animated(hue: 10, format: .png), as: .png, options: ImageEncodeOptions()),
            "image/png")
        add(
            "/slow.jpg", try codecs.encode(still(hue: 7, alpha: false), as: .jpeg, options: ImageEncodeOptions()),
            "image/jpeg")
        add("/garbage.png", Data(String(repeating: "not an image at all. ", count: 40).utf8), "image/png")
        add(
            "/truncated.png", try codecs.encode(still(hue: 1, alpha: false), as: .png, options: ImageEncodeOptions()),
            "image/png")

        return [
            DemoItem(caption: "JPEG", path: "/photo.jpg"),
            DemoItem(caption: "JPEG PROGRESSIVE", path: "/progressive.jpg"),
            DemoItem(caption: "PNG ALPHA", path: "/badge.png"),
            DemoItem(caption: "GIF", path: "/palette.gif"),
            DemoItem(caption: "WEBP LOSSY", path: "/lossy.webp"),
            DemoItem(caption: "WEBP LOSSLESS", path: "/lossless.webp"),
            DemoItem(caption: "GIF ANIM 4F", path: "/spinner.gif"),
            DemoItem(caption: "WEBP ANIM 4F", path: "/spinner.webp"),
            DemoItem(caption: "AVIF ALPHA", path: "/photo.avif"),
            DemoItem(caption: "APNG 4F", path: "/spinner.png"),
            // About 0.4 s: the body arrives 2 KB at a time, 40 ms apart.
            DemoItem(caption: "JPEG SLOW", path: "/slow.jpg", query: "drip=2048:40", copies: 5),
            DemoItem(caption: "BAD BYTES", path: "/garbage.png", isBroken: true),
            DemoItem(caption: "404", path: "/missing.png", isBroken: true),
            DemoItem(caption: "TRUNCATED", path: "/truncated.png", query: "short=400", isBroken: true),
        ]
    }

    /// A picture that reads at thumbnail size: a diagonal gradient in the item's hue, a ring and
    /// the item number in stripes; with `alpha`, the corners fade to transparent.
    static func still(hue: Int, alpha: Bool, frame: Int = 0) -> Image {
        let base = palette[hue % palette.count]
        let bitmap = ImageBitmap(width: width, height: height) { pixels in
            let centreX = width / 2 + (frame - 1) * 18
            let centreY = height / 2
            for y in 0..<height {
                for x in 0..<width {
                    let offset = (y * width + x) * 4
                    let shade = (x + y) * 160 / (width + height)
                    var r = Int(base.r) * (95 + shade) / 255
                    var g = Int(base.g) * (95 + shade) / 255
                    var b = Int(base.b) * (95 + shade) / 255
                    let dx = x - centreX
                    let dy = y - centreY
                    let distance = dx * dx + dy * dy
                    if distance < 34 * 34, distance > 24 * 24 { (r, g, b) = (250, 250, 250) }
                    if (x / 8 + y / 8) % 2 == 0, y > height - 14 { (r, g, b) = (r / 2, g / 2, b / 2) }
                    pixels[offset] = UInt8(min(r, 255))
                    pixels[offset + 1] = UInt8(min(g, 255))
                    pixels[offset + 2] = UInt8(min(b, 255))
                    var a = 255
                    if alpha {
                        let edge = min(min(x, width - 1 - x), min(y, height - 1 - y))
                        a = min(255, 60 + edge * 8)
                    }
                    pixels[offset + 3] = UInt8(a)
                }
            }
        }
        return Image(bitmap: bitmap, format: .png, hasAlpha: alpha)
    }

    /// Four frames of a ring moving left to right, looping forever.
    static func animated(hue: Int, format: ImageFormat) -> Image {
        let frames = (0..<4).map { ImageFrame(bitmap: still(hue: hue, alpha: false, frame: $0).bitmap, duration: 0.15) }
        return Image(
            bitmap: frames[0].bitmap, format: format, animation: ImageAnimation(frames: frames, loopCount: 0),
            hasAlpha: false)
    }

    private static let palette: [RGBA8] = [
        RGBA8(r: 230, g: 90, b: 60), RGBA8(r: 60, g: 160, b: 230), RGBA8(r: 120, g: 200, b: 80),
        RGBA8(r: 200, g: 120, b: 220), RGBA8(r: 240, g: 190, b: 50), RGBA8(r: 50, g: 200, b: 180),
        RGBA8(r: 240, g: 110, b: 160), RGBA8(r: 150, g: 150, b: 240), RGBA8(r: 180, g: 140, b: 90),
    ]
}
