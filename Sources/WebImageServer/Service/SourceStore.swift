#if Server
    import Foundation
    import WebImage

    /// Source bytes: from the disk cache (under the source URL as key), else from S3 when sources
    /// are kept there (then also written to the disk), else downloaded (shared with concurrent
    /// downloads of the same URL) and then written to the disk and S3 in the background. The
    /// source's response headers that matter downstream (`Last-Modified`, `Cache-Control`, its
    /// freshness) are kept with the bytes.
    struct SourceStore: Sendable {
        let downloader: ImageDownloader
        let disk: DiskCache?
        /// Set only when sources are kept in S3 as well as results.
        let s3: S3Store?
        /// When tracing, a download carries the current span's `traceparent`.
        let tracing: ServiceTracing

        /// What a conditional fetch found.
        enum Fetch: Sendable {
            /// The source, with its response headers.
            case source(DiskCacheEntry)
            /// The source answered 304 to the client's own validators.
            case notModified
        }

        /// The source's bytes, from a cache or downloaded; `downloaded` hears how many came over the
        /// network (not on a cache hit).
        func data(for url: URL, downloaded: (Int) -> Void = { _ in }) async throws(ServiceError) -> Data {
            switch try await fetch(url, validators: nil, downloaded: downloaded) {
            case .source(let entry): return entry.data
            case .notModified: throw Self.unexpectedNotModified
            }
        }

        /// A 304 to a fetch without validators, which sent nothing a 304 could answer.
        static let unexpectedNotModified = ServiceError.badGateway(
            "the source answered 304 to an unconditional request")

        /// The source from a cache, else downloaded; with `validators` (the client's `If-None-Match`
        /// and `If-Modified-Since`, as ``DiskCacheMetadata/etag`` and ``DiskCacheMetadata/lastModified``)
        /// a download asks conditionally, and a 304 comes back as ``Fetch/notModified``. A cached
        /// source is never revalidated: the client's validators describe a result, not our copy.
        func fetch(_ url: URL, validators: DiskCacheMetadata?, downloaded: (Int) -> Void = { _ in })
            async throws(ServiceError) -> Fetch
        {
            let key = "source:" + url.absoluteString
            if let disk, let cached = await FileIO.read({ disk.entry(forKey: key) }) { return .source(cached) }
            if let s3, let entry = await s3.entry(forKey: key) {
                if let disk {
                    FileIOExecutor.shared.enqueue {
                        try? disk.setData(entry.data, forKey: key, metadata: entry.metadata)
                    }
                }
                return .source(entry)
            }
            let entry: DiskCacheEntry
            do {
                entry = try await downloader.downloadEntry(
                    with: url, options: validators == nil ? [] : [.ignoreCachedResponse],
                    context: context(validators: validators))
            } catch .cacheNotModified {
                return .notModified
            } catch {
                throw ServiceErrorMapping.map(error)
            }
            downloaded(entry.data.count)
            if let disk {
                FileIOExecutor.shared.enqueue { try? disk.setData(entry.data, forKey: key, metadata: entry.metadata) }
            }
            s3?.store(entry.data, metadata: entry.metadata, forKey: key)
            return .source(entry)
        }

        /// The start of the source, up to where `suffices` accepts it: the whole of it from a cache,
        /// else as much of the download as it takes. A download that ended before that (the whole
        /// source) is cached as ``fetch(_:validators:downloaded:)`` caches it; a prefix never is.
        func prefix(of url: URL, suffices: @escaping @Sendable (Data) -> Bool) async throws(ServiceError)
            -> DownloadedPrefix
        {
            let key = "source:" + url.absoluteString
            if let disk, let cached = await FileIO.read({ disk.entry(forKey: key) }) {
                return DownloadedPrefix(data: cached.data, isComplete: true, metadata: cached.metadata)
            }
            if let s3, let entry = await s3.entry(forKey: key) {
                return DownloadedPrefix(data: entry.data, isComplete: true, metadata: entry.metadata)
            }
            let prefix: DownloadedPrefix
            do {
                prefix = try await downloader.downloadPrefix(
                    with: url, context: context(validators: nil), suffices: suffices)
            } catch {
                throw ServiceErrorMapping.map(error)
            }
            if prefix.isComplete, let metadata = prefix.metadata {
                if let disk {
                    FileIOExecutor.shared.enqueue { try? disk.setData(prefix.data, forKey: key, metadata: metadata) }
                }
                s3?.store(prefix.data, metadata: metadata, forKey: key)
            }
            return prefix
        }

        /// A download context with the trace headers of the current span, when tracing, and the
        /// client's validators; nil when neither applies.
        private func context(validators: DiskCacheMetadata?) -> WebImageContext? {
            let headers = tracing.propagationHeaders()
            var context = WebImageContext()
            var used = false
            if !headers.isEmpty, let fields = try? ImageDownloadHeaders(headers) {
                context.downloadRequestModifier = ImageDownloadRequestModifier(headers: fields)
                used = true
            }
            if let validators {
                context.loaderCachedMetadata = validators
                used = true
            }
            return used ? context : nil
        }
    }

    /// Blocking file work, run on the library's file threads rather than the caller's.
    enum FileIO {
        static func read<T: Sendable>(_ body: @escaping @Sendable () -> T) async -> T {
            await FileIOExecutor.shared.run { () throws(Never) -> T in body() }
        }
    }
#endif
