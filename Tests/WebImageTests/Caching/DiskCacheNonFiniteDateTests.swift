import Foundation
import Testing

@_spi(Internals) @testable import WebImage

/// A NaN or infinite date is never written and reads as corrupt metadata: `Date` does not even
/// equal itself at NaN, so such an entry could not round-trip (found by fuzz-cache-entry).
@Suite struct DiskCacheNonFiniteDateTests {
    static let nonFinite: [Double] = [.nan, .infinity, -.infinity]

    @Test(arguments: nonFinite)
    func storeDateIsRefused(seconds: Double) {
        let metadata = DiskCacheMetadata(storeDate: Date(timeIntervalSince1970: seconds))
        #expect(throws: WebImageError.diskCacheFailure("metadata date is not finite")) {
            try DiskCacheEntryFormat.encode(data: Data([1]), metadata: metadata)
        }
        let bytes = DiskCacheEntryFormat.encodeMetadata(metadata)
        #expect(bytes.withUnsafeBytes { DiskCacheEntryFormat.decodeMetadata($0) } == nil)
    }

    @Test(arguments: nonFinite)
    func expirationDateIsRefused(seconds: Double) {
        let metadata = DiskCacheMetadata(storeDate: Date(), expirationDate: Date(timeIntervalSince1970: seconds))
        #expect(throws: WebImageError.diskCacheFailure("metadata date is not finite")) {
            try DiskCacheEntryFormat.encode(data: Data([1]), metadata: metadata)
        }
        let bytes = DiskCacheEntryFormat.encodeMetadata(metadata)
        #expect(bytes.withUnsafeBytes { DiskCacheEntryFormat.decodeMetadata($0) } == nil)
    }
}
