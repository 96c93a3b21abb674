import Foundation
@_spi(Internals) import WebImage

extension FuzzBodies {
    /// The disk cache's entry reader on a whole file and, since a fuzzer rarely forges a valid
    /// checksum, its metadata reader on the bytes alone. Whatever either reads must survive a
    /// round trip: encoded again, it decodes to the same data and metadata.
    public static func cacheEntry(_ data: Data) -> FuzzReport {
        var report = FuzzReport()
        if let entry = report.step("decode", { DiskCacheEntryFormat.decode(data) }) {
            report.expectRoundTrip(of: entry, step: "decode")
        }
        let metadata = report.step("decodeMetadata") {
            data.withUnsafeBytes { DiskCacheEntryFormat.decodeMetadata($0) }
        }
        if let metadata {
            report.expectRoundTrip(of: DiskCacheEntry(data: data, metadata: metadata), step: "decodeMetadata")
        }
        return report
    }
}

extension FuzzReport {
    fileprivate mutating func expectRoundTrip(of entry: DiskCacheEntry, step: String) {
        let file = self.step("\(step) re-encode") {
            try DiskCacheEntryFormat.encode(data: entry.data, metadata: entry.metadata)
        }
        guard let file else { return }
        let again = DiskCacheEntryFormat.decode(file)
        expect(
            again == entry,
            "\(step): a re-encoded entry reads back as \(again.map { Self.describe($0) } ?? "corrupt"), "
                + "not \(Self.describe(entry))")
    }

    /// Dates as raw seconds: `Date.description` traps on some values a fuzzer writes (NaN).
    private static func describe(_ entry: DiskCacheEntry) -> String {
        let metadata = entry.metadata
        let dates = [metadata.storeDate, metadata.expirationDate].map { $0.map { "\($0.timeIntervalSince1970)" } }
        let strings = [metadata.contentType, metadata.etag, metadata.lastModified].map {
            $0.map { "\($0.debugDescription)" }
        }
        let fields = dates + strings + [metadata.extendedData.map { "\($0.count) bytes" }]
        return "\(entry.data.count) bytes, metadata "
            + fields.map { $0 ?? "nil" }.joined(separator: ", ")
    }
}
