import Foundation

extension ImageCachesManager {
    /// Queries the caches as ``queryOperationPolicy`` says; a miss if none has the image.
    nonisolated(nonsending) public func queryImage(
        forKey key: String, options: WebImageOptions = [], context: WebImageContext? = nil,
        cacheType: ImageCacheType = .all
    ) async throws(WebImageError) -> ImageCacheQueryResult {
        let (policy, caches) = routed(\.queryPolicy)
        if policy == .concurrent, caches.count > 1 {
            for tier in Self.tiers(of: cacheType) {
                let found = await Self.firstAnswer(
                    of: caches,
                    ask: { cache -> Result<ImageCacheQueryResult, WebImageError> in
                        do throws(WebImageError) {
                            return .success(
                                try await cache.queryImage(
                                    forKey: key, options: options, context: context, cacheType: tier))
                        } catch {
                            return .failure(error)
                        }
                    },
                    isAnswer: { result in
                        if case .success(let hit) = result, hit.image == nil { return false }
                        return true
                    })
                if let found { return try found.get() }
            }
            return .miss
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
            for tier in Self.tiers(of: cacheType) {
                let found = await Self.firstAnswer(
                    of: caches, ask: { await $0.containsImage(forKey: key, cacheType: tier) }, isAnswer: { $0 != .none }
                )
                if let found { return found }
            }
            return .none
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

    /// The tiers a concurrent query or contains check asks in turn: every cache's memory
    /// first, then every cache's disk. SDWebImage's memory lookups answer synchronously, so a
    /// memory hit in any cache beats a disk hit in another; asking tier by tier gives that
    /// answer every time instead of whichever task ends first.
    private static func tiers(of cacheType: ImageCacheType) -> [ImageCacheType] {
        cacheType == .all ? [.memory, .disk] : [cacheType]
    }

    /// Asks all `caches` (highest priority first) at once and returns the answer of the
    /// highest-priority cache that has one, as soon as every cache above it has answered
    /// without one; nil when none has. The caches still running then are cancelled.
    private static func firstAnswer<Answer: Sendable>(
        of caches: [any ImageCaching], ask: @escaping @Sendable (any ImageCaching) async -> Answer,
        isAnswer: (Answer) -> Bool
    ) async -> Answer? {
        await withTaskGroup(of: (Int, Answer).self) { group in
            for (index, cache) in caches.enumerated() {
                group.addTask { (index, await ask(cache)) }
            }
            var answers = [Answer?](repeating: nil, count: caches.count)
            var next = 0
            while let (index, answer) = await group.next() {
                answers[index] = answer
                while next < answers.count, let settled = answers[next] {
                    if isAnswer(settled) {
                        group.cancelAll()
                        return settled
                    }
                    next += 1
                }
            }
            return nil
        }
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
