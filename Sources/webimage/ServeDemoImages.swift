#if Server
    import Foundation
    import WebImage
    import WebImageTestOrigin

    /// The sources `webimage serve --demo` serves from its loopback origin, made with the library's
    /// own encoders (the same bytes on every run): a photo-like scene whose subject sits off-centre
    /// (so a smart crop differs from a centred one), a badge with transparent corners, and a small
    /// animation.
    enum ServeDemoImages {
        static let scenePath = "/scene.jpg"
        static let badgePath = "/badge.png"
        static let animationPath = "/spinner.gif"

        /// Registers the three sources on `origin`.
        static func register(on origin: TestOrigin) throws {
            let codecs = ImageCodersManager.shared
            var photo = ImageEncodeOptions()
            photo.compressionQuality = 0.9
            origin.register(
                path: scenePath, body: try codecs.encode(scene(), as: .jpeg, options: photo), contentType: "image/jpeg")
            origin.register(
                path: badgePath, body: try codecs.encode(badge(), as: .png, options: ImageEncodeOptions()),
                contentType: "image/png")
            origin.register(
                path: animationPath,
                body: try codecs.encode(
                    DemoImages.animated(hue: 5, format: .gif), as: .gif, options: ImageEncodeOptions()),
                contentType: "image/gif")
        }

        /// 1200×800: a sky over a field, and a detailed sun-like disc in the upper right third.
        static func scene(width: Int = 1200, height: Int = 800) -> Image {
            let centre = (x: width * 3 / 4, y: height / 3)
            let radius = height / 5
            let bitmap = ImageBitmap(width: width, height: height) { pixels in
                let horizon = height * 2 / 3
                for y in 0..<height {
                    for x in 0..<width {
                        var (r, g, b): (Int, Int, Int)
                        if y < horizon + Int(clamping: 18 * sin(Double(x) / 90)) {
                            (r, g, b) = (90 + y * 100 / height, 150 + y * 80 / height, 235)
                        } else {
                            let furrow = (x + y * 3) % 40 < 20 ? 18 : 0
                            (r, g, b) = (70 + furrow, 140 + furrow + (y - horizon) / 6, 60)
                        }
                        let dx = x - centre.x
                        let dy = y - centre.y
                        let distance = Int(clamping: Double(dx * dx + dy * dy).squareRoot())
                        if distance < radius {
                            // Rings and spokes: detail the entropy crop finds.
                            let ring = (distance / 12) % 2 == 0
                            let spoke = Int(clamping: (atan2(Double(dy), Double(dx)) + .pi) * 8 / .pi) % 2 == 0
                            (r, g, b) = ring != spoke ? (250, 200, 40) : (200, 60, 30)
                        }
                        let offset = (y * width + x) * 4
                        pixels[offset] = UInt8(clamping: r)
                        pixels[offset + 1] = UInt8(clamping: g)
                        pixels[offset + 2] = UInt8(clamping: b)
                        pixels[offset + 3] = 255
                    }
                }
            }
            return Image(bitmap: bitmap, format: .jpeg, hasAlpha: false)
        }

        /// 480×480: a blue disc with a white star-like pattern on a transparent ground.
        static func badge(size: Int = 480) -> Image {
            let bitmap = ImageBitmap(width: size, height: size) { pixels in
                let half = Double(size) / 2
                for y in 0..<size {
                    for x in 0..<size {
                        let dx = Double(x) - half + 0.5
                        let dy = Double(y) - half + 0.5
                        let distance = (dx * dx + dy * dy).squareRoot()
                        let edge = max(0, min(1, half - 4 - distance))
                        let star = abs(sin(atan2(dy, dx) * 5)) * half * 0.5 > distance - half * 0.25
                        let offset = (y * size + x) * 4
                        pixels[offset] = star ? 255 : 40
                        pixels[offset + 1] = star ? 255 : 110
                        pixels[offset + 2] = star ? 255 : 220
                        pixels[offset + 3] = UInt8(clamping: edge * 255)
                    }
                }
            }
            return Image(bitmap: bitmap, format: .png, hasAlpha: true)
        }
    }
#endif
