#if Server
    import Foundation
    import WebImage

    extension ServeOptions {
        /// `--autoquality-*` (imgproxy's `IMGPROXY_AUTOQUALITY_*`) and `--best-format-*`
        /// (`IMGPROXY_BEST_FORMAT_*`). The service has no neural network models: the `ml` method is
        /// read as `dssim` (what imgproxy does for a format without a model), with a notice.
        mutating func readSmallerFiles(_ settings: ServeSettings) throws(ServeSettingError) {
            var autoquality = configuration.autoquality
            if let value = try settings.value("autoquality-method") {
                guard let method = Autoquality.Method(rawValue: value.text.lowercased()) else {
                    throw ServeSettingError("\(value.source) must be none, size, dssim or ml, got \(value.text)")
                }
                // imgproxy itself falls back to dssim for a format it has no model for; here there are none.
                if method == .ml {
                    notices.append("\(value.source)=ml is read as dssim (webimage has no neural network models)")
                }
                autoquality.method = method == .ml ? .dssim : method
            }
            if let target = try settings.seconds(
                "autoquality-target", in: 0...Double.greatestFiniteMagnitude, "a number, 0 or more")
            {
                autoquality.target = target
            }
            let quality = (1...100, "a whole number within 1...100")
            if let low = try settings.integer("autoquality-min", in: quality.0, quality.1) {
                autoquality.minQuality = low
            }
            if let high = try settings.integer("autoquality-max", in: quality.0, quality.1) {
                autoquality.maxQuality = high
            }
            guard autoquality.minQuality <= autoquality.maxQuality else {
                throw ServeSettingError(
                    "the autoquality minimum \(autoquality.minQuality) is above the maximum \(autoquality.maxQuality)")
            }
            if let value = try settings.value("autoquality-format-min") {
                autoquality.formatMinQualities = Dictionary(try Self.formatQualities(value)) { $1 }
            }
            if let value = try settings.value("autoquality-format-max") {
                autoquality.formatMaxQualities = Dictionary(try Self.formatQualities(value)) { $1 }
            }
            if let error = try settings.seconds("autoquality-allowed-error", in: 0...1, "a number within 0...1") {
                autoquality.allowedError = error
            }
            if let pixels = try settings.integer(
                "autoquality-max-result-pixels", in: 0...Int.max, "a whole number, 0 or more")
            {
                autoquality.maxResultPixels = pixels
            }
            configuration.autoquality = autoquality
            if let threshold = try settings.seconds(
                "best-format-complexity-threshold", in: 0...Double.greatestFiniteMagnitude, "a number, 0 or more")
            {
                configuration.bestFormat.complexityThreshold = threshold
            }
            if let pixels = try settings.integer(
                "best-format-max-result-pixels", in: 0...Int.max, "a whole number, 0 or more")
            {
                configuration.bestFormat.maxResultPixels = pixels
            }
            configuration.bestFormat.byDefault = try settings.bool("best-format-by-default") ?? false
            configuration.bestFormat.allowsSkips = try settings.bool("best-format-allow-skips") ?? false
        }
    }
#endif
