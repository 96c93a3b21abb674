#if Server
    import Foundation
    import WebImage

    /// Source bytes: from the disk cache (under the source URL as key), else from S3 when sources
    /// are kept there (then also written to the disk), else downloaded (shared with concurrent
    /// downloads of the same URL) and then written to the disk and S3 in the background.
    struct SourceStore: Sendable {
        let downloader: ImageDownloader
        let disk: DiskCache?
        /// Set only when sources are kept in S3 as well as results.
        let s3: S3Store?
        /// When tracing, a download carries the current span's `traceparent`.
        let tracing: ServiceTracing

        /// The source's bytes; `downloaded` hears how many came over the network (not on a cache hit).
        func data(for url: URL, downloaded: (Int) -> Void = { _ in }) async throws(ServiceError) -> Data {
            let key = "source:" + url.absoluteString
            if let disk, let cached = await FileIO.read({ disk.data(forKey: key) }) { return cached }
            if let s3, let entry = await s3.entry(forKey: key) {
                if let disk {
                    FileIOExecutor.shared.enqueue { try? disk.setData(entry.data, forKey: key, metadata: nil) }
                }
                return entry.data
            }
            let data: Data
            do {
                data = try await downloader.downloadData(with: url, context: traceContext())
            } catch {
                throw ServiceErrorMapping.map(error)
            }
            downloaded(data.count)
            if let disk {
                FileIOExecutor.shared.enqueue { try? disk.setData(data, forKey: key, metadata: nil) }
            }
            s3?.store(data, metadata: nil, forKey: key)
            return data
        }

        /// A download context that adds the trace headers of the current span; nil when not tracing.
        private func traceContext() -> WebImageContext? {
            let headers = tracing.propagationHeaders()
            guard !headers.isEmpty, let fields = try? ImageDownloadHeaders(headers) else { return nil }
            var context = WebImageContext()
            context.downloadRequestModifier = ImageDownloadRequestModifier(headers: fields)
            return context
        }
    }

    /// Blocking file work, run on the library's file threads rather than the caller's.
    enum FileIO {
        static func read<T: Sendable>(_ body: @escaping @Sendable () -> T) async -> T {
            await FileIOExecutor.shared.run { () throws(Never) -> T in body() }
        }
    }
#endif
