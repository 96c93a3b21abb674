import Foundation

/// Which metadata blocks a JPEG, PNG or WebP file carries, read from its markers or chunks
/// without decoding anything (for callers that pass files through untouched, such as the image
/// service, which must not pass on EXIF it was asked to strip).
package enum MetadataProbe {
    /// The kinds of block present; empty for other formats and for files without any.
    package static func kinds(in data: Data) -> ImageMetadata.Kinds {
        guard let metadata = blocks(in: data, presenceOfProfile: true) else { return [] }
        var kinds: ImageMetadata.Kinds = []
        if metadata.exif != nil { kinds.insert(.exif) }
        if metadata.iccProfile != nil { kinds.insert(.iccProfile) }
        if metadata.xmp != nil { kinds.insert(.xmp) }
        return kinds
    }

    /// The EXIF and XMP blocks of a JPEG, PNG or WebP file; nil for other formats, which keep
    /// them where only their decoder finds them. With `presenceOfProfile`, an ICC profile shows as
    /// present (empty for a PNG, whose profile is not inflated).
    package static func blocks(in data: Data, presenceOfProfile: Bool = false) -> ImageMetadata? {
        data.withUnsafeBytes { bytes -> ImageMetadata? in
            switch ImageFormat(detecting: data) {
            case .jpeg:
                let kinds: ImageMetadata.Kinds = presenceOfProfile ? .all : [.exif, .xmp]
                return JPEGMetadata.read(kinds, from: JPEGMarkers.layout(of: bytes, throughScans: false), in: bytes)
            case .png:
                // The profile's presence is enough: no need to inflate it.
                let scan = PNGChunkScan(bytes)
                var found = PNGMetadata.read([.exif, .xmp], from: scan, in: bytes)
                if presenceOfProfile, scan.iccProfileChunk != nil { found.iccProfile = Data() }
                return found
            case .webp:
                return WebPMetadata.read(presenceOfProfile ? .all : [.exif, .xmp], in: bytes)
            default:
                return nil
            }
        }
    }

    /// The ICC profile of a JPEG, PNG or WebP file, read without decoding any pixels.
    package static func iccProfile(in data: Data) -> Data? {
        data.withUnsafeBytes { bytes in
            switch ImageFormat(detecting: data) {
            case .jpeg:
                JPEGMetadata.read(.iccProfile, from: JPEGMarkers.layout(of: bytes, throughScans: false), in: bytes)
                    .iccProfile
            case .png: PNGMetadata.read(.iccProfile, from: PNGChunkScan(bytes), in: bytes).iccProfile
            case .webp: WebPMetadata.read(.iccProfile, in: bytes).iccProfile
            default: nil
            }
        }
    }
}
