#if Server
    import Crypto
    import Foundation
    @_spi(Internals) import WebImage

    /// The S3 tier: cache entries kept as S3 objects, read and written by key like the disk cache.
    ///
    /// An object is a ``DiskCache`` entry file (magic, lengths, XXH64 checksum, metadata, data) whose
    /// extended data holds the cache key, so the checksum covers the key too. An object that is
    /// truncated, fails its checksum, is not in that format, or was stored for another key reads as
    /// a miss and is counted as corrupt; it is never served. Every S3 failure also reads as a miss
    /// (or, for a write, is dropped): the tier never fails a request.
    final class S3Store: Sendable {
        let client: S3Client
        let breaker: S3Breaker
        private let metrics: ServiceMetrics
        /// `s3.get` and `s3.put` spans; S3 requests carry their `traceparent`.
        private let tracing: ServiceTracing
        /// Lookups under way, by cache key: identical concurrent lookups share one GET.
        private let lookups = InFlightTable<String, DiskCacheEntry?, Never, WebImageError>()
        /// Writes under way, by number, for ``shutdown()`` to wait for.
        private let writes = Locked<(next: Int, tasks: [Int: Task<Void, Never>])>((0, [:]))

        init(
            configuration: S3Configuration, metrics: ServiceMetrics,
            tracing: ServiceTracing = ServiceTracing(tracer: nil)
        ) {
            self.metrics = metrics
            self.tracing = tracing
            client = S3Client(configuration: configuration, tracing: tracing) { metrics.s3RoundTrip() }
            breaker = S3Breaker(threshold: configuration.failureThreshold, coolDown: configuration.coolDown)
        }

        /// The object key for a cache key: `results/` or `sources/` (for `source:` keys) and the
        /// key's SHA-256 in hex, so any key makes a short, safe object name.
        static func objectKey(for key: String) -> String {
            let folder = key.hasPrefix("source:") ? "sources/" : "results/"
            return folder + SigV4Signer.hex(SHA256.hash(data: Data(key.utf8)))
        }

        /// The entry for `key`, or nil on a miss, a corrupt or foreign object, or any S3 failure.
        func entry(forKey key: String) async -> DiskCacheEntry? {
            let parent = tracing.currentContext
            let shared = try? await lookups.value(for: key) { [self] _ throws(WebImageError) in
                await tracing.span("s3.get", parent: parent) { await fetchEntry(forKey: key) }
            }
            return shared ?? nil
        }

        private func fetchEntry(forKey key: String) async -> DiskCacheEntry? {
            guard breaker.allowsRequests else {
                metrics.s3Lookup("skipped")
                return nil
            }
            let object: Data?
            do {
                object = try await client.get(Self.objectKey(for: key))
                breaker.succeeded()
            } catch {
                breaker.failed()
                metrics.s3Lookup("error")
                return nil
            }
            guard let object else {
                metrics.s3Lookup("miss")
                return nil
            }
            guard var entry = DiskCacheEntryFormat.decode(object), entry.metadata.extendedData == Data(key.utf8) else {
                metrics.s3Lookup("corrupt")
                return nil
            }
            metrics.s3Lookup("hit")
            entry.metadata.extendedData = nil
            return entry
        }

        /// Writes `data` under `key` in the background; the caller does not wait, and a failure is
        /// only counted.
        func store(_ data: Data, metadata: DiskCacheMetadata?, forKey key: String) {
            guard breaker.allowsRequests else {
                metrics.s3Put("skipped")
                return
            }
            var stamped = metadata ?? DiskCacheMetadata()
            stamped.extendedData = Data(key.utf8)
            // An object too large to keep says nothing about S3's health: skipped, not a failure.
            guard let object = try? DiskCacheEntryFormat.encode(data: data, metadata: stamped),
                object.count <= client.configuration.maxObjectBytes
            else {
                metrics.s3Put("skipped")
                return
            }
            // The put outlives the request; its span still hangs under the request's.
            let parent = tracing.currentContext
            // Recorded under the lock the task takes to remove itself, so it cannot finish first.
            writes.withLock { writes in
                let id = writes.next
                writes.next += 1
                writes.tasks[id] = Task { [self] in
                    do throws(ServiceError) {
                        try await tracing.span("s3.put", parent: parent) { () async throws(ServiceError) in
                            try await client.put(Self.objectKey(for: key), data: object)
                        }
                        breaker.succeeded()
                        metrics.s3Put("ok")
                    } catch {
                        breaker.failed()
                        metrics.s3Put("error")
                    }
                    _ = self.writes.withLock { $0.tasks.removeValue(forKey: id) }
                }
            }
        }

        /// Waits for the writes under way, then closes the client.
        func shutdown() async {
            while let pending = writes.withLock({ $0.tasks.first?.value }) {
                await pending.value
            }
            await client.shutdown()
        }
    }
#endif
