import Foundation

/// What an incremental decoder was last given: the download's bytes so far and whether they are
/// all of it. Once they are, ``finalImage(by:options:)`` is the coder's one-shot decode of them,
/// so that the last image of a download is exactly the ordinary decode, with every frame and
/// metadata block; it is made once per byte count.
struct IncrementalInput {
    private(set) var data = Data()
    private(set) var isFinal = false
    private var finalDecode: (count: Int, result: Result<Image, WebImageError>)?

    mutating func update(_ data: Data, isFinal: Bool) {
        self.data = data
        self.isFinal = isFinal
    }

    /// `coder`'s decode of the final bytes, or nil while the download goes on.
    mutating func finalImage(by coder: some ImageCoding, options: ImageDecodeOptions) throws(WebImageError) -> Image? {
        guard isFinal else { return nil }
        if let finalDecode, finalDecode.count == data.count { return try finalDecode.result.get() }
        let data = data
        let result = Result { () throws(WebImageError) in try coder.decode(data, options: options) }
        finalDecode = (data.count, result)
        return try result.get()
    }
}
