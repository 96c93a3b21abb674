/// The thumbnail a camera embeds in a JPEG's EXIF data: a small JPEG whose place IFD1 gives
/// (`JPEGInterchangeFormat`, tag 0x0201, and `JPEGInterchangeFormatLength`, 0x0202), stored in
/// the same orientation as the image. Used for ``ImageDecodeOptions/decodeEmbeddedThumbnail``.
enum JPEGEmbeddedThumbnail {
    /// Where the embedded JPEG lies in an APP1 payload (`Exif\0\0` and TIFF data), or nil when
    /// there is none, or its place runs outside the payload or does not start a JPEG.
    static func range(inApp1 payload: UnsafeRawBufferPointer) -> Range<Int>? {
        guard let tiff = EXIFOrientation.tiff(inApp1: payload), let reader = TIFFReader(tiff),
            let ifd0 = reader.firstIFD, let ifd1 = reader.nextIFD(after: ifd0),
            let offset = reader.integer(tag: 0x0201, inIFDAt: ifd1),
            let length = reader.integer(tag: 0x0202, inIFDAt: ifd1),
            length >= 4, offset >= 0, offset <= tiff.count - length,
            tiff[offset] == 0xFF, tiff[offset + 1] == 0xD8
        else { return nil }
        let start = EXIFOrientation.signature.count + offset
        return start..<(start + length)
    }

    /// The embedded thumbnail of the JPEG `image`, whose Exif APP1 payload lies at `app1`,
    /// decoded for `options`, when it
    /// may stand in for a thumbnail of the image: the options ask for the embedded thumbnail
    /// and for a thumbnail, the embedded one is at least that size and has the image's aspect
    /// ratio (within 2 %: some cameras pad theirs with black bars). Nil otherwise, and when the
    /// embedded JPEG does not decode; the caller then decodes the image itself.
    static func decode(
        in app1: Range<Int>, of image: UnsafeRawBufferPointer, orientation: ImageOrientation,
        options: ImageDecodeOptions
    ) -> Image? {
        guard options.decodeEmbeddedThumbnail, options.thumbnailPixelSize != .zero,
            let found = range(inApp1: UnsafeRawBufferPointer(rebasing: image[app1])),
            case let thumbnail = UnsafeRawBufferPointer(
                rebasing: image[(app1.lowerBound + found.lowerBound)..<(app1.lowerBound + found.upperBound)]),
            let stored = try? JPEGShim.withDecoder(image, { $0.header.storedSize }),
            let target = options.targetSize(storedSize: stored, orientation: orientation, frameCount: 1),
            let embedded = try? JPEGShim.withDecoder(thumbnail, { $0.header.storedSize }),
            embedded.width >= target.width, embedded.height >= target.height,
            hasSameAspectRatio(embedded, stored),
            var decoded = try? JPEGCoder.decode(thumbnail, options: options, partial: false, orientation: orientation)
        else { return nil }
        decoded.isThumbnail = true
        return decoded
    }

    private static func hasSameAspectRatio(_ a: PixelSize, _ b: PixelSize) -> Bool {
        guard a.width > 0, a.height > 0, b.width > 0, b.height > 0 else { return false }
        let ratio = (Double(a.width) / Double(a.height)) / (Double(b.width) / Double(b.height))
        return abs(ratio - 1) <= 0.02
    }
}
