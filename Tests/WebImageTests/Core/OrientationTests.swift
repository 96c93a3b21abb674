import Testing

@testable import WebImage

@Suite("EXIF orientation")
struct OrientationTests {
    /// The upright picture: 3×2, each pixel a unique colour.
    static let upright = try! ImageBitmap(
        width: 3, height: 2, pixels: (0..<6).flatMap { [UInt8($0 * 10), 0, 0, 255] })

    /// Stores `upright` the way a camera would for `orientation` (the inverse transform),
    /// written independently of the decoder's mapping.
    static func stored(for orientation: ImageOrientation) -> ImageBitmap {
        let w = upright.width
        let h = upright.height
        let swaps = orientation.swapsDimensions
        let sw = swaps ? h : w
        let sh = swaps ? w : h
        var out = ImageBitmap(width: sw, height: sh, fill: .clear)
        for y in 0..<h {
            for x in 0..<w {
                // Where upright (x, y) lives in storage.
                let (sx, sy): (Int, Int) =
                    switch orientation {
                    case .up: (x, y)
                    case .upMirrored: (w - 1 - x, y)
                    case .down: (w - 1 - x, h - 1 - y)
                    case .downMirrored: (x, h - 1 - y)
                    case .leftMirrored: (y, x)
                    case .right: (y, w - 1 - x)
                    case .rightMirrored: (h - 1 - y, w - 1 - x)
                    case .left: (h - 1 - y, x)
                    }
                out[sx, sy] = upright[x, y]
            }
        }
        return out
    }

    @Test("Applying each orientation restores the upright picture", arguments: ImageOrientation.allCases)
    func applyingRestoresUpright(orientation: ImageOrientation) {
        let restored = Self.stored(for: orientation).applyingOrientation(orientation)
        #expect(restored == Self.upright)
    }

    @Test("Orientations 5 to 8 swap width and height")
    func swapsDimensions() {
        #expect(ImageOrientation.allCases.filter(\.swapsDimensions) == [.leftMirrored, .right, .rightMirrored, .left])
        let image = Image(bitmap: Self.upright, orientation: .right)
        #expect(image.orientedSize == PixelSize(width: 2, height: 3))
    }

    @Test("Out-of-range EXIF values read as up")
    func badValuesAreUp() {
        #expect(ImageOrientation(exifValue: 0) == .up)
        #expect(ImageOrientation(exifValue: 9) == .up)
        #expect(ImageOrientation(exifValue: 6) == .right)
    }
}
