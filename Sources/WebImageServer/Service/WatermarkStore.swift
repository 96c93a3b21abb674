#if Server
    import Foundation
    import WebImage

    /// The marks `watermark`/`wm` places: the service's own, decoded once and kept (from bytes
    /// given at start, `--watermark-path`, `--watermark-data`, or fetched from `--watermark-url` the
    /// first time a request asks for it), and a request's own (imgproxy Pro's `watermark_url`,
    /// fetched under the source policy, and `watermark_text`, drawn in the service's font), kept in
    /// a bounded ``WatermarkCache``. Every URL goes through the service's source fetching: the
    /// allowed sources, the address guard, the byte limit and the source cache.
    public final class WatermarkStore: Sendable {
        /// Where the mark comes from.
        public typealias Source = ConfiguredImage

        private let source: Source?
        private let sources: SourceStore
        private let configuration: ServiceConfiguration
        private let decoded = Locked<ImageBitmap?>(nil)
        /// The requests' own marks.
        let cache: WatermarkCache
        /// The font file's bytes, read when a text mark first needs them.
        private let font = Locked<Data?>(nil)

        init(configuration: ServiceConfiguration, sources: SourceStore) {
            self.source = configuration.watermark
            self.sources = sources
            self.configuration = configuration
            cache = WatermarkCache(countLimit: configuration.watermarksCacheSize)
        }

        /// The mark of each pipeline that places one (nil for the others), upright with straight alpha.
        func marks(for pipelines: [ProcessingOptions]) async throws(ServiceError) -> [ImageBitmap?] {
            var marks: [ImageBitmap?] = []
            for pipeline in pipelines {
                marks.append(pipeline.watermark == nil ? nil : try await mark(for: pipeline.customWatermark.source))
            }
            return marks
        }

        /// A request's own mark, or with nil the service's (nil when it has none).
        func mark(for custom: ProcessingOptions.CustomWatermark.Source?) async throws(ServiceError) -> ImageBitmap? {
            switch custom {
            case nil:
                return try await mark()
            case .url(let text):
                let url = try SourcePolicy(configuration: configuration).url(
                    for: text, rewrites: configuration.watermarkPreprocessesURL)
                let key = "url:" + url.absoluteString
                if let kept = cache.mark(forKey: key) { return kept }
                let mark = try decode(try await sources.data(for: url))
                cache.store(mark, forKey: key)
                return mark
            case .text(let text):
                let key = "text:" + text
                if let kept = cache.mark(forKey: key) { return kept }
                let mark = try TextWatermark(font: try fontData(), pixelLimit: configuration.maxSourcePixels)
                    .rendered(text)
                cache.store(mark, forKey: key)
                return mark
            }
        }

        /// The service's mark, upright with straight alpha; nil when the service has none. A mark
        /// that cannot be fetched or decoded fails the request with the error that says why, and
        /// is tried again by the next one.
        func mark() async throws(ServiceError) -> ImageBitmap? {
            guard let source else { return nil }
            if let kept = decoded.withLock({ $0 }) { return kept }
            let mark = try decode(try await source.bytes(configuration: configuration, sources: sources))
            decoded.withLock { $0 = mark }
            return mark
        }

        private func decode(_ data: Data) throws(ServiceError) -> ImageBitmap {
            var options = ImageDecodeOptions()
            options.maxPixelCount = configuration.maxSourcePixels
            options.firstFrameOnly = true
            let image: Image
            do {
                image = try ImageCodersManager.shared.decode(data, options: options)
            } catch {
                throw .unprocessable("the watermark image cannot be decoded: \(error.message)")
            }
            return image.bitmap.applyingOrientation(image.orientation)
        }

        /// The font text marks are drawn in (``ServiceConfiguration/watermarkFont``), read once; a
        /// font that cannot be read fails the request (a 500: the service is set up wrong) and is
        /// tried again by the next one.
        private func fontData() throws(ServiceError) -> Data {
            if let kept = font.withLock({ $0 }) { return kept }
            let path = configuration.watermarkFont
            guard let data = FileManager.default.contents(atPath: path), !data.isEmpty else {
                throw .internalError(
                    "the watermark font '\(path)' cannot be read; install it (Debian: fonts-dejavu-core) or set --watermark-font"
                )
            }
            font.withLock { $0 = data }
            return data
        }
    }
#endif
