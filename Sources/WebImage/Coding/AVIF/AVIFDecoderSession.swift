import CAVIF
import Foundation

/// Owns an `avifDecoder` over a private copy of the file (libavif keeps pointers into the data
/// for the decoder's lifetime), parsed with the pixel and frame limits set before any AV1 data
/// is decoded. Remembers its position so that sequential frames cost one decode each.
///
/// Not thread-safe: `DecoderSessionAnimationProvider` keeps it behind a lock.
final class AVIFDecoderSession: AnimationDecoderSession {
    private let bytes: UnsafeMutableRawBufferPointer
    private let decoder: UnsafeMutablePointer<avifDecoder>
    let size: PixelSize
    let frameCount: Int
    let hasAlpha: Bool
    /// Seconds per frame (a still has one entry, 0).
    let durations: [Double]
    /// libavif 0.11 reads no repetition count: sequences loop forever.
    let loopCount = 0
    /// The size frames are resampled to, or nil for the stored size.
    var outputSize: PixelSize?
    /// The index of the frame last decoded into `decoder.image`, or -1.
    private var currentIndex = -1

    /// Parses `data`; a picture larger than `maxPixelCount` or a sequence of more than
    /// `maxFrameCount` frames is refused before decoding.
    init(data: Data, maxPixelCount: Int, maxFrameCount: Int) throws(WebImageError) {
        guard let decoder = avifDecoderCreate() else { throw .badImageData("libavif could not make a decoder") }
        let copy = UnsafeMutableRawBufferPointer.allocate(byteCount: max(data.count, 1), alignment: 16)
        if !data.isEmpty { data.copyBytes(to: copy) }
        decoder.pointee.maxThreads = 1
        // Parsed under libavif's own limit (16384 × 16384; it refuses higher ones), so that a
        // picture above ours is told apart (`imageTooLarge`) from a broken file; ours then
        // bounds what the AV1 decoder may allocate.
        decoder.pointee.imageSizeLimit = UInt32(AVIF_DEFAULT_IMAGE_SIZE_LIMIT)
        decoder.pointee.imageCountLimit = UInt32(clamping: max(1, maxFrameCount))
        decoder.pointee.ignoreXMP = AVIF_FALSE
        decoder.pointee.ignoreExif = AVIF_FALSE
        let parsed = avifDecoderSetIOMemory(decoder, copy.baseAddress!.assumingMemoryBound(to: UInt8.self), data.count)
        let result = parsed == AVIF_RESULT_OK ? avifDecoderParse(decoder) : parsed
        guard result == AVIF_RESULT_OK, let image = decoder.pointee.image else {
            avifDecoderDestroy(decoder)
            copy.deallocate()
            throw Self.error(result, "reading the AVIF file")
        }
        let width = Int(image.pointee.width)
        let height = Int(image.pointee.height)
        guard width > 0, height > 0, decoder.pointee.imageCount > 0 else {
            avifDecoderDestroy(decoder)
            copy.deallocate()
            throw .badImageData("the AVIF file claims a size of \(width)x\(height) pixels")
        }
        if width * height > maxPixelCount {
            avifDecoderDestroy(decoder)
            copy.deallocate()
            throw .imageTooLarge(width: width, height: height, limit: maxPixelCount)
        }
        decoder.pointee.imageSizeLimit = UInt32(
            clamping: min(max(1, maxPixelCount), Int(AVIF_DEFAULT_IMAGE_SIZE_LIMIT)))
        self.bytes = copy
        self.decoder = decoder
        self.size = PixelSize(width: width, height: height)
        self.frameCount = Int(decoder.pointee.imageCount)
        self.hasAlpha = decoder.pointee.alphaPresent != AVIF_FALSE
        var durations: [Double] = []
        durations.reserveCapacity(frameCount)
        for index in 0..<frameCount {
            var timing = avifImageTiming()
            let known = avifDecoderNthImageTiming(decoder, UInt32(index), &timing) == AVIF_RESULT_OK
            durations.append(known && timing.duration.isFinite ? max(0, timing.duration) : 0)
        }
        self.durations = durations
    }

