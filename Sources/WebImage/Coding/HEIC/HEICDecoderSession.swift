#if HEIC
    import CHEIF
    import Foundation

    /// A libheif context over borrowed bytes and the handle of its primary image (or of the
    /// primary image's first thumbnail, when asked for and present), parsed with the
    /// pixel limit checked (on the `ispe` size, and on the size shown after `clap`/`irot`) before
    /// any HEVC data is decoded. Lives only inside ``open(_:maxPixelCount:_:)``, which keeps the bytes alive.
    final class HEICDecoderSession {
        private let context: OpaquePointer
        private let handle: OpaquePointer
        private let bytes: UnsafeRawBufferPointer
        /// The size as shown: libheif reports it after the container's transformations.
        let shownSize: PixelSize
        let hasAlpha: Bool
        /// How the stored picture turns to show upright (`irot`/`imir`).
        let orientation: ImageOrientation
        /// Whether the handle is the primary image's embedded thumbnail.
        let isEmbeddedThumbnail: Bool

        /// Parses `data` and runs `body` on the session; the session must not escape `body`.
        /// With `thumbnail`, the session is over the primary image's first embedded thumbnail
        /// when it has one.
        static func open<T>(
            _ data: Data, maxPixelCount: Int, thumbnail: Bool = false,
            _ body: (HEICDecoderSession) throws(WebImageError) -> T
        ) throws(WebImageError) -> T {
            let result: Result<T, WebImageError> = data.withUnsafeBytes { raw in
                do throws(WebImageError) {
                    let session = try HEICDecoderSession(
                        bytes: raw, maxPixelCount: maxPixelCount, thumbnail: thumbnail)
                    return .success(try body(session))
                } catch {
                    return .failure(error)
                }
            }
            return try result.get()
        }

        private init(bytes: UnsafeRawBufferPointer, maxPixelCount: Int, thumbnail: Bool) throws(WebImageError) {
            guard let base = bytes.baseAddress, bytes.count >= 12 else {
                throw .badImageData("the HEIF file is \(bytes.count) bytes long")
            }
            HEIFLibrary.initialize()
            guard let context = heif_context_alloc() else { throw .badImageData("libheif could not make a context") }
            heif_context_set_maximum_image_size_limit(context, HEIFLibrary.maximumSide)
            var handle: OpaquePointer?
            var status = heif_context_read_from_memory_without_copy(context, base, bytes.count, nil)
            if HEIFLibrary.succeeded(status) { status = heif_context_get_primary_image_handle(context, &handle) }
            guard HEIFLibrary.succeeded(status), var handle else {
                // The message lives in the context: read it before freeing that.
                let message = HEIFLibrary.message(status)
                heif_context_free(context)
                throw .badImageData("reading the HEIF file: \(message)")
            }
            var thumbnailID: heif_item_id?
            if thumbnail, let (id, thumbnailHandle) = Self.firstThumbnail(of: handle) {
                heif_image_handle_release(handle)
                handle = thumbnailHandle
                thumbnailID = id
            }
            let width = Int(heif_image_handle_get_width(handle))
            let height = Int(heif_image_handle_get_height(handle))
            guard width > 0, height > 0 else {
                heif_image_handle_release(handle)
                heif_context_free(context)
                throw .badImageData("the HEIF file claims a size of \(width)x\(height) pixels")
            }
            // The HEVC picture is decoded at its `ispe` size and only then cropped by `clap` (an
            // encoder may pad 64x48 to 64x64), so that size is checked too.
            let codedWidth = Int(heif_image_handle_get_ispe_width(handle))
            let codedHeight = Int(heif_image_handle_get_ispe_height(handle))
            for (checkedWidth, checkedHeight) in [(codedWidth, codedHeight), (width, height)]
            where checkedWidth * checkedHeight > maxPixelCount {
                heif_image_handle_release(handle)
                heif_context_free(context)
                throw .imageTooLarge(width: checkedWidth, height: checkedHeight, limit: maxPixelCount)
            }
            self.context = context
            self.handle = handle
            self.bytes = bytes
            self.shownSize = PixelSize(width: width, height: height)
            self.hasAlpha = heif_image_handle_has_alpha_channel(handle) != 0
            self.isEmbeddedThumbnail = thumbnailID != nil
            var item: heif_item_id = 0
            let found: Bool
            if let thumbnailID {
                item = thumbnailID
                found = true
            } else {
                found = HEIFLibrary.succeeded(heif_context_get_primary_image_ID(context, &item))
            }
            self.orientation = found ? HEIFTransforms.orientation(ofItem: item, in: bytes) : .up
        }

        /// The item ID and handle of `primary`'s first thumbnail; nil when it has none (or libheif
        /// cannot open it).
        private static func firstThumbnail(of primary: OpaquePointer) -> (heif_item_id, OpaquePointer)? {
            let count = Int(heif_image_handle_get_number_of_thumbnails(primary))
            guard count > 0, count <= 1024 else { return nil }
            var ids = [heif_item_id](repeating: 0, count: count)
            let listed = heif_image_handle_get_list_of_thumbnail_IDs(primary, &ids, Int32(count))
            guard listed > 0, let id = ids.first else { return nil }
            var thumbnail: OpaquePointer?
            guard HEIFLibrary.succeeded(heif_image_handle_get_thumbnail(primary, id, &thumbnail)), let thumbnail
            else { return nil }
            return (id, thumbnail)
        }

        deinit {
            heif_image_handle_release(handle)
            heif_context_free(context)
        }

        /// The size as stored, before ``orientation``.
        var storedSize: PixelSize {
            orientation.swapsDimensions ? PixelSize(width: shownSize.height, height: shownSize.width) : shownSize
        }

        /// Bits per sample of the primary image's luma (8, 10 or 12; -1 when libheif cannot tell).
        var bitDepth: Int { Int(heif_image_handle_get_luma_bits_per_pixel(handle)) }

        /// The primary image as 8-bit RGBA with straight alpha, turned upright by libheif (10- and
        /// 12-bit pictures are scaled down by libheif; premultiplied ones are divided out here).
        func decodeUpright() throws(WebImageError) -> ImageBitmap {
            try withDecodedPlane(chroma: heif_chroma_interleaved_RGBA, bitsPerPixel: 32, keepsHighBits: false) {
                plane, stride, decoded in
                let rowBytes = shownSize.width * 4
                var bitmap = ImageBitmap(width: shownSize.width, height: shownSize.height) { buffer in
                    for row in 0..<shownSize.height {
                        (buffer.baseAddress! + row * rowBytes).update(from: plane + row * stride, count: rowBytes)
                    }
                }
                if hasAlpha && heif_image_is_premultiplied_alpha(decoded) != 0 { bitmap.unpremultiplyAlpha() }
                return bitmap
            }
        }

        /// The primary image as 16-bit RGBA with straight alpha, turned upright by libheif: each
        /// sample of n bits (9 to 16) widened by repeating its top bits below it (a 10-bit `v`
        /// becomes `v << 6 | v >> 4`), so that the largest value becomes 65535.
        func decodeUprightDeep() throws(WebImageError) -> ImageBitmap16 {
            // libheif gives little-endian samples on every host when asked to.
            let channels = hasAlpha ? 4 : 3
            let chroma = hasAlpha ? heif_chroma_interleaved_RRGGBBAA_LE : heif_chroma_interleaved_RRGGBB_LE
            return try withDecodedPlane(chroma: chroma, bitsPerPixel: Int32(channels * 16), keepsHighBits: true) {
                plane, stride, decoded throws(WebImageError) in
                let bits = Int(heif_image_get_bits_per_pixel_range(decoded, heif_channel_interleaved))
                guard (9...16).contains(bits) else {
                    throw .badImageData("the decoded HEIF image has \(bits) bits per sample, not 9 to 16")
                }
                let mask = UInt16(truncatingIfNeeded: (1 << bits) - 1)
                let up = UInt16(16 - bits)
                let down = UInt16(2 * bits - 16)
                var deep = try ImageBitmap16(width: shownSize.width, height: shownSize.height) { buffer in
                    var target = 0
                    for row in 0..<shownSize.height {
                        let source = UnsafeRawPointer(plane + row * stride)
                        for x in 0..<shownSize.width {
                            for channel in 0..<channels {
                                let stored = UInt16(
                                    littleEndian: source.loadUnaligned(
                                        fromByteOffset: (x * channels + channel) * 2, as: UInt16.self))
                                let value = stored & mask
                                buffer[target + channel] = value << up | value >> down
                            }
                            if channels == 3 { buffer[target + 3] = 65535 }
                            target += 4
                        }
                    }
                }
                if hasAlpha && heif_image_is_premultiplied_alpha(decoded) != 0 { deep.unpremultiplyAlpha() }
                return deep
            }
        }

        /// Decodes the primary image as interleaved RGB in `chroma` (`bitsPerPixel` a pixel; more
        /// than 8 bits a sample kept when `keepsHighBits`), checks that libheif made the declared
        /// size, and hands `body` the plane, its row stride in bytes and the decoded image.
        private func withDecodedPlane<T>(
            chroma: heif_chroma, bitsPerPixel: Int32, keepsHighBits: Bool,
            _ body: (UnsafePointer<UInt8>, Int, OpaquePointer) throws(WebImageError) -> T
        ) throws(WebImageError) -> T {
            guard let options = heif_decoding_options_alloc() else {
                throw .badImageData("libheif could not allocate decoding options")
            }
            defer { heif_decoding_options_free(options) }
            options.pointee.convert_hdr_to_8bit = keepsHighBits ? 0 : 1
            var decoded: OpaquePointer?
            let status = heif_decode_image(handle, &decoded, heif_colorspace_RGB, chroma, options)
            guard HEIFLibrary.succeeded(status), let decoded else {
                throw .badImageData("decoding the HEIF image: \(HEIFLibrary.message(status))")
            }
            defer { heif_image_release(decoded) }
            var stride: Int32 = 0
            let width = Int(heif_image_get_width(decoded, heif_channel_interleaved))
            let height = Int(heif_image_get_height(decoded, heif_channel_interleaved))
            guard let plane = heif_image_get_plane_readonly(decoded, heif_channel_interleaved, &stride),
                heif_image_get_bits_per_pixel(decoded, heif_channel_interleaved) == bitsPerPixel,
                width == shownSize.width, height == shownSize.height,
                Int(stride) >= width * Int(bitsPerPixel / 8)
            else {
                throw .badImageData(
                    "the decoded HEIF image is \(width)x\(height), not the declared \(shownSize.width)x\(shownSize.height)"
                )
            }
            return try body(plane, Int(stride), decoded)
        }

        /// The embedded ICC profile, EXIF (as TIFF data) and XMP that `kinds` asks for. A block
        /// larger than the file itself (libheif can assemble an item from repeated extents) is left
        /// out.
        func metadata(_ kinds: ImageMetadata.Kinds) -> ImageMetadata {
            var metadata = ImageMetadata()
            if kinds.contains(.iccProfile) {
                let size = heif_image_handle_get_raw_color_profile_size(handle)
                if size > 0, size <= bytes.count {
                    var profile = Data(count: size)
                    let status = profile.withUnsafeMutableBytes {
                        heif_image_handle_get_raw_color_profile(handle, $0.baseAddress)
                    }
                    if HEIFLibrary.succeeded(status) { metadata.iccProfile = profile }
                }
            }
            if kinds.contains(.exif), let block = metadataBlock(type: "Exif", contentType: nil) {
                metadata.exif = Self.tiff(inExifItem: block)
            }
            if kinds.contains(.xmp) {
                metadata.xmp = metadataBlock(type: "mime", contentType: "application/rdf+xml")
            }
            return metadata
        }

        /// The first metadata item of `type` (and `contentType`, for `mime` items).
        private func metadataBlock(type: String, contentType: String?) -> Data? {
            let count = Int(heif_image_handle_get_number_of_metadata_blocks(handle, type))
            guard count > 0 else { return nil }
            var ids = [heif_item_id](repeating: 0, count: count)
            let listed = Int(heif_image_handle_get_list_of_metadata_block_IDs(handle, type, &ids, Int32(count)))
            for id in ids.prefix(listed) {
                if let contentType {
                    guard let actual = heif_image_handle_get_metadata_content_type(handle, id),
                        String(cString: actual) == contentType
                    else { continue }
                }
                let size = heif_image_handle_get_metadata_size(handle, id)
                guard size > 0, size <= bytes.count else { continue }
                var block = Data(count: size)
                let status = block.withUnsafeMutableBytes { heif_image_handle_get_metadata(handle, id, $0.baseAddress) }
                if HEIFLibrary.succeeded(status) { return block }
            }
            return nil
        }

        /// An `Exif` item's TIFF data: the item starts with a 4-byte big-endian offset to the TIFF
        /// header, which some writers place after JPEG's `Exif\0\0`.
        static func tiff(inExifItem item: Data) -> Data? {
            let bytes = [UInt8](item)
            guard bytes.count >= 4 else { return nil }
            let offset = bytes[0..<4].reduce(0) { $0 << 8 | Int($1) }
            guard offset <= bytes.count - 4 else { return nil }
            var tiff = bytes[(4 + offset)...]
            if tiff.starts(with: EXIFOrientation.signature) { tiff = tiff.dropFirst(EXIFOrientation.signature.count) }
            return tiff.isEmpty ? nil : Data(tiff)
        }
    }

    /// Divides each colour of premultiplied RGBA `pixels` by its alpha (rounded), for decoders
    /// whose library hands out premultiplied pixels.
    private func unpremultiply<Sample: FixedWidthInteger & UnsignedInteger>(_ pixels: inout [Sample]) {
        let opaque = Int(Sample.max)
        pixels.withUnsafeMutableBufferPointer { buffer in
            for index in stride(from: 0, to: buffer.count, by: 4) {
                let alpha = Int(buffer[index + 3])
                guard alpha > 0, alpha < opaque else { continue }
                for channel in index..<index + 3 {
                    buffer[channel] = Sample(min(opaque, (Int(buffer[channel]) * opaque + alpha / 2) / alpha))
                }
            }
        }
    }

    extension ImageBitmap {
        fileprivate mutating func unpremultiplyAlpha() { unpremultiply(&pixels) }
    }

    extension ImageBitmap16 {
        fileprivate mutating func unpremultiplyAlpha() { unpremultiply(&pixels) }
    }
#endif
