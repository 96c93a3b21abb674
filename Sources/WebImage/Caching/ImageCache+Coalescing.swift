import Foundation

/// What a disk query produced: the decoded image (nil on a miss), the bytes and their metadata.
struct DiskLoad: Sendable {
    var image: Image?
    var data: Data?
    var metadata: DiskCacheMetadata?

    static let miss = DiskLoad()
}

/// Identifies disk queries whose results are interchangeable: same key, same decode options,
/// same coder. Hashing leaves the options out (they are only `Equatable`); equality checks them.
struct InFlightKey: Hashable {
    let key: String
    let options: ImageDecodeOptions
    /// The context's coder object, or nil for the shared registry.
    let coder: ObjectIdentifier?
    /// Set for a query that must not share (a coder that is a value, whose identity is unknown).
    let solo: UInt64?

    static func == (lhs: InFlightKey, rhs: InFlightKey) -> Bool {
        lhs.key == rhs.key && lhs.coder == rhs.coder && lhs.solo == rhs.solo && lhs.options == rhs.options
    }

    func hash(into hasher: inout Hasher) {
        hasher.combine(key)
        hasher.combine(coder)
        hasher.combine(solo)
    }
}

/// The disk queries under way (guarded by ``ImageCache/inFlight``).
struct InFlightTable: ~Copyable {
    typealias Waiter = CheckedContinuation<DiskLoad, any Error>

    struct Work {
        /// Tells this work from a later one for the same key, after this one was abandoned.
        let generation: UInt64
        var waiters: [UInt64: Waiter]
    }

    var works: [InFlightKey: Work] = [:]
    private var lastID: UInt64 = 0

    mutating func makeID() -> UInt64 {
        lastID &+= 1
        return lastID
    }
}

extension ImageCache {
    /// Reads and decodes `key` from disk, sharing the read and the decode with every concurrent
    /// query for the same key and options (Kingfisher #966 read the same file once per caller).
    /// A cancelled caller leaves with ``WebImageError/cancelled`` while the work goes on for the
    /// others; when the last one leaves, the work is dropped before its next step.
    func sharedDiskLoad(forKey key: String, options: ImageDecodeOptions, coder: (any ImageCoding)?) async throws
        -> DiskLoad
    {
        let decoder: any ImageCoding = coder ?? ImageCodersManager.shared
        let (flightKey, waiterID) = inFlight.withLock { table in
            var identity: ObjectIdentifier?
            var solo: UInt64?
            if let coder {
                if type(of: coder) is AnyClass {
                    identity = ObjectIdentifier(coder as AnyObject)
                } else {
                    solo = table.makeID()
                }
            }
            return (InFlightKey(key: key, options: options, coder: identity, solo: solo), table.makeID())
        }
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: InFlightTable.Waiter) in
                let generation: UInt64? = inFlight.withLock { table in
                    // Cancelled before joining: the handler below found nothing to resume.
                    if Task.isCancelled {
                        continuation.resume(throwing: WebImageError.cancelled)
                        return nil
                    }
                    if table.works[flightKey] != nil {
                        table.works[flightKey]?.waiters[waiterID] = continuation
                        return nil
                    }
                    let generation = table.makeID()
                    table.works[flightKey] = InFlightTable.Work(
                        generation: generation, waiters: [waiterID: continuation])
                    return generation
                }
                if let generation {
                    ioQueue.async { [self] in
                        runDiskLoad(flightKey, generation: generation, decoder: decoder)
                    }
                }
            }
        } onCancel: {
            let waiter: InFlightTable.Waiter? = inFlight.withLock { table in
                guard var work = table.works[flightKey], let waiter = work.waiters.removeValue(forKey: waiterID) else {
                    return nil
                }
                table.works[flightKey] = work.waiters.isEmpty ? nil : work
                return waiter
            }
            waiter?.resume(throwing: WebImageError.cancelled)
        }
    }

    /// The shared work of one ``sharedDiskLoad(forKey:options:coder:)``; runs on ``ioQueue``.
    private func runDiskLoad(_ flightKey: InFlightKey, generation: UInt64, decoder: any ImageCoding) {
        let isWanted: @Sendable () -> Bool = { [self] in
            inFlight.withLock { $0.works[flightKey]?.generation == generation }
        }
        guard isWanted() else { return }
        let load = loadFromDisk(forKey: flightKey.key, options: flightKey.options, decoder: decoder, isWanted: isWanted)
        let waiters: [InFlightTable.Waiter] = inFlight.withLock { table in
            guard let work = table.works[flightKey], work.generation == generation else { return [] }
            table.works[flightKey] = nil
            return Array(work.waiters.values)
        }
        for waiter in waiters {
            waiter.resume(returning: load)
        }
    }

    /// Reads `key` from the disk cache, else from the additional path, and decodes it. Bytes
    /// from the disk cache that are bad image data are removed: a corrupt entry must not keep
    /// failing (or be served) on every later query. Other decode failures only miss.
    func loadFromDisk(
        forKey key: String, options: ImageDecodeOptions, decoder: any ImageCoding, isWanted: () -> Bool
    ) -> DiskLoad {
        var data: Data?
        var metadata: DiskCacheMetadata?
        var fromDiskCache = false
        if let entry = diskCache.entry(forKey: key) {
            data = entry.data
            metadata = entry.metadata
            fromDiskCache = true
        } else if let path = additionalCachePathProvider?(key), !path.isEmpty, !path.contains("\0") {
            data = try? Data(contentsOf: URL(fileURLWithPath: path))
        }
        guard let data, !data.isEmpty, isWanted() else { return .miss }
        do {
            return DiskLoad(image: try decoder.decode(data, options: options), data: data, metadata: metadata)
        } catch let error where error.code == .badImageData {
            if fromDiskCache { diskCache.removeData(forKey: key) }
            return .miss
        } catch {
            // Not corrupt: this request's limits (imageTooLarge) or its coder (unsupportedFormat)
            // cannot take the bytes, but other requests can. Keep the entry.
            return .miss
        }
    }
}
