#if Server
    import Foundation
    import WebImage

    /// The service's watermark image, decoded once and kept: from bytes given at start
    /// (`--watermark-path`, `--watermark-data`), or fetched from a URL through the service's own
    /// source fetching (the address guard and the source cache included) the first time a request
    /// asks for it.
    public final class WatermarkStore: Sendable {
        /// Where the mark comes from.
        public typealias Source = ConfiguredImage

        private let source: Source?
        private let sources: SourceStore
        private let configuration: ServiceConfiguration
        private let decoded = Locked<ImageBitmap?>(nil)

        init(configuration: ServiceConfiguration, sources: SourceStore) {
            self.source = configuration.watermark
            self.sources = sources
            self.configuration = configuration
        }

        /// The mark, upright with straight alpha; nil when the service has none. A mark that cannot
        /// be fetched or decoded fails the request with the error that says why, and is tried again
        /// by the next one.
        func mark() async throws(ServiceError) -> ImageBitmap? {
            guard let source else { return nil }
            if let kept = decoded.withLock({ $0 }) { return kept }
            let data = try await source.bytes(configuration: configuration, sources: sources)
            var options = ImageDecodeOptions()
            options.maxPixelCount = configuration.maxSourcePixels
            options.firstFrameOnly = true
            let image: Image
            do {
                image = try ImageCodersManager.shared.decode(data, options: options)
            } catch {
                throw .unprocessable("the watermark image cannot be decoded: \(error.message)")
            }
            let mark = image.bitmap.applyingOrientation(image.orientation)
            decoded.withLock { $0 = mark }
            return mark
        }
    }
#endif
