import Foundation

extension ImageCachesManager {
    /// Queries the caches as ``queryOperationPolicy`` says; a miss if none has the image.
    nonisolated(nonsending) public func queryImage(
        forKey key: String, options: WebImageOptions = [], context: WebImageContext? = nil,
        cacheType: ImageCacheType = .all
    ) async throws(WebImageError) -> ImageCacheQueryResult {
        let (policy, caches) = routed(\.queryPolicy)
        if policy == .concurrent, caches.count > 1 {
            let found = await withTaskGroup(of: Result<ImageCacheQueryResult, WebImageError>.self) { group in
                for cache in caches {
                    group.addTask {
                        do throws(WebImageError) {
                            return .success(
                                try await cache.queryImage(
                                    forKey: key, options: options, context: context, cacheType: cacheType))
                        } catch {
                            return .failure(error)
                        }
                    }
                }
                while let result = await group.next() {
                    if case .success(let hit) = result, hit.image == nil { continue }
                    group.cancelAll()
                    return result
                }
                return .success(.miss)
            }
            return try found.get()
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
    ) async throws(WebImageError) {
        let (policy, caches) = routed(\.storePolicy)
        let store: @Sendable (any ImageCaching) async -> WebImageError? = { cache in
            do throws(WebImageError) {
                try await cache.store(
                    image, data: data, metadata: metadata, forKey: key, options: options, context: context,
                    cacheType: cacheType)
                return nil
            } catch {
                return error
            }
        }
        var firstError: WebImageError?
        if policy == .concurrent && caches.count > 1 {
            firstError = await withTaskGroup(of: WebImageError?.self) { group in
                for cache in caches { group.addTask { await store(cache) } }
                var first: WebImageError?
                for await error in group { first = first ?? error }
                return first
            }
        } else {
            for cache in caches {
                let error = await store(cache)
                firstError = firstError ?? error
            }
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
