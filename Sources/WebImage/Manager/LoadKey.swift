import Foundation

/// What a shared load is filed under in the manager's ``ImageManager/loads``: loads with equal
/// keys wait for one run. A load that may not share gets a key of its own.
enum LoadKey: Hashable, Sendable {
    case shared(LoadCoalescingKey)
    case unshared(UnsharedID)

    init(_ load: ImageManager.PreparedLoad) {
        self = LoadCoalescingKey(load).map { .shared($0) } ?? .unshared(.next())
    }
}

/// What makes two loads interchangeable: the same full key, options, decode and encode
/// options, caches, loader, coder and serializer. The transformer and the key filter are
/// compared through the full key, which names them (SDWebImage's contract: equal keys, equal
/// results).
///
/// Loads are never coalesced when their context holds something whose identity cannot be
/// compared, because sharing would silently apply one caller's choice to another: request
/// and response modifiers, a decryptor, a response handler (it must see its own response),
/// custom keys, a coder or serializer that is not a class instance. Nor are
/// ``WebImageOptions/refreshCached`` loads, which deliver twice.
struct LoadCoalescingKey: Hashable, Sendable {
    let fullKey: String
    let options: UInt
    let decodeOptions: ImageDecodeOptions
    let encodeOptions: ImageEncodeOptions?
    let objects: [ObjectIdentifier?]
    let cacheTypes: [ImageCacheType?]

    init?(_ load: ImageManager.PreparedLoad) {
        let context = load.context
        guard !load.options.contains(.refreshCached), context.custom.isEmpty, context.loaderCachedImage == nil,
            context.downloadRequestModifier == nil, context.downloadResponseModifier == nil,
            context.downloadDecryptor == nil, context.downloadResponseHandler == nil,
            let cache = ObjectIdentifier(instance: load.cache), let loader = ObjectIdentifier(instance: load.loader),
            let original = Self.optionalIdentity(context.originalImageCache),
            let coder = Self.optionalIdentity(context.imageCoder),
            let serializer = Self.optionalIdentity(context.cacheSerializer)
        else { return nil }
        fullKey = load.fullKey
        options = load.options.rawValue
        decodeOptions = ImageDecodeOptions(context: context, options: load.options, cacheKey: load.fullKey)
        encodeOptions = context.imageEncodeOptions
        objects = [cache, loader, original, coder, serializer]
        cacheTypes = [
            context.queryCacheType, context.storeCacheType, context.originalQueryCacheType,
            context.originalStoreCacheType,
        ]
    }

    /// `.some(nil)` for no value, `.some(id)` for a class instance, nil (cannot compare) otherwise.
    private static func optionalIdentity(_ value: Any?) -> ObjectIdentifier?? {
        guard let value else { return .some(nil) }
        return ObjectIdentifier(instance: value).map { .some($0) }
    }

    func hash(into hasher: inout Hasher) {
        hasher.combine(fullKey)
        hasher.combine(options)
    }
}
