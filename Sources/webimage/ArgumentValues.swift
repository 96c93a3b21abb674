import ArgumentParser
import Foundation
import WebImage

// The typed values of the command-line flags. argument-parser parses each while it reads the
// command line and rejects a bad value with its own message, naming the flag and the value.

extension PixelSize: ExpressibleByArgument {
    /// Parses `WxH` (for example `400x300`); both sides must be positive.
    public init?(argument: String) {
        let parts = argument.lowercased().split(separator: "x", omittingEmptySubsequences: false)
        guard parts.count == 2, let width = Int(parts[0]), let height = Int(parts[1]), width > 0, height > 0
        else { return nil }
        self.init(width: width, height: height)
    }
}

extension RGBA8: ExpressibleByArgument {
    /// Parses `RRGGBBAA` hex digits, with an optional leading `#`.
    public init?(argument: String) {
        let hex = argument.hasPrefix("#") ? argument.dropFirst() : Substring(argument)
        guard hex.count == 8, hex.allSatisfy(\.isHexDigit), let value = UInt32(hex, radix: 16) else { return nil }
        self.init(
            r: UInt8(value >> 24), g: UInt8((value >> 16) & 0xFF), b: UInt8((value >> 8) & 0xFF),
            a: UInt8(value & 0xFF))
    }
}

/// Output formats `convert` can write.
enum OutputFormat: String, ExpressibleByArgument, CaseIterable {
    case png, jpeg, gif, webp, avif, heic, jxl, tiff, bmp, ico

    var imageFormat: ImageFormat {
        switch self {
        case .png: .png
        case .jpeg: .jpeg
        case .gif: .gif
        case .webp: .webp
        case .avif: .avif
        case .heic: .heic
        case .jxl: .jpegXL
        case .tiff: .tiff
        case .bmp: .bmp
        case .ico: .ico
        }
    }
}

/// `--effort`: how hard the encoder works for a smaller file. Any letter case is accepted.
enum EffortArgument: String, ExpressibleByArgument, CaseIterable {
    case fastest, balanced, smallest

    init?(argument: String) {
        self.init(rawValue: argument.lowercased())
    }

    var effort: EncodeEffort {
        switch self {
        case .fastest: .fastest
        case .balanced: .balanced
        case .smallest: .smallest
        }
    }
}

/// `--chroma`: a JPEG's colour resolution, as its subsampling ratio.
enum ChromaArgument: String, ExpressibleByArgument, CaseIterable {
    case yuv420 = "420"
    case yuv422 = "422"
    case yuv444 = "444"

    var subsampling: ChromaSubsampling {
        switch self {
        case .yuv420: .yuv420
        case .yuv422: .yuv422
        case .yuv444: .yuv444
        }
    }
}

/// `--keep-metadata`: a comma list of `exif`, `icc` and `xmp`, or `all`, or `none`.
struct MetadataArgument: ExpressibleByArgument {
    var kinds: ImageMetadata.Kinds

    init(kinds: ImageMetadata.Kinds) { self.kinds = kinds }

    init?(argument: String) {
        var kinds: ImageMetadata.Kinds = []
        for name in argument.lowercased().split(separator: ",", omittingEmptySubsequences: false) {
            switch name.trimmingCharacters(in: .whitespaces) {
            case "exif": kinds.insert(.exif)
            case "icc": kinds.insert(.iccProfile)
            case "xmp": kinds.insert(.xmp)
            case "all": kinds.formUnion(.all)
            case "none": break
            default: return nil
            }
        }
        self.kinds = kinds
    }

    var defaultValueDescription: String { "icc" }
}

/// `--mode`: how `--resize` fits the image into WxH. Any letter case is accepted.
enum ResizeMode: String, ExpressibleByArgument, CaseIterable {
    case fill
    case aspectFit = "aspect-fit"
    case aspectFill = "aspect-fill"

    init?(argument: String) {
        self.init(rawValue: argument.lowercased())
    }

    var scaleMode: ImageScaleMode {
        switch self {
        case .fill: .fill
        case .aspectFit: .aspectFit
        case .aspectFill: .aspectFill
        }
    }
}

/// `--flip`: which axes to mirror. Any letter case is accepted.
enum FlipDirection: String, ExpressibleByArgument, CaseIterable {
    case horizontal, vertical, both

    init?(argument: String) {
        self.init(rawValue: argument.lowercased())
    }

    var transformer: ImageFlippingTransformer {
        ImageFlippingTransformer(horizontal: self != .vertical, vertical: self != .horizontal)
    }
}

/// `--crop X,Y,W,H`: four finite numbers, the width and height positive.
struct CropRectangle: ExpressibleByArgument {
    var x: Double
    var y: Double
    var width: Double
    var height: Double

    init?(argument: String) {
        let parts = argument.split(separator: ",", omittingEmptySubsequences: false)
        let values = parts.compactMap { Double($0.trimmingCharacters(in: .whitespaces)) }
        guard parts.count == 4, values.count == 4, values.allSatisfy(\.isFinite), values[2] > 0, values[3] > 0
        else { return nil }
        x = values[0]
        y = values[1]
        width = values[2]
        height = values[3]
    }

    var transformer: ImageCroppingTransformer {
        ImageCroppingTransformer(x: x, y: y, width: width, height: height)
    }
}

/// A number flag whose range argument-parser checks while parsing: text that is not a number,
/// or a number ``accepts(_:)`` refuses (NaN and the infinities included), is a bad value.
protocol CheckedNumberArgument: ExpressibleByArgument, CustomStringConvertible {
    associatedtype Number: LosslessStringConvertible
    /// The number, already checked.
    var value: Number { get }
    init(value: Number)
    static func accepts(_ value: Number) -> Bool
}

extension CheckedNumberArgument {
    init?(argument: String) {
        guard let value = Number(argument), Self.accepts(value) else { return nil }
        self.init(value: value)
    }

    var description: String { "\(value)" }
}

/// `--quality`: SDWebImage's compression quality, 0...1.
struct CompressionQuality: CheckedNumberArgument {
    let value: Double
    static func accepts(_ value: Double) -> Bool { (0...1).contains(value) }
}

/// `--round-corner R`: a positive, finite radius in pixels.
struct CornerRadius: CheckedNumberArgument {
    let value: Double
    static func accepts(_ value: Double) -> Bool { value.isFinite && value > 0 }
}

/// `--blur RADIUS`: a finite standard deviation in pixels, 0 or more.
struct BlurRadius: CheckedNumberArgument {
    let value: Double
    static func accepts(_ value: Double) -> Bool { value.isFinite && value >= 0 }
}

/// A finite number: `--rotate DEGREES` and `cache trim --max-age SECONDS`.
struct FiniteNumber: CheckedNumberArgument {
    let value: Double
    static func accepts(_ value: Double) -> Bool { value.isFinite }
}

/// `--concurrency N`: loads at once, 1 to ``maximum``.
struct Concurrency: CheckedNumberArgument {
    static let maximum = 64
    let value: Int
    static func accepts(_ value: Int) -> Bool { (1...maximum).contains(value) }
}

/// `cache trim --max-size BYTES`: 0 or more.
struct ByteCount: CheckedNumberArgument {
    let value: Int
    static func accepts(_ value: Int) -> Bool { value >= 0 }
}