    deinit {
        avifDecoderDestroy(decoder)
        bytes.deallocate()
    }

    /// How the picture must be turned to show upright: the container's `irot` (anticlockwise
    /// quarter turns) then `imir`, as the EXIF orientation that does the same.
    var orientation: ImageOrientation {
        guard let image = decoder.pointee.image else { return .up }
        let flags = image.pointee.transformFlags
        let angle = flags & AVIF_TRANSFORM_IROT.rawValue != 0 ? Int(image.pointee.irot.angle) % 4 : 0
        let mirror = flags & AVIF_TRANSFORM_IMIR.rawValue != 0 ? Int(image.pointee.imir.mode) : -1
        // Rows: angle 0...3; columns: no mirror, top-bottom (mode 0), left-right (mode 1).
        let table: [[Int]] = [[1, 4, 2], [8, 5, 7], [3, 2, 4], [6, 7, 5]]
        return ImageOrientation(exifValue: table[angle][mirror + 1])
    }

    /// Bytes libavif holds for the current frame's YUV (and alpha) planes, about.
    var heldByteCount: Int { currentIndex < 0 ? 0 : size.pixelCount * (hasAlpha ? 4 : 3) }

    /// The container's ICC profile, EXIF and XMP (after the first frame is parsed).
    func metadata(_ kinds: ImageMetadata.Kinds) -> ImageMetadata {
        guard let image = decoder.pointee.image else { return ImageMetadata() }
        func bytes(_ data: avifRWData) -> Data? {
            guard data.size > 0, let pointer = data.data else { return nil }
            return Data(bytes: pointer, count: data.size)
        }
        var metadata = ImageMetadata()
        if kinds.contains(.iccProfile) { metadata.iccProfile = bytes(image.pointee.icc) }
        if kinds.contains(.exif), let exif = bytes(image.pointee.exif) {
            // Some writers keep JPEG's `Exif\0\0` in front of the TIFF data.
            metadata.exif = exif.starts(with: EXIFOrientation.signature) ? Data(exif.dropFirst(6)) : exif
        }
        if kinds.contains(.xmp) { metadata.xmp = bytes(image.pointee.xmp) }
        return metadata
    }

    /// Frame `index` as 8-bit RGBA (10- and 12-bit planes are scaled down by libavif), at
    /// ``outputSize``.
    func frame(at index: Int) throws(WebImageError) -> ImageBitmap {
        guard index >= 0, index < frameCount else {
            throw .invalidArgument("frame index \(index) is outside 0..<\(frameCount)")
        }
        if index != currentIndex {
            let result =
                index == currentIndex + 1 ? avifDecoderNextImage(decoder) : avifDecoderNthImage(decoder, UInt32(index))
            guard result == AVIF_RESULT_OK else {
                currentIndex = -1
                _ = avifDecoderReset(decoder)
                throw Self.error(result, "decoding frame \(index) of the AVIF file")
            }
            currentIndex = index
        }
        guard let image = decoder.pointee.image,
            Int(image.pointee.width) == size.width, Int(image.pointee.height) == size.height
        else {
            throw .badImageData("frame \(index) of the AVIF file does not match its declared size")
        }
        let bitmap = try ImageBitmap(width: size.width, height: size.height) { buffer throws(WebImageError) in
            var rgb = avifRGBImage()
            avifRGBImageSetDefaults(&rgb, image)
            rgb.depth = 8
            rgb.format = AVIF_RGB_FORMAT_RGBA
            rgb.alphaPremultiplied = AVIF_FALSE
            rgb.pixels = buffer.baseAddress
            rgb.rowBytes = UInt32(size.width * 4)
            let result = avifImageYUVToRGB(image, &rgb)
            guard result == AVIF_RESULT_OK else { throw Self.error(result, "converting the AVIF frame to RGB") }
        }
        guard let outputSize else { return bitmap }
        return try bitmap.resampled(to: outputSize)
    }

    /// A typed error for a libavif result, in words.
    static func error(_ result: avifResult, _ doing: String) -> WebImageError {
        .badImageData("\(doing): \(String(cString: avifResultToString(result)))")
    }
}
