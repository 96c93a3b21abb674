#if Server
    import WebImage

    extension ProcessingOptions {
        /// Copies the options that belong to the whole request rather than to one pipeline: the
        /// output (format, qualities, `max_bytes`), the metadata and colour profile, how the source
        /// is read (`auto_rotate`, `enforce_thumbnail`, `skip_processing`, `raw`), the security
        /// limits, and the response (`cachebuster`, `expires`, `filename`, `return_attachment`).
        /// Everything else is per pipeline.
        mutating func takeRequestOptions(from other: ProcessingOptions) {
            quality = other.quality
            formatQualities = other.formatQualities
            maxBytes = other.maxBytes
            format = other.format
            bestFormat = other.bestFormat
            bestFormats = other.bestFormats
            autoquality = other.autoquality
            skipProcessingFormats = other.skipProcessingFormats
            raw = other.raw
            autoRotate = other.autoRotate
            stripMetadata = other.stripMetadata
            keepCopyright = other.keepCopyright
            enforceThumbnail = other.enforceThumbnail
            stripColorProfile = other.stripColorProfile
            preserveHDR = other.preserveHDR
            cacheBuster = other.cacheBuster
            expires = other.expires
            filename = other.filename
            returnAttachment = other.returnAttachment
            maxSourcePixels = other.maxSourcePixels
            maxSourceBytes = other.maxSourceBytes
            maxAnimationFrames = other.maxAnimationFrames
            maxAnimationFramePixels = other.maxAnimationFramePixels
            maxResultDimension = other.maxResultDimension
        }

        /// Every pipeline in order, each with the request's options: this one (without its chain),
        /// then the ``chained`` ones.
        @_spi(Internals) public var pipelines: [ProcessingOptions] {
            var first = self
            first.chained = []
            return [first]
                + chained.map { pipeline in
                    var pipeline = pipeline
                    pipeline.takeRequestOptions(from: first)
                    return pipeline
                }
        }
    }
#endif
