import Foundation

/// Which metadata blocks a JPEG, PNG or WebP file carries, read from its markers or chunks
/// without decoding anything (for callers that pass files through untouched, such as the image
/// service, which must not pass on EXIF it was asked to strip).
package enum MetadataProbe {
    /// The kinds of block present; empty for other formats and for files without any.
    package static func kinds(in data: Data) -> ImageMetadata.Kinds {
        let metadata: ImageMetadata = data.withUnsafeBytes { bytes in
            switch ImageFormat(detecting: data) {
            case .jpeg:
                return JPEGMetadata.read(.all, from: JPEGMarkers.layout(of: bytes, throughScans: false), in: bytes)
            case .png:
                // The profile's presence is enough: no need to inflate it.
                let scan = PNGChunkScan(bytes)
                var found = PNGMetadata.read([.exif, .xmp], from: scan, in: bytes)
                if scan.iccProfileChunk != nil { found.iccProfile = Data() }
                return found
            case .webp:
                return WebPMetadata.read(.all, in: bytes)
            default:
                return ImageMetadata()
            }
        }
        var kinds: ImageMetadata.Kinds = []
        if metadata.exif != nil { kinds.insert(.exif) }
        if metadata.iccProfile != nil { kinds.insert(.iccProfile) }
        if metadata.xmp != nil { kinds.insert(.xmp) }
        return kinds
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
