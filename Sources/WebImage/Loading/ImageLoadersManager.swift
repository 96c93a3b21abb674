import Foundation

/// Chains loaders (SDWebImage's `SDImageLoadersManager`): the newest loader that can request a
/// URL loads it. It is itself an ``ImageLoading``, so the manager needs no special case.
public final class ImageLoadersManager: ImageLoading {
    private let registered: Locked<[any ImageLoading]>

    /// Loaders in the order they were added; the last is asked first.
    public init(loaders: [any ImageLoading]) {
        registered = Locked(loaders)
    }

    /// The loaders, oldest first (the last one is asked first).
    public var loaders: [any ImageLoading] {
        get { registered.withLock { $0 } }
        set { registered.withLock { $0 = newValue } }
    }

    /// Adds a loader that is asked before every loader already registered.
    public func addLoader(_ loader: any ImageLoading) {
        registered.withLock { $0.append(loader) }
    }

    /// Removes every registered loader of type `type`.
    public func removeLoaders<L: ImageLoading>(ofType type: L.Type) {
        registered.withLock { $0.removeAll { $0 is L } }
    }

    /// The loader that will handle `url`: the newest whose ``ImageLoading/canRequestImage(for:options:context:)`` is true.
    public func loader(
        for url: URL, options: WebImageOptions = [], context: WebImageContext? = nil
    ) -> (any ImageLoading)? {
        loaders.reversed().first { $0.canRequestImage(for: url, options: options, context: context) }
    }

    public func canRequestImage(for url: URL, options: WebImageOptions, context: WebImageContext?) -> Bool {
        loader(for: url, options: options, context: context) != nil
    }

    /// Loads with the handling loader. When none can handle `url`, throws
    /// ``WebImageError/Code/invalidURL`` (SDWebImage returns no operation and never calls back).
    public func loadImage(
        with url: URL, options: WebImageOptions, context: WebImageContext?, events: ImageLoadEventHandler?
    ) async throws(WebImageError) -> ImageLoadResult {
        guard let loader = loader(for: url, options: options, context: context) else {
            let scheme = url.scheme.map { "'\($0):'" } ?? "a URL without a scheme"
            throw .invalidURL("\(url.absoluteString) (no loader handles \(scheme))")
        }
        return try await loader.loadImage(with: url, options: options, context: context, events: events)
    }

    /// Asks the loader that handles `url`; false when none does (as SDWebImage).
    public func shouldBlockFailedURL(
        _ url: URL, error: WebImageError, options: WebImageOptions, context: WebImageContext?
    ) -> Bool {
        loader(for: url, options: options, context: context)?
            .shouldBlockFailedURL(url, error: error, options: options, context: context) ?? false
    }
}

extension ImageLoadersManager {
    /// The built-in loaders for remote and inline images: ``ImageDownloader/shared`` (oldest) and
    /// ``DataURLImageLoader``, so `http`, `https` and `data` URLs load and every other scheme
    /// fails with ``WebImageError/invalidURL(_:)``.
    ///
    /// `file:` URLs are opt-in, unlike SDWebImage: a server that loads URLs its users send must
    /// not read its own files for them. Add ``FileImageLoader`` to this manager
    /// (`ImageLoadersManager.shared.addLoader(FileImageLoader())`), or give a manager a loaders
    /// manager that includes it, where local files are wanted.
    public static let shared = ImageLoadersManager(loaders: [ImageDownloader.shared, DataURLImageLoader()])
}

/// Decoding for loaders (SDWebImage's `SDImageLoaderDecodeImageData`), shared by the built-in
/// loaders and available to your own.
public enum ImageLoaderDecoding {
    /// The largest body a built-in loader accepts by default: 256 MiB. Bigger responses fail
    /// with ``TransferFailure/Kind/responseTooLarge`` instead of being held in memory.
    public static let defaultMaxDataSize = 256 << 20

    /// Decodes `data` loaded from `url` for a request: the decode options come from the context
    /// and options (``ImageDecodeOptions/init(context:options:cacheKey:)``, keyed by `cacheKey`,
    /// by default the URL's absolute string), the coder is the context's
    /// ``WebImageContext/imageCoder`` or the shared registry.
    ///
    /// Empty data, undecodable data and a 0×0 result are ``WebImageError/badImageData(_:underlying:)``.
    public static func decode(
        _ data: Data, url: URL, options: WebImageOptions, context: WebImageContext?, cacheKey: String? = nil
    ) throws(WebImageError) -> Image {
        guard !data.isEmpty else { throw .badImageData("\(url.absoluteString): the response body is empty") }
        let decodeOptions = ImageDecodeOptions(
            context: context, options: options, cacheKey: cacheKey ?? url.absoluteString)
        let coder: any ImageCoding = context?.imageCoder ?? ImageCodersManager.shared
        return try decode(data, url: url, decodeOptions: decodeOptions, coder: coder)
    }

    /// Decodes `data` with `decodeOptions` and `coder`; the same errors as
    /// ``decode(_:url:options:context:cacheKey:)``.
    static func decode(
        _ data: Data, url: URL, decodeOptions: ImageDecodeOptions, coder: any ImageCoding
    ) throws(WebImageError) -> Image {
        guard !data.isEmpty else { throw .badImageData("\(url.absoluteString): the response body is empty") }
        let image = try coder.decode(data, options: decodeOptions)
        guard image.width > 0, image.height > 0 else {
            throw .badImageData("\(url.absoluteString): the image has no pixels")
        }
        return image
    }
}

