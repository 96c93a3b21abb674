/// Where a cache operation looks or writes (`SDImageCacheType`, same raw values).
public enum ImageCacheType: Int, Sendable, Codable, CaseIterable {
    /// Nowhere: a query skips the cache, a store keeps nothing.
    case none = 0
    case disk = 1
    case memory = 2
    /// Memory and disk.
    case all = 3

    public var includesMemory: Bool { self == .memory || self == .all }
    public var includesDisk: Bool { self == .disk || self == .all }

    /// The places both this and `other` name (`.all` restricted to `.memory` is `.memory`).
    func restricted(to other: ImageCacheType) -> ImageCacheType {
        ImageCacheType(rawValue: rawValue & other.rawValue) ?? .none
    }
}
