import Foundation

/// An encoded image format.
///
/// Raw values match `SDImageFormat` for the formats SDWebImage knows (JPEG 0 … RAW 10);
/// AVIF, JPEG XL and ICO are ours.
public enum ImageFormat: Int, Sendable, CaseIterable, Codable {
    case undefined = -1
    case jpeg = 0
    case png = 1
    case gif = 2
    case tiff = 3
    case webp = 4
    case heic = 5
    case heif = 6
    case pdf = 7
    case svg = 8
    case bmp = 9
    case raw = 10
    case avif = 11
    case jpegXL = 12
    case ico = 13

    /// A short lowercase name, as the command line and JSON output spell it.
    public var name: String {
        switch self {
        case .undefined: "undefined"
        case .jpeg: "jpeg"
        case .png: "png"
        case .gif: "gif"
        case .tiff: "tiff"
        case .webp: "webp"
        case .heic: "heic"
        case .heif: "heif"
        case .pdf: "pdf"
        case .svg: "svg"
        case .bmp: "bmp"
        case .raw: "raw"
        case .avif: "avif"
        case .jpegXL: "jxl"
        case .ico: "ico"
        }
    }

    /// The usual file extension (without the dot), or nil for ``undefined``.
    public var fileExtension: String? {
        switch self {
        case .undefined: nil
        case .jpeg: "jpg"
        case .raw: "dng"
        default: name
        }
    }

    /// The MIME type, or nil for ``undefined``.
    public var mimeType: String? {
        switch self {
        case .undefined: nil
        case .jpeg: "image/jpeg"
        case .png: "image/png"
        case .gif: "image/gif"
        case .tiff: "image/tiff"
        case .webp: "image/webp"
        case .heic: "image/heic"
        case .heif: "image/heif"
        case .pdf: "application/pdf"
        case .svg: "image/svg+xml"
        case .bmp: "image/bmp"
        case .raw: "image/x-adobe-dng"
        case .avif: "image/avif"
        case .jpegXL: "image/jxl"
        // As imgproxy sends it; browsers also know the registered `image/vnd.microsoft.icon`.
        case .ico: "image/x-icon"
        }
    }

    /// The Uniform Type Identifier SDWebImage uses as a type hint.
    public var typeIdentifier: String? {
        switch self {
        case .undefined: nil
        case .jpeg: "public.jpeg"
        case .png: "public.png"
        case .gif: "com.compuserve.gif"
        case .tiff: "public.tiff"
        case .webp: "org.webmproject.webp"
        case .heic: "public.heic"
        case .heif: "public.heif"
        case .pdf: "com.adobe.pdf"
        case .svg: "public.svg-image"
        case .bmp: "com.microsoft.bmp"
        case .raw: "public.camera-raw-image"
        case .avif: "public.avif"
        case .jpegXL: "public.jxl"
        case .ico: "com.microsoft.ico"
        }
    }

    /// The format a file extension names (case-insensitive, with or without a leading dot).
    public init(fileExtension: String) {
        var ext = fileExtension.lowercased()
        if ext.hasPrefix(".") { ext.removeFirst() }
        switch ext {
        case "jpg", "jpeg", "jpe", "jfif": self = .jpeg
        case "png", "apng": self = .png
        case "gif": self = .gif
        case "tif", "tiff": self = .tiff
        case "webp": self = .webp
        case "heic", "heics": self = .heic
        case "heif", "heifs": self = .heif
        case "pdf": self = .pdf
        case "svg": self = .svg
        case "bmp": self = .bmp
        case "dng", "nef", "cr2", "arw", "raw": self = .raw
        case "avif": self = .avif
        case "jxl": self = .jpegXL
        case "ico": self = .ico
        default: self = .undefined
        }
    }

    /// The format a Uniform Type Identifier names, or ``undefined``.
    public init(typeIdentifier: String) {
        self = ImageFormat.allCases.first { $0.typeIdentifier == typeIdentifier } ?? .undefined
    }

    /// The format a MIME type names (parameters such as `; charset=` are ignored), or ``undefined``.
    public init(mimeType: String) {
        // The common case, a type exactly as this package writes it, without splitting or lowercasing.
        if let exact = ImageFormat.allCases.first(where: { $0.mimeType == mimeType }) {
            self = exact
            return
        }
        let bare =
            mimeType.split(separator: ";").first.map {
                $0.trimmingCharacters(in: .whitespaces).lowercased()
            } ?? ""
        if bare == "image/jpg" || bare == "image/pjpeg" {
            self = .jpeg
            return
        }
        if bare == "image/vnd.microsoft.icon" {
            self = .ico
            return
        }
        self = ImageFormat.allCases.first { $0.mimeType == bare } ?? .undefined
    }
}
