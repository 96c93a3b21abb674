/// An in-memory cache of decoded images (`SDMemoryCacheProtocol`). Thread-safe.
public protocol MemoryCaching: AnyObject, Sendable {
    /// The image for `key`, marking it most recently used; nil on a miss.
    func image(forKey key: String) -> Image?
    /// Stores `image` with `cost` bytes (``ImageCache`` passes ``MemoryCache/cost(of:forKey:)``:
    /// the pixels, the key and the entry's bookkeeping), evicting as limits require.
    func setImage(_ image: Image, forKey key: String, cost: Int)
    func removeImage(forKey key: String)
    func removeAllImages()
    /// Sum of the costs of the images held.
    var totalCost: Int { get }
    /// Number of images held.
    var count: Int { get }
}
