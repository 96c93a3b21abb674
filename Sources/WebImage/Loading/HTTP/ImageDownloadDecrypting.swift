import Foundation

/// Turns a downloaded body into image bytes before decoding (SDWebImage's
/// `SDWebImageDownloaderDecryptor`): for servers that encrypt or encode their images. A nil
/// result fails the download with ``WebImageError/badImageData(_:underlying:)``. As in SDWebImage, a
/// decryptor turns progressive loading off: partial data cannot be decrypted.
public protocol ImageDownloadDecrypting: Sendable {
    /// The decrypted bytes of the complete body `data` downloaded from `url` with response
    /// `headers`, or nil if the body cannot be decrypted.
    func decryptedData(_ data: Data, url: URL, headers: [(String, String)]) -> Data?
}

/// A decryptor made from a closure.
public struct ImageDownloadBlockDecryptor: ImageDownloadDecrypting {
    public typealias Block = @Sendable (_ data: Data, _ url: URL, _ headers: [(String, String)]) -> Data?

    private let block: Block

    public init(_ block: @escaping Block) {
        self.block = block
    }

    public func decryptedData(_ data: Data, url: URL, headers: [(String, String)]) -> Data? {
        block(data, url, headers)
    }
}

extension ImageDownloadDecrypting where Self == ImageDownloadBlockDecryptor {
    /// Base64-decodes the body (SDWebImage's `base64Decryptor`). Characters outside the base64
    /// alphabet, such as line breaks, are skipped as SDWebImage skips them; a body with bad
    /// padding, or with nothing left to decode, gives nil.
    public static var base64: ImageDownloadBlockDecryptor {
        ImageDownloadBlockDecryptor { data, _, _ in
            guard let decoded = Data(base64Encoded: data, options: .ignoreUnknownCharacters), !decoded.isEmpty else {
                return nil
            }
            return decoded
        }
    }
}
