import Foundation

/// The coder registry (`SDImageCodersManager`): tries coders newest first and uses the first
/// that can handle the data or format. It is itself an ``ImageCoding``.
public final class ImageCodersManager: ProgressiveImageCoding, AnimatedImageCoding {
    private let registered: Locked<[any ImageCoding]>

    /// The registry with the built-in coders (PNG, JPEG, GIF, WebP).
    public static let shared = ImageCodersManager()

    /// A registry holding `coders`, the first of them tried first.
    public init(coders: [any ImageCoding] = ImageCodersManager.builtInCoders) {
        registered = Locked(coders)
    }

    /// The coders in the order they are tried.
    public var coders: [any ImageCoding] {
        get { registered.withLock { $0 } }
        set { registered.withLock { $0 = newValue } }
    }

    /// Adds a coder that is tried before every coder already registered.
    public func addCoder(_ coder: any ImageCoding) {
        registered.withLock { $0.insert(coder, at: 0) }
    }

    /// Removes every registered coder of type `type`.
    public func removeCoders<C: ImageCoding>(ofType type: C.Type) {
        registered.withLock { $0.removeAll { $0 is C } }
    }

    /// The coder that will decode `data`, if any.
    public func decoder(for data: Data) -> (any ImageCoding)? {
        coders.first { $0.canDecode(data) }
    }

    /// The coder that will encode to `format`, if any.
    public func encoder(for format: ImageFormat) -> (any ImageCoding)? {
        coders.first { $0.canEncode(to: format) }
    }

    public func canDecode(_ data: Data) -> Bool { decoder(for: data) != nil }

    public func canEncode(to format: ImageFormat) -> Bool { encoder(for: format) != nil }

    public func imageInfo(for data: Data) throws(WebImageError) -> ImageInfo {
        try requireDecoder(for: data).imageInfo(for: data)
    }

    /// Decodes `data` with the coder that recognises it, then converts the pixels to sRGB
    /// when the image carries an ICC profile (``ImageDecodeOptions/convertToSRGB``).
    public func decode(_ data: Data, options: ImageDecodeOptions) throws(WebImageError) -> Image {
        let image = try requireDecoder(for: data).decode(data, options: ColorManagement.coderOptions(options))
        return ColorManagement.finish(consume image, options: options)
    }

    /// Encodes `image`. With ``ImageFormat/undefined`` the format follows SDWebImage's rule:
    /// the image's own format if known, else GIF for animations, PNG with alpha, JPEG otherwise.
    /// With ``ImageEncodeOptions/failsAboveMaxFileSize``, a file above
    /// ``ImageEncodeOptions/maxFileSize`` is an error instead of the result.
    public func encode(_ image: Image, as format: ImageFormat, options: ImageEncodeOptions) throws(WebImageError)
        -> Data
    {
        let target = format == .undefined ? Self.defaultEncodingFormat(for: image) : format
        guard let coder = encoder(for: target) else { throw .unsupportedFormat(target) }
        let data = try coder.encode(image, as: target, options: options)
        if options.failsAboveMaxFileSize, let limit = options.maxFileSize, data.count > limit {
            throw .encodingFailed(
                "the \(target) file comes to \(data.count) bytes; the limit is \(limit)")
        }
        return data
    }

    public func canDecodeIncrementally(_ data: Data) -> Bool {
        coders.contains { ($0 as? any ProgressiveImageCoding)?.canDecodeIncrementally(data) ?? false }
    }

    /// An incremental decoder that picks its coder once enough bytes arrived to tell the format.
    public func makeIncrementalDecoder(options: ImageDecodeOptions) -> any IncrementalImageDecoding {
        DeferredIncrementalDecoder(manager: self, options: options)
    }

    /// The incremental decoder of the first progressive coder that accepts `data`, if any.
    func incrementalDecoder(for data: Data, options: ImageDecodeOptions) -> (any IncrementalImageDecoding)? {
        for coder in coders {
            if let progressive = coder as? any ProgressiveImageCoding, progressive.canDecodeIncrementally(data) {
                return progressive.makeIncrementalDecoder(options: ColorManagement.coderOptions(options))
            }
        }
        return nil
    }

    public func animatedImageProvider(for data: Data, options: ImageDecodeOptions) throws(WebImageError)
        -> any AnimatedImageProvider
    {
        let coder = try requireDecoder(for: data)
        guard let animated = coder as? any AnimatedImageCoding else {
            throw .unsupportedFormat(ImageFormat(detecting: data))
        }
        let provider = try animated.animatedImageProvider(for: data, options: options)
        return ColorManagement.provider(provider, profile: MetadataProbe.iccProfile(in: data), options: options)
    }

    /// SDWebImage's choice of format when an image must be encoded without one.
    public static func defaultEncodingFormat(for image: Image) -> ImageFormat {
        if image.format != .undefined { return image.format }
        if image.isAnimated { return .gif }
        return image.hasAlpha ? .png : .jpeg
    }

    private func requireDecoder(for data: Data) throws(WebImageError) -> any ImageCoding {
        if let coder = decoder(for: data) { return coder }
        if data.isEmpty { throw .badImageData("the data is empty") }
        let format = ImageFormat(detecting: data)
        if format == .undefined {
            throw .badImageData("the data is not in any known image format")
        }
        throw .unsupportedFormat(format)
    }
}

/// Waits until the bytes tell which progressive coder to use, then forwards to it.
private final class DeferredIncrementalDecoder: IncrementalImageDecoding {
    private let manager: ImageCodersManager
    private let options: ImageDecodeOptions
    private var inner: (any IncrementalImageDecoding)?

    init(manager: ImageCodersManager, options: ImageDecodeOptions) {
        self.manager = manager
        self.options = options
    }

    func update(_ data: Data, isFinal: Bool) {
        if inner == nil { inner = manager.incrementalDecoder(for: data, options: options) }
        inner?.update(data, isFinal: isFinal)
    }

    func currentImage() throws(WebImageError) -> Image? {
        try inner?.currentImage().map { ColorManagement.finish($0, options: options) }
    }
}
