import Foundation

extension Data {
    /// `withUnsafeBytes` for a body that throws ``WebImageError``, keeping that type: Foundation's
    /// is `rethrows`, which widens every error to `any Error`.
    func withUnsafeBytesTyped<Result>(
        _ body: (UnsafeRawBufferPointer) throws(WebImageError) -> Result
    ) throws(WebImageError) -> Result {
        let outcome: Swift.Result<Result, WebImageError> = withUnsafeBytes { bytes in
            Swift.Result { () throws(WebImageError) -> Result in try body(bytes) }
        }
        return try outcome.get()
    }
}
