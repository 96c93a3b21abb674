import Foundation
import WebImage

/// Processed results on disk, under their result key, with their content type, ETag and
/// creation time kept in the entry's metadata.
struct ResultStore: Sendable {
    let disk: DiskCache?

    func result(forKey key: String) async -> ProcessedResult? {
        guard let disk else { return nil }
        guard let entry = await FileIO.read({ disk.entry(forKey: key) }),
            let contentType = entry.metadata.contentType, let etag = entry.metadata.etag
        else { return nil }
        return ProcessedResult(
            data: entry.data, contentType: contentType, etag: etag, created: entry.metadata.storeDate)
    }

    func store(_ result: ProcessedResult, forKey key: String) {
        guard let disk, result.failure == nil else { return }
        let metadata = DiskCacheMetadata(
            contentType: result.contentType, etag: result.etag, storeDate: result.created)
        let data = result.data
        FileIOExecutor.shared.enqueue { try? disk.setData(data, forKey: key, metadata: metadata) }
    }
}
