import Foundation

/// The metadata blocks a file carried besides its pixels: EXIF, the ICC colour profile and XMP,
/// each as the raw bytes the format stores.
///
/// Decoders fill in the kinds ``ImageDecodeOptions/readMetadata`` asks for (the ICC profile by
/// default); encoders write the kinds ``ImageEncodeOptions/keptMetadata`` keeps (the ICC profile
/// by default) to JPEG, PNG and WebP. GIF stores none of them.
public struct ImageMetadata: Sendable, Hashable {
    /// The EXIF block as TIFF-structured data (starting `II*\0` or `MM\0*`), without the
    /// `Exif\0\0` header a JPEG puts in front of it.
    public var exif: Data?
    /// The ICC colour profile the pixels are in. Pixels are not converted: the profile says what
    /// their values mean, so it travels with them.
    public var iccProfile: Data?
    /// The XMP packet (XML, UTF-8).
    public var xmp: Data?

    public init(exif: Data? = nil, iccProfile: Data? = nil, xmp: Data? = nil) {
        self.exif = exif
        self.iccProfile = iccProfile
        self.xmp = xmp
    }

    /// Which blocks of metadata to read or write.
    public struct Kinds: OptionSet, Sendable, Hashable {
        public let rawValue: Int
        public init(rawValue: Int) { self.rawValue = rawValue }

        /// The EXIF block (camera settings, date, and often the place a photo was taken).
        public static let exif = Kinds(rawValue: 1 << 0)
        /// The ICC colour profile.
        public static let iccProfile = Kinds(rawValue: 1 << 1)
        /// The XMP packet.
        public static let xmp = Kinds(rawValue: 1 << 2)
        /// Every kind.
        public static let all: Kinds = [.exif, .iccProfile, .xmp]
    }

    /// Whether no block is present.
    public var isEmpty: Bool { exif == nil && iccProfile == nil && xmp == nil }

    /// The bytes the blocks take (part of ``Image/memoryCost``).
    public var byteCount: Int { (exif?.count ?? 0) + (iccProfile?.count ?? 0) + (xmp?.count ?? 0) }

    /// Only the blocks of `kinds`.
    public func filtered(to kinds: Kinds) -> ImageMetadata {
        ImageMetadata(
            exif: kinds.contains(.exif) ? exif : nil,
            iccProfile: kinds.contains(.iccProfile) ? iccProfile : nil,
            xmp: kinds.contains(.xmp) ? xmp : nil)
    }

    /// What an encoder writes: the blocks of `kinds`, with the EXIF orientation set to upright
    /// because encoders write upright pixels. Other EXIF tags (such as the pixel dimensions) are
    /// copied as they are.
    func forEncoding(_ kinds: Kinds) -> ImageMetadata {
        var kept = filtered(to: kinds)
        if let exif = kept.exif { kept.exif = EXIFOrientation.settingUpright(inTIFF: exif) }
        return kept
    }
}
