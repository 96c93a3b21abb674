import Foundation

extension GIFCoder: ProgressiveImageCoding {
    /// True once the data starts with a GIF signature.
    public func canDecodeIncrementally(_ data: Data) -> Bool {
        GIFContainer.hasSignature(data)
    }

    /// A decoder that shows the first frame as its rows arrive, then the whole animation.
    public func makeIncrementalDecoder(options: ImageDecodeOptions) -> any IncrementalImageDecoding {
        GIFIncrementalDecoder(options: options)
    }
}

/// Decodes a GIF while it downloads (SDWebImage's progressive animated decoding): until the
/// data is final, the image is the first frame (rows not yet received are transparent),
/// flagged ``Image/isIncremental``; the final data decodes like ``GIFCoder/decode(_:options:)``.
final class GIFIncrementalDecoder: IncrementalImageDecoding {
    private let options: ImageDecodeOptions
    private var data = Data()
    private var isFinal = false
    /// The byte count and finality the last result was decoded from, and that result: a caller
    /// that asks again without new bytes gets it back instead of a second parse and decode.
    private var lastAttempt: (count: Int, isFinal: Bool)?
    private var lastResult: Result<Image?, WebImageError> = .success(nil)

    init(options: ImageDecodeOptions) {
        self.options = options
    }

    func update(_ data: Data, isFinal: Bool) {
        self.data = data
        self.isFinal = isFinal
    }

    func currentImage() throws(WebImageError) -> Image? {
        if let lastAttempt, lastAttempt.count == data.count, lastAttempt.isFinal == isFinal {
            return try lastResult.get()
        }
        lastAttempt = (data.count, isFinal)
        lastResult = Result { () throws(WebImageError) in try decodeCurrent() }
        return try lastResult.get()
    }

    private func decodeCurrent() throws(WebImageError) -> Image? {
        if isFinal { return try GIFCoder().decode(data, options: options) }
        guard let container = try GIFContainer.parsePartial(data) else { return nil }
        var firstFrame = options
        firstFrame.firstFrameOnly = true
        var image = try GIFCoder().decode(container, data: data, options: firstFrame)
        image.isIncremental = true
        return image
    }
}
