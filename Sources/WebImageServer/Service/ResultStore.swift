#if Server
    import Foundation
    import WebImage

    /// Processed results on disk and, when configured, in S3 behind it, under their result key,
    /// with their content type, ETag, creation time and what the source said about caching
    /// (``SourceCaching``) kept in the entry's metadata.
    struct ResultStore: Sendable {
        let disk: DiskCache?
        let s3: S3Store?

        /// The stored result for `key` and the tier it came from (`disk`, then `s3`); a result
        /// found only in S3 is written to the disk in the background.
        func result(forKey key: String) async -> (result: ProcessedResult, tier: String)? {
            if let disk, let entry = await FileIO.read({ disk.entry(forKey: key) }), let result = Self.result(entry) {
                return (result, "disk")
            }
            guard let s3, let entry = await s3.entry(forKey: key), let result = Self.result(entry) else { return nil }
            if let disk {
                FileIOExecutor.shared.enqueue { try? disk.setData(entry.data, forKey: key, metadata: entry.metadata) }
            }
            return (result, "s3")
        }

        /// Writes `result` to the disk and to S3, both in the background.
        func store(_ result: ProcessedResult, forKey key: String) {
            let metadata = DiskCacheMetadata(
                contentType: result.contentType, etag: result.etag, lastModified: result.source.lastModified,
                storeDate: result.created, expirationDate: result.source.expiration,
                cacheControl: result.source.cacheControl)
            let data = result.data
            if let disk {
                FileIOExecutor.shared.enqueue { try? disk.setData(data, forKey: key, metadata: metadata) }
            }
            s3?.store(data, metadata: metadata, forKey: key)
        }

        private static func result(_ entry: DiskCacheEntry) -> ProcessedResult? {
            guard let contentType = entry.metadata.contentType, let etag = entry.metadata.etag else { return nil }
            var result = ProcessedResult(
                data: entry.data, contentType: contentType, etag: etag, created: entry.metadata.storeDate)
            result.source = SourceCaching(entry.metadata)
            return result
        }
    }
#endif
