#if Server
    import WebImage

    extension ProcessingOptions {
        /// `format`/`f`/`ext`, and the URL's extension: a format the service writes, or `best`
        /// (imgproxy Pro's smallest-of-several, ``BestFormat``). The last one given wins.
        mutating func applyFormat(_ arguments: OptionArguments) throws(ServiceError) {
            let text = try arguments.single { $0 }
            if text == "best" {
                bestFormat = true
                format = nil
            } else {
                format = try arguments.format(text)
                bestFormat = false
            }
        }

        /// Whether this request's format is `best`: the URL asks for it, or the service uses it
        /// for URLs that name no format (``BestFormatSettings/byDefault``).
        func usesBestFormat(_ configuration: ServiceConfiguration) -> Bool {
            bestFormat || (format == nil && configuration.bestFormat.byDefault)
        }
    }
#endif
