/// The EXIF orientation (TIFF tag 274) of stored pixels: how to turn them to show the image upright.
///
/// Raw values are the EXIF values 1…8; names follow `CGImagePropertyOrientation`.
public enum ImageOrientation: Int, Sendable, CaseIterable, Codable {
    case up = 1
    case upMirrored = 2
    case down = 3
    case downMirrored = 4
    case leftMirrored = 5
    case right = 6
    case rightMirrored = 7
    case left = 8

    /// Whether showing the image upright swaps its width and height (orientations 5–8).
    public var swapsDimensions: Bool { rawValue >= 5 }

    /// The EXIF value, or `.up` for anything outside 1…8 (as decoders treat bad tags).
    public init(exifValue: Int) {
        self = ImageOrientation(rawValue: exifValue) ?? .up
    }
}

extension ImageBitmap {
    /// The bitmap turned so that it shows upright, given the orientation its pixels are stored in.
    public func applyingOrientation(_ orientation: ImageOrientation) -> ImageBitmap {
        if orientation == .up { return self }
        let w = width
        let h = height
        let outWidth = orientation.swapsDimensions ? h : w
        let outHeight = orientation.swapsDimensions ? w : h
        return pixels.withUnsafeBytes { srcRaw in
            let src = srcRaw.bindMemory(to: UInt32.self)
            return ImageBitmap(width: outWidth, height: outHeight) { dstBytes in
                let dst = UnsafeMutableRawBufferPointer(dstBytes).bindMemory(to: UInt32.self)
                for dy in 0..<outHeight {
                    let row = dy * outWidth
                    for dx in 0..<outWidth {
                        let sx: Int
                        let sy: Int
                        switch orientation {
                        case .up: (sx, sy) = (dx, dy)
                        case .upMirrored: (sx, sy) = (w - 1 - dx, dy)
                        case .down: (sx, sy) = (w - 1 - dx, h - 1 - dy)
                        case .downMirrored: (sx, sy) = (dx, h - 1 - dy)
                        case .leftMirrored: (sx, sy) = (dy, dx)
                        case .right: (sx, sy) = (dy, h - 1 - dx)
                        case .rightMirrored: (sx, sy) = (w - 1 - dy, h - 1 - dx)
                        case .left: (sx, sy) = (w - 1 - dy, dx)
                        }
                        dst[row + dx] = src[sy * w + sx]
                    }
                }
            }
        }
    }
}
