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
        /// The source's EXIF and XMP blocks, when those fields are asked for.
        var metadata = ImageMetadata()
        var options: InfoOptions

        /// The JSON object.
        func json() throws(ServiceError) -> InfoJSON {
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
            if options.exif, let exif = metadata.exif {
                let tags = ImageMetadata(exif: exif).exifFields(canonicalNames: options.exifCanonicalNames)
                if !tags.isEmpty { fields.append(("exif", Self.object(tags))) }
            }
            if options.iptc {
                let iptc = IPTCMetadata(file: data)
                if !iptc.fields.isEmpty { fields.append(("iptc", Self.object(iptc.fields))) }
                if !iptc.photoshopResolution.isEmpty {
                    fields.append(("photoshop", .object([("resolution", Self.object(iptc.photoshopResolution))])))
                }
            }
            if options.xmp, metadata.xmp != nil {
                let groups = metadata.xmpProperties()
                if !groups.isEmpty {
                    fields.append(
                        ("xmp", .object(groups.sorted { $0.key < $1.key }.map { ($0.key, Self.object($0.value)) })))
                }
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
            if let image { fields += try Self.analyses(of: image, options: options) }
            if !options.hashsums.isEmpty {
                fields.append(
                    ("hashsums", .object(options.hashsums.map { ($0.rawValue, .string(Self.hashsum($0, of: data))) })))
            }
            return .object(fields)
        }

        /// The colour and hash fields, from the decoded page.
        static func analyses(of image: Image, options: InfoOptions) throws(ServiceError) -> [(String, InfoJSON)] {
            var fields: [(String, InfoJSON)] = []
            do {
                if options.paletteColors > 0 {
                    let colors = try image.palette(maximumColors: options.paletteColors)
                    fields.append(("palette", .array(colors.map { color($0, alpha: true) })))
                }
                if options.average {
                    let average = image.averageColor(ignoringTransparent: options.averageIgnoresTransparent)
                    fields.append(("average", color(average, alpha: true)))
                }
                if options.dominantColors {
                    let found = image.dominantColors(buildsMissing: options.buildsMissingColors)
                    let swatches: [(String, RGBA8?)] = [
                        ("dark_muted", found.darkMuted), ("dark_vibrant", found.darkVibrant),
                        ("light_muted", found.lightMuted), ("light_vibrant", found.lightVibrant),
                        ("muted", found.muted), ("vibrant", found.vibrant),
                    ]
                    fields.append(
                        (
                            "dominant_colors",
                            .object(
                                swatches.compactMap { name, swatch in swatch.map { (name, color($0, alpha: false)) } })
                        ))
                }
                if let components = options.blurHash {
                    fields.append(("blurhash", .string(try image.blurHash(components: components))))
                }
                if options.thumbHash { fields.append(("thumb_hash", .string(image.thumbHashHexString()))) }
                if options.perceptualHash {
                    fields.append(("perceptual_hash", .string(image.perceptualHash().hexString)))
                }
            } catch {
                throw ServiceErrorMapping.map(error)
            }
            return fields
        }

        /// A metadata dictionary as a JSON object, keys sorted.
        static func object(_ values: [String: MetadataValue]) -> InfoJSON {
            .object(values.sorted { $0.key < $1.key }.map { ($0.key, json($0.value)) })
        }

        static func json(_ value: MetadataValue) -> InfoJSON {
            switch value {
            case .text(let text): .string(text)
            case .integer(let number): .integer(number)
            case .number(let number): .number(number)
            case .list(let items): .array(items.map(json))
            }
        }

        /// `{"R":…,"G":…,"B":…}`, with `"A"` when asked.
        static func color(_ color: RGBA8, alpha: Bool) -> InfoJSON {
            var channels: [(String, InfoJSON)] = [
                ("R", .integer(Int(color.r))), ("G", .integer(Int(color.g))), ("B", .integer(Int(color.b))),
            ]
            if alpha { channels.append(("A", .integer(Int(color.a)))) }
            return .object(channels)
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
