import Foundation

extension ImageCachesManager {
    /// Queries the caches as ``queryOperationPolicy`` says; a miss if none has the image.
    nonisolated(nonsending) public func queryImage(
        forKey key: String, options: WebImageOptions = [], context: WebImageContext? = nil,
        cacheType: ImageCacheType = .all
    ) async throws -> ImageCacheQueryResult {
        let (policy, caches) = routed(\.queryPolicy)
        if caches.count == 1 {
            return try await caches[0].queryImage(forKey: key, options: options, context: context, cacheType: cacheType)
        }
        if policy == .concurrent {
            return try await withThrowingTaskGroup(of: ImageCacheQueryResult.self) { group in
                for cache in caches {
                    group.addTask {
                        try await cache.queryImage(
                            forKey: key, options: options, context: context, cacheType: cacheType)
                    }
                }
                while let result = try await group.next() {
                    if result.image != nil {
                        group.cancelAll()
                        return result
                    }
                }
                return .miss
            }
        }
        for cache in caches {
            let result = try await cache.queryImage(
                forKey: key, options: options, context: context, cacheType: cacheType)
            if result.image != nil { return result }
        }
        return .miss
    }

    /// Stores in the caches ``storeOperationPolicy`` names; the first failure is thrown after
    /// every cache was tried.
    public func store(
        _ image: Image?, data: Data? = nil, metadata: DiskCacheMetadata? = nil, forKey key: String,
        options: WebImageOptions = [], context: WebImageContext? = nil, cacheType: ImageCacheType = .all
    ) async throws {
        let (policy, caches) = routed(\.storePolicy)
        let store: @Sendable (any ImageCaching) async throws -> Void = { cache in
            try await cache.store(
                image, data: data, metadata: metadata, forKey: key, options: options, context: context,
                cacheType: cacheType)
        }
        if policy == .concurrent && caches.count > 1 {
            try await withThrowingTaskGroup(of: Void.self) { group in
                for cache in caches { group.addTask { try await store(cache) } }
                var firstError: (any Error)?
                while !group.isEmpty {
                    do { try await group.next() } catch { firstError = firstError ?? error }
                }
                if let firstError { throw firstError }
            }
            return
        }
        var firstError: (any Error)?
        for cache in caches {
            do { try await store(cache) } catch { firstError = firstError ?? error }
        }
        if let firstError { throw firstError }
    }

    /// Removes from the caches ``removeOperationPolicy`` names.
    public func removeImage(forKey key: String, cacheType: ImageCacheType = .all) async {
        let (policy, caches) = routed(\.removePolicy)
        await forEach(caches, concurrently: policy == .concurrent) {
            await $0.removeImage(forKey: key, cacheType: cacheType)
        }
    }

    /// Where the caches ``containsOperationPolicy`` names hold `key`; `.none` if none does.
    public func containsImage(forKey key: String, cacheType: ImageCacheType = .all) async -> ImageCacheType {
        let (policy, caches) = routed(\.containsPolicy)
        if policy == .concurrent && caches.count > 1 {
            return await withTaskGroup(of: ImageCacheType.self) { group in
                for cache in caches { group.addTask { await cache.containsImage(forKey: key, cacheType: cacheType) } }
                while let found = await group.next() {
                    if found != .none {
                        group.cancelAll()
                        return found
                    }
                }
                return .none
            }
        }
        for cache in caches {
            let found = await cache.containsImage(forKey: key, cacheType: cacheType)
            if found != .none { return found }
        }
        return .none
    }

    /// Clears the caches ``clearOperationPolicy`` names.
    public func clear(cacheType: ImageCacheType) async {
        let (policy, caches) = routed(\.clearPolicy)
        await forEach(caches, concurrently: policy == .concurrent) { await $0.clear(cacheType: cacheType) }
    }

    private func forEach(
        _ caches: [any ImageCaching], concurrently: Bool, _ body: @escaping @Sendable (any ImageCaching) async -> Void
    ) async {
        guard concurrently && caches.count > 1 else {
            for cache in caches { await body(cache) }
            return
        }
        await withTaskGroup(of: Void.self) { group in
            for cache in caches { group.addTask { await body(cache) } }
        }
    }
}