/// A parsed `data:` URL (RFC 2397): `data:[<media type>][;base64],<data>`.
package struct DataURL: Sendable, Equatable {
    /// The media type without parameters, lowercased; `text/plain` when absent, as the RFC says.
    package var mediaType: String
    /// The decoded bytes.
    package var data: Data

    /// Parses `string`. Anything that is not a well-formed data URL, and a body larger than
    /// `maxDataSize` once decoded, throws; nothing larger than the input is ever allocated.
    package init(parsing string: String, maxDataSize: Int = ImageLoaderDecoding.defaultMaxDataSize)
        throws(WebImageError)
    {
        guard string.count >= 5, string.prefix(5).lowercased() == "data:" else {
            throw .invalidURL(Self.abbreviated(string))
        }
        let rest = string.dropFirst(5)
        guard let comma = rest.firstIndex(of: ",") else {
            throw .invalidURL("\(Self.abbreviated(string)) (a data URL needs a comma before its data)")
        }
        let parameters = rest[..<comma].split(separator: ";", omittingEmptySubsequences: false)
        let isBase64 = parameters.count > 1 && parameters.last?.lowercased() == "base64"
        let type = parameters.first.map { $0.trimmingCharacters(in: .whitespaces).lowercased() } ?? ""
        mediaType = type.isEmpty ? "text/plain" : type
        let payload = String(rest[rest.index(after: comma)...])
        // Base64 shrinks by a quarter and percent-escapes by two thirds: a payload this long
        // cannot decode to more than the limit, so the check needs no decoding.
        let bound = isBase64 ? payload.utf8.count / 4 * 3 + 3 : payload.utf8.count
        if bound > maxDataSize, Self.decodedSize(payload, isBase64: isBase64) > maxDataSize {
            throw .transferFailed(
                TransferFailure(.responseTooLarge, "the data URL holds more than \(maxDataSize) bytes"))
        }
        guard let bytes = Self.percentDecoded(payload) else {
            throw .invalidURL("\(Self.abbreviated(string)) (bad percent escape)")
        }
        if isBase64 {
            let text = String(decoding: bytes.filter { !Self.isWhitespace($0) }, as: UTF8.self)
            guard let decoded = Data(base64Encoded: Self.padded(text)) else {
                throw .invalidURL("\(Self.abbreviated(string)) (bad base64)")
            }
            data = decoded
        } else {
            data = Data(bytes)
        }
    }

    private static func isWhitespace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }

    /// Base64 without its `=` padding is common in data URLs; Foundation needs it.
    private static func padded(_ text: String) -> String {
        let remainder = text.utf8.count % 4
        return remainder == 0 ? text : text + String(repeating: "=", count: 4 - remainder)
    }

    private static func decodedSize(_ payload: String, isBase64: Bool) -> Int {
        var count = 0
        var escapes = 0
        for byte in payload.utf8 {
            if byte == UInt8(ascii: "%") { escapes += 1 }
            if !isWhitespace(byte) { count += 1 }
        }
        let bytes = count - escapes * 2
        return isBase64 ? bytes / 4 * 3 : bytes
    }

    private static func percentDecoded(_ text: String) -> [UInt8]? {
        var output: [UInt8] = []
        output.reserveCapacity(text.utf8.count)
        var iterator = text.utf8.makeIterator()
        while let byte = iterator.next() {
            guard byte == UInt8(ascii: "%") else {
                output.append(byte)
                continue
            }
            guard let high = iterator.next().flatMap(\.hexDigitValue),
                let low = iterator.next().flatMap(\.hexDigitValue)
            else {
                return nil
            }
            output.append(high << 4 | low)
        }
        return output
    }

    /// Errors quote at most the first 64 characters: data URLs can be megabytes long.
    static func abbreviated(_ string: String) -> String {
        string.count <= 64 ? string : String(string.prefix(64)) + "…"
    }
}

/// Loads `data:` URLs (RFC 2397), decoding the embedded bytes in the calling task.
public struct DataURLImageLoader: ImageLoading {
    /// Decoded payloads larger than this fail with ``TransferFailure/Kind/responseTooLarge``.
    public var maxDataSize: Int

    public init(maxDataSize: Int = ImageLoaderDecoding.defaultMaxDataSize) {
        self.maxDataSize = maxDataSize
    }

    public func canRequestImage(for url: URL, options: WebImageOptions, context: WebImageContext?) -> Bool {
        url.scheme?.lowercased() == "data"
    }

    public func loadImage(
        with url: URL, options: WebImageOptions, context: WebImageContext?, events: ImageLoadEventHandler?
    ) async throws(WebImageError) -> ImageLoadResult {
        let parsed = try DataURL(parsing: url.absoluteString, maxDataSize: maxDataSize)
        events?(.progress(receivedSize: parsed.data.count, expectedSize: parsed.data.count))
        guard !Task.isCancelled else { throw .cancelled }
        // A data URL as the cache key would be as long as the image: hint by media type instead.
        let image = try ImageLoaderDecoding.decode(
            parsed.data, url: url, options: options, context: context, cacheKey: "")
        let metadata = DiskCacheMetadata(contentType: parsed.mediaType)
        return ImageLoadResult(image: image, data: parsed.data, metadata: metadata, isFinished: true)
    }
}
