#if Server
    import Crypto
    import Foundation
    import WebImage

    /// The `/info` answer for one source, field by field in the order imgproxy's docs list them.
    @_spi(Internals) public struct InfoReport {
        /// The source's bytes: all of them, or the first ones when only header fields were asked for.
        var data: Data
        var isComplete: Bool
        /// The length the source's response declared, when it did.
        var declaredLength: Int?
        /// What the header says.
        var info: ImageInfo
        /// The frame the pixel fields look at, decoded as shown; nil when no field needs pixels.
        var image: Image?
        var options: InfoOptions

        /// The JSON object.
        func json() -> InfoJSON {
            var fields: [(String, InfoJSON)] = []
            if options.size, let size = isComplete ? data.count : declaredLength {
                fields.append(("size", .integer(size)))
            }
            if options.format {
                fields.append(("format", .string(info.format.name)))
                fields.append(("mime_type", .string(info.format.mimeType ?? "application/octet-stream")))
            }
            if options.dimensions {
                fields += [
                    ("width", .integer(info.width)), ("height", .integer(info.height)),
                    ("orientation", .integer(info.orientation.rawValue)),
                ]
            }
            if options.colorspace || options.bands || options.sampleFormat {
                let layout = StoredLayout(of: data, info: info)
                if options.colorspace { fields.append(("colorspace", .string(layout.colorspace))) }
                if options.bands { fields.append(("bands", .integer(layout.bands))) }
                if options.sampleFormat { fields.append(("sample_format", .string(layout.sampleFormat))) }
            }
            if options.pagesNumber { fields.append(("pages_number", .integer(max(1, info.frameCount)))) }
            if options.alpha {
                fields.append(("alpha", .bool(info.hasAlpha)))
                if options.checksTransparency {
                    fields.append(("transparent", .bool(image.map { Self.isTransparent($0.bitmap) } ?? false)))
                }
            }
            if let crop = options.crop, let image { fields.append(("crop", Self.relativeCrop(crop, of: image.bitmap))) }
            if !options.hashsums.isEmpty {
                fields.append(
                    ("hashsums", .object(options.hashsums.map { ($0.rawValue, .string(Self.hashsum($0, of: data))) })))
            }
            return .object(fields)
        }

        /// Whether any pixel is not fully opaque.
        static func isTransparent(_ bitmap: ImageBitmap) -> Bool {
            bitmap.pixels.withUnsafeBufferPointer { pixels in
                var index = 3
                while index < pixels.count {
                    if pixels[index] != 255 { return true }
                    index += 4
                }
                return false
            }
        }

        /// Where the processing option `crop` with these arguments would cut `bitmap`, as
        /// fractions of its sides.
        static func relativeCrop(_ crop: ProcessingOptions.Crop, of bitmap: ImageBitmap) -> InfoJSON {
            let size = ProcessingPlan.cropSize(crop, of: bitmap.size)
            let origin = GravityPlacement.origin(
                of: size, in: bitmap.size, gravity: crop.gravity ?? .center, bitmap: bitmap)
            let width = Double(bitmap.width)
            let height = Double(bitmap.height)
            return .object([
                ("left", .number(Double(origin.x) / width)), ("top", .number(Double(origin.y) / height)),
                ("width", .number(Double(size.width) / width)), ("height", .number(Double(size.height) / height)),
            ])
        }

        /// The lowercase hex of `type`'s digest of `data`.
        static func hashsum(_ type: InfoOptions.HashsumType, of data: Data) -> String {
            func hex<D: Sequence>(_ digest: D) -> String where D.Element == UInt8 {
                digest.map { String(format: "%02x", $0) }.joined()
            }
            switch type {
            case .md5: return hex(Insecure.MD5.hash(data: data))
            case .sha1: return hex(Insecure.SHA1.hash(data: data))
            case .sha256: return hex(SHA256.hash(data: data))
            case .sha512: return hex(SHA512.hash(data: data))
            }
        }
    }
#endif
