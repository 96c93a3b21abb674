#if Server
    import Foundation
    import WebImage

    extension ImageService {
        /// `GET /info/{signature}/{info options}/{source}`: the source's info as JSON, signed,
        /// limited and cached like an image result. Header fields (size, format, dimensions, and
        /// for a JPEG its metadata) are read from the first bytes of a download, which stops there
        /// when nothing else wants the source.
        func info(_ request: ServiceRequest, path rest: String) async throws(ServiceError) -> ServiceResponse {
            let path = try ProcessingPath(rest, onlyPresets: configuration.infoOnlyPresets ?? configuration.onlyPresets)
            if !configuration.trustedSignatures.contains(path.signature) {
                try configuration.signer.verify(path.signature, for: path.signedPath)
            }
            if !configuration.allowedInfoOptions.isEmpty, !(configuration.infoOnlyPresets ?? configuration.onlyPresets)
            {
                for segment in path.optionSegments {
                    let name = String(segment.prefix { $0 != ":" })
                    guard configuration.allowedInfoOptions.contains(name) else {
                        throw .forbidden("info option '\(name)' is not allowed here")
                    }
                }
            }
            let options = try InfoOptions(segments: path.optionSegments, presets: configuration.infoPresets)
            if options.usesSecurityOptions, !configuration.allowsSecurityOptions {
                throw .forbidden("security info options are not allowed")
            }
            if let expires = options.expires, expires > 0, expires < Int(clamping: Date().timeIntervalSince1970) {
                throw .notFound("the URL expired")
            }
            let source = try SourcePolicy(configuration: configuration).url(for: path.source)
            let key = "info:\(options.canonicalString)|\(source.absoluteString)"
            var shape = ProcessingOptions()
            shape.expires = options.expires
            let policy = ResponsePolicy(
                timeToLive: configuration.timeToLive, passesSourceCaching: configuration.passesSourceCacheControl)
            let result: ProcessedResult
            if let cached = await tracing.span("cache.lookup", { await cachedResult(forKey: key) }) {
                result = cached
            } else {
                metrics.cacheMiss()
                result = try await runs.value(for: key) { [self] _ throws(ServiceError) in
                    let made = try await infoResult(for: source, options: options)
                    memory.store(made, forKey: key)
                    results.store(made, forKey: key)
                    return made
                }
            }
            var response = result.response(to: request, options: shape, policy: policy)
            response.headers.removeAll { $0.name == "Content-Disposition" }
            return response
        }

        /// Fetches what the options need of the source and makes the JSON: on the processing
        /// threads when it decodes or checksums, inline when it only reads the header.
        private func infoResult(for source: URL, options: InfoOptions) async throws(ServiceError) -> ProcessedResult {
            let fetched = try await infoSource(source, options: options)
            let maxPixels = options.maxSourcePixels.flatMap { $0 > 0 ? $0 : nil } ?? configuration.maxSourcePixels
            let maxAnimationBytes = configuration.maxAnimationBytes
            let make = { @Sendable () throws(ServiceError) -> String in
                try InfoReport.make(
                    from: fetched.data, isComplete: fetched.isComplete, declaredLength: fetched.declaredLength,
                    options: options, maxPixels: maxPixels, maxAnimationBytes: maxAnimationBytes)
            }
            let text: String
            if InfoReport.decodes(fetched.data, options: options) {
                let info = try? ImageCodersManager.shared.imageInfo(for: fetched.data)
                let pixels = info.map { PixelSize(width: $0.width, height: $0.height).pixelCount } ?? 0
                text = try await onProcessingThreads(sourcePixels: pixels, make)
            } else {
                text = try make()
            }
            var result = ProcessedResult(data: Data(text.utf8), contentType: "application/json")
            if let metadata = fetched.metadata { result.source = SourceCaching(metadata) }
            return result
        }

        /// The whole source when a field needs it, else its first bytes: enough for the header,
        /// and for a JPEG's metadata (which comes before its frame header); other formats may keep
        /// metadata at the end, so metadata fields fetch them whole. Without a declared length, the
        /// size needs the whole source too.
        private func infoSource(_ source: URL, options: InfoOptions) async throws(ServiceError) -> DownloadedPrefix {
            if !options.needsWholeSource {
                let needsMetadata = options.exif || options.iptc || options.xmp
                let prefix: DownloadedPrefix
                do {
                    prefix = try await tracing.span("source.fetch") { () async throws(ServiceError) in
                        try await sources.prefix(of: source) { data in
                            Self.headerSuffices(data, needsMetadata: needsMetadata)
                        }
                    }
                } catch {
                    throw error.fromSource
                }
                metrics.sourceFetched(bytes: prefix.data.count)
                if prefix.isComplete || !options.size || prefix.declaredLength != nil { return prefix }
            }
            let entry = try await sourceEntry(source)
            return DownloadedPrefix(data: entry.data, isComplete: true, metadata: entry.metadata)
        }

        /// Whether `data`, the start of a source, holds what the header fields need.
        static func headerSuffices(_ data: Data, needsMetadata: Bool) -> Bool {
            guard (try? ImageCodersManager.shared.imageInfo(for: data)) != nil else { return false }
            return !needsMetadata || ImageFormat(detecting: data) == .jpeg
        }

    }
#endif
