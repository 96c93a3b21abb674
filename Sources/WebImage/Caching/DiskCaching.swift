import Foundation

/// What a disk-cache entry records beside its bytes.
public struct DiskCacheMetadata: Sendable, Equatable, Codable {
    /// The response's `Content-Type`, if the data came from HTTP.
    public var contentType: String?
    /// HTTP validators for revalidation (`If-None-Match` / `If-Modified-Since`).
    public var etag: String?
    public var lastModified: String?
    /// The response's `Cache-Control`, as sent (an image service passes it on to its clients).
    public var cacheControl: String?
    /// When the entry was written.
    public var storeDate: Date
    /// Until when the entry is fresh (from `Cache-Control: max-age` or `Expires`); nil = no HTTP freshness.
    public var expirationDate: Date?
    /// The user's "extended data" (SDWebImage keeps it in an xattr).
    public var extendedData: Data?

    public init(
        contentType: String? = nil, etag: String? = nil, lastModified: String? = nil, storeDate: Date = Date(),
        expirationDate: Date? = nil, extendedData: Data? = nil, cacheControl: String? = nil
    ) {
        self.contentType = contentType
        self.cacheControl = cacheControl
        self.etag = etag
        self.lastModified = lastModified
        self.storeDate = storeDate
        self.expirationDate = expirationDate
        self.extendedData = extendedData
    }
}

/// One entry read back from disk: the bytes and what was recorded with them.
public struct DiskCacheEntry: Sendable, Equatable {
    public var data: Data
    public var metadata: DiskCacheMetadata

    public init(data: Data, metadata: DiskCacheMetadata) {
        self.data = data
        self.metadata = metadata
    }
}

/// A cache of encoded bytes on disk (`SDDiskCacheProtocol`). Calls block on file I/O: the
/// ``ImageCache`` facade runs them off the caller. Thread-safe, and safe for several processes
/// sharing one directory.
public protocol DiskCaching: AnyObject, Sendable {
    func containsData(forKey key: String) -> Bool
    /// The bytes for `key`, or nil on a miss. A corrupt entry is removed and reads as a miss.
    func data(forKey key: String) -> Data?
    /// The bytes and metadata for `key`, or nil on a miss (corrupt entries as for ``data(forKey:)``).
    func entry(forKey key: String) -> DiskCacheEntry?
    /// Writes atomically: readers see the old entry or the new one, never a mix.
    func setData(_ data: Data, forKey key: String, metadata: DiskCacheMetadata?) throws(WebImageError)
    func extendedData(forKey key: String) -> Data?
    /// Sets (or with nil removes) the extended data of an existing entry.
    func setExtendedData(_ extendedData: Data?, forKey key: String) throws(WebImageError)
    func removeData(forKey key: String)
    func removeAllData() throws(WebImageError)
    /// Deletes entries past the age limit, then the oldest until under half the size limit.
    func removeExpiredData() throws(WebImageError)
    /// Where the entry for `key` lives (whether or not it exists).
    func cachePath(forKey key: String) -> String
    var totalCount: Int { get }
    /// Bytes on disk.
    var totalSize: Int { get }
}
