import Foundation
import WebImage

/// Source bytes: from the disk cache (under the source URL as key), else downloaded (shared with
/// concurrent downloads of the same URL) and then written to the cache in the background.
struct SourceStore: Sendable {
    let downloader: ImageDownloader
    let disk: DiskCache?

    /// The source's bytes; `downloaded` hears how many came over the network (not on a cache hit).
    func data(for url: URL, downloaded: (Int) -> Void = { _ in }) async throws(ServiceError) -> Data {
        let key = "source:" + url.absoluteString
        if let disk, let cached = await FileIO.read({ disk.data(forKey: key) }) { return cached }
        let data: Data
        do {
            data = try await downloader.downloadData(with: url)
        } catch {
            throw ServiceErrorMapping.map(error)
        }
        downloaded(data.count)
        if let disk {
            FileIOExecutor.shared.enqueue { try? disk.setData(data, forKey: key, metadata: nil) }
        }
        return data
    }
}

/// Blocking file work, run on the library's file threads rather than the caller's.
enum FileIO {
    static func read<T: Sendable>(_ body: @escaping @Sendable () -> T) async -> T {
        await FileIOExecutor.shared.run { () throws(Never) -> T in body() }
    }
}
