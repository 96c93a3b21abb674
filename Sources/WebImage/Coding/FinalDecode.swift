import Foundation

/// The one-shot decode of a download's final bytes, kept until the bytes change: what an
/// incremental decoder answers once its data is final, so that the last image is exactly the
/// coder's ordinary decode, with every frame and metadata block.
struct FinalDecode {
    private var decoded: (count: Int, result: Result<Image, WebImageError>)?

    /// `decode(data)`, run again only if `data` grew since the last call.
    mutating func image(
        of data: Data, _ decode: (Data) throws(WebImageError) -> Image
    ) throws(WebImageError) -> Image {
        if decoded?.count != data.count {
            decoded = (data.count, Result { () throws(WebImageError) in try decode(data) })
        }
        return try decoded!.result.get()
    }
}
