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
    private var input = IncrementalInput()
    /// The byte count the last partial result was decoded from, and that result: a caller that
    /// asks again without new bytes gets it back instead of a second parse and decode.
    private var lastPartial: (count: Int, result: Result<Image?, WebImageError>)?

    init(options: ImageDecodeOptions) {
        self.options = options
    }

    func update(_ data: Data, isFinal: Bool) {
        input.update(data, isFinal: isFinal)
    }

    func currentImage() throws(WebImageError) -> Image? {
        if let final = try input.finalImage(by: GIFCoder(), options: options) { return final }
        let data = input.data
        if let lastPartial, lastPartial.count == data.count { return try lastPartial.result.get() }
        let result = Result { () throws(WebImageError) in try firstFrame(of: data) }
        lastPartial = (data.count, result)
        return try result.get()
    }

    private func firstFrame(of data: Data) throws(WebImageError) -> Image? {
        guard let container = try GIFContainer.parsePartial(data) else { return nil }
        var firstFrame = options
        firstFrame.firstFrameOnly = true
        var image = try GIFCoder().decode(container, data: data, options: firstFrame)
        image.isIncremental = true
        return image
    }
}
