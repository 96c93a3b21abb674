#if Server
    import Foundation
    import WebImage

    extension InfoReport {
        /// The `/info` JSON for `data` (the whole source, or its first bytes when `isComplete` is
        /// false): checks the limits and the expected checksum, decodes the page the pixel fields
        /// look at when one needs it, and writes the fields. Runs on the calling thread.
        @_spi(Internals) public static func make(
            from data: Data, isComplete: Bool = true, declaredLength: Int? = nil, options: InfoOptions,
            maxPixels: Int, maxAnimationBytes: Int = ImageDecodeOptions.defaultMaxAnimationByteCount
        ) throws(ServiceError) -> String {
            if let limit = options.maxSourceBytes, limit > 0, (declaredLength ?? data.count) > limit {
                throw .unprocessable("the source is larger than allowed")
            }
            let info: ImageInfo
            do {
                info = try ImageCodersManager.shared.imageInfo(for: data)
            } catch {
                throw ServiceErrorMapping.map(error)
            }
            guard PixelSize(width: info.width, height: info.height).pixelCount <= maxPixels else {
                throw ServiceErrorMapping.map(.imageTooLarge(width: info.width, height: info.height, limit: maxPixels))
            }
            if let expected = options.expectedHashsum, hashsum(expected.type, of: data) != expected.hex {
                throw .unprocessable("the source's \(expected.type.rawValue) is not the one the URL expects")
            }
            var report = InfoReport(
                data: data, isComplete: isComplete, declaredLength: declaredLength, info: info, image: nil,
                options: options)
            let decode = infoDecodeOptions(options, maxPixels: maxPixels, maxAnimationBytes: maxAnimationBytes)
            if options.needsPixels { report.image = try decodedPage(options.page, of: data, options: decode) }
            if options.exif || options.xmp {
                if let blocks = MetadataProbe.blocks(in: data) {
                    report.metadata = blocks
                } else if let image = report.image {
                    report.metadata = image.metadata
                } else if isComplete {
                    // Formats that keep metadata where only their decoder finds it: a tiny decode.
                    var tiny = decode
                    tiny.thumbnailPixelSize = PixelSize(width: 16, height: 16)
                    tiny.firstFrameOnly = true
                    report.metadata = try decodedPage(0, of: data, options: tiny).metadata
                }
            }
            return try report.json().text
        }

        /// Whether making the answer for `data` decodes or hashes: CPU work for the processing threads.
        static func decodes(_ data: Data, options: InfoOptions) -> Bool {
            options.needsPixels || !options.hashsums.isEmpty || options.expectedHashsum != nil
                || ((options.exif || options.xmp) && MetadataProbe.blocks(in: data) == nil)
        }

        /// Decoding for the pixel fields: upright, within the limits; small (at most 512 pixels
        /// a side) unless a field looks at every pixel (the transparency check, a crop).
        static func infoDecodeOptions(_ options: InfoOptions, maxPixels: Int, maxAnimationBytes: Int)
            -> ImageDecodeOptions
        {
            var decode = ImageDecodeOptions()
            decode.maxPixelCount = maxPixels
            decode.maxAnimationByteCount = maxAnimationBytes
            decode.firstFrameOnly = options.page == 0
            if options.exif || options.xmp { decode.readMetadata = .all }
            if !options.checksTransparency, options.crop == nil, options.page == 0 {
                decode.thumbnailPixelSize = PixelSize(width: 512, height: 512)
            }
            return decode
        }

        /// Frame `page` of `data` as a still.
        static func decodedPage(_ page: Int, of data: Data, options: ImageDecodeOptions) throws(ServiceError) -> Image {
            do {
                var image = try ImageCodersManager.shared.decode(data, options: options)
                guard page > 0 else { return image }
                let frames = image.animation?.frameCount ?? 1
                guard page < frames, let animation = image.animation else {
                    throw ServiceError.unprocessable("the source has \(frames) page(s); there is no page \(page)")
                }
                let frame = try animation.frame(at: page)
                image.bitmap = frame.bitmap
                image.animation = nil
                return image
            } catch let error as ServiceError {
                throw error
            } catch let error as WebImageError {
                throw ServiceErrorMapping.map(error)
            } catch {
                throw .internalError("decoding failed")
            }
        }
    }
#endif
