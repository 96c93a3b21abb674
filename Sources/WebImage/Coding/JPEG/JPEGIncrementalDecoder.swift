import Foundation

/// Decodes a JPEG from a growing buffer for ``JPEGCoder``. One per download.
///
/// Each decode starts over from the first byte (libjpeg's memory source cannot resume), so it
/// runs only when it can show more: a progressive JPEG is decoded up to its last complete scan
/// and only when another scan completed; a baseline JPEG whenever bytes were added.
final class JPEGIncrementalDecoder: IncrementalImageDecoding {
    private let options: ImageDecodeOptions
    private var input = IncrementalInput()
    /// The bytes the last partial decode was attempted on.
    private var attempt: Int?
    /// The last partial image decoded.
    private var image: Image?

    init(options: ImageDecodeOptions) {
        self.options = options
    }

    func update(_ data: Data, isFinal: Bool) {
        input.update(data, isFinal: isFinal)
    }

    func currentImage() throws(WebImageError) -> Image? {
        if let final = try input.finalImage(by: JPEGCoder(), options: options) { return final }
        let snapshot = input.data
        return try snapshot.withUnsafeBytesTyped { bytes throws(WebImageError) -> Image? in
            let layout = JPEGMarkers.layout(of: bytes, throughScans: true)
            guard layout.hasFirstScanHeader else { return image }
            let usable: Int
            if layout.hasEndOfImage {
                usable = bytes.count
            } else if layout.isProgressive {
                // Only whole scans: a half-received scan would refine part of the picture.
                guard layout.completeScans > 0 else { return image }
                usable = layout.completeScansEnd
            } else {
                usable = bytes.count
            }
            guard attempt != usable else { return image }
            attempt = usable
            let prefix = UnsafeRawBufferPointer(rebasing: bytes[..<usable])
            do throws(WebImageError) {
                if let partial = try JPEGCoder.decode(prefix, options: options, partial: true) {
                    image = partial
                }
            } catch {
                // A limit violation will not go away with more data; anything else may be a
                // cut in an awkward place, so keep the last good image until the data is final.
                if error.code == .imageTooLarge { throw error }
            }
            return image
        }
    }
}
