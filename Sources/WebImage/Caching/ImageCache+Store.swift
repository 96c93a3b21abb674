import Foundation

extension ImageCache {
    /// Stores `image` in memory and its bytes on disk, as `cacheType` allows (`storeImage`).
    ///
    /// Memory keeps `image` (cost ``Image/memoryCost``) when the config allows. The disk keeps
    /// `data`, or, without data, `image` encoded in SDWebImage's format (its own format if
    /// known, GIF for animations, PNG with alpha, JPEG otherwise) by the context's coder or the
    /// shared registry, with the context's encode options. Encoding and writing run on the
    /// cache's I/O queue. With neither image nor data, or an empty key, nothing happens.
    /// Throws the encoder's error, or ``WebImageError/diskCacheFailure(_:)`` when the write fails.
    public func store(
        _ image: Image?, data: Data? = nil, metadata: DiskCacheMetadata? = nil, forKey key: String,
        options: WebImageOptions = [], context: WebImageContext? = nil, cacheType: ImageCacheType = .all
    ) async throws {
        guard !key.isEmpty, image != nil || data != nil else { return }
        if cacheType.includesMemory, let image {
            storeImageToMemory(image, forKey: key)
        }
        guard cacheType.includesDisk else { return }
        let coder = context?.imageCoder
        let encodeOptions = context?.imageEncodeOptions ?? ImageEncodeOptions()
        // With bytes to write, the queued work must not keep the decoded image alive.
        let imageToEncode = data == nil ? image : nil
        try await offCaller { [self] in
            let bytes: Data
            if let data {
                bytes = data
            } else if let imageToEncode {
                bytes = try Self.encodeForDisk(imageToEncode, coder: coder, options: encodeOptions)
            } else {
                return
            }
            try storeImageDataToDisk(bytes, forKey: key, metadata: metadata)
        }
    }

    /// Writes `data` to disk under `key`, synchronously on the caller; memory is untouched
    /// (`storeImageDataToDisk`). An empty key is a no-op.
    /// Throws ``WebImageError/diskCacheFailure(_:)`` when the write fails.
    public func storeImageDataToDisk(_ data: Data, forKey key: String, metadata: DiskCacheMetadata? = nil) throws {
        guard !key.isEmpty else { return }
        do {
            try diskCache.setData(data, forKey: key, metadata: metadata)
        } catch let error as WebImageError {
            throw error
        } catch {
            throw WebImageError.diskCacheFailure("cannot write the entry for the key: \(error.localizedDescription)")
        }
    }

    /// Queues a write of `data` under `key` on the I/O queue and returns at once; `onFailure`
    /// gets the error if the write fails. For stores nobody waits for.
    func storeImageDataToDiskInBackground(
        _ data: Data, forKey key: String, metadata: DiskCacheMetadata?,
        onFailure: @escaping @Sendable (any Error) -> Void
    ) {
        ioQueue.async { [self] in
            do {
                try storeImageDataToDisk(data, forKey: key, metadata: metadata)
            } catch {
                onFailure(error)
            }
        }
    }

    /// SDWebImage's choice of bytes for an image stored without data.
    static func encodeForDisk(_ image: Image, coder: (any ImageCoding)?, options: ImageEncodeOptions) throws -> Data {
        let format = ImageCodersManager.defaultEncodingFormat(for: image)
        let encoder: any ImageCoding = coder ?? ImageCodersManager.shared
        return try encoder.encode(image, as: format, options: options)
    }
}
