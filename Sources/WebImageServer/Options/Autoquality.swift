#if Server
    import WebImage

    /// imgproxy Pro's autoquality: the quality of a lossy result chosen per image, by the file size
    /// it makes (`size`) or by how much it differs from the unencoded pixels (`dssim`; see
    /// ``Dissimilarity``). The service's settings (imgproxy's `IMGPROXY_AUTOQUALITY_*`), which a
    /// URL's `autoquality`/`aq` replaces argument by argument (``AutoqualityArguments``).
    public struct Autoquality: Sendable, Equatable {
        /// How the quality is chosen.
        public enum Method: String, Sendable, CaseIterable {
            /// The usual quality (`quality`, `format_quality`, the service's).
            case none
            /// The highest quality whose file takes at most ``Autoquality/target`` bytes (the
            /// lowest quality allowed when none does).
            case size
            /// The lowest quality whose DSSIM is at most ``Autoquality/target`` (plus the allowed
            /// error; the highest quality allowed when none is).
            case dssim
            /// imgproxy's neural network prediction. It needs models this service does not have:
            /// a URL asking for it is a 400 and the setting stops the server.
            case ml
        }

        public var method = Method.none
        /// Bytes for `size`, a DSSIM for `dssim` (imgproxy's default: 0.02).
        public var target = 0.02
        /// The qualities tried, 1…100 (imgproxy's defaults: 70 and 80).
        public var minQuality = 70
        public var maxQuality = 80
        /// Per-format bounds that win over ``minQuality`` and ``maxQuality`` (imgproxy's defaults:
        /// AVIF 60 and 65).
        public var formatMinQualities: [ImageFormat: Int] = [.avif: 60]
        public var formatMaxQualities: [ImageFormat: Int] = [.avif: 65]
        /// How far above (or below) the target a DSSIM may be and still count as reaching it
        /// (imgproxy's default: 0.002).
        public var allowedError = 0.002
        /// Results with more pixels than this keep the usual quality; 0: no limit.
        public var maxResultPixels = 0

        public init() {}

        /// The formats autoquality chooses a quality for; others are lossless or take no quality.
        public static let lossyFormats: Set<ImageFormat> = [.jpeg, .webp, .avif, .heic, .jpegXL]

        /// These settings with the arguments a URL gave.
        func replacing(_ arguments: AutoqualityArguments?) -> Autoquality {
            guard let arguments else { return self }
            var settings = self
            if let method = arguments.method { settings.method = method }
            if let target = arguments.target { settings.target = target }
            if let allowedError = arguments.allowedError { settings.allowedError = allowedError }
            // A URL's bounds are meant for whatever format the result gets.
            if let minQuality = arguments.minQuality {
                settings.minQuality = minQuality
                settings.formatMinQualities = [:]
            }
            if let maxQuality = arguments.maxQuality {
                settings.maxQuality = maxQuality
                settings.formatMaxQualities = [:]
            }
            return settings
        }

        /// The qualities tried for `format`, lowest first; a minimum above the maximum is lowered to it.
        func qualities(for format: ImageFormat) -> ClosedRange<Int> {
            let high = formatMaxQualities[format] ?? maxQuality
            let low = formatMinQualities[format] ?? minQuality
            return min(low, high)...high
        }
    }

    /// The arguments of a URL's `autoquality:%method:%target:%min_quality:%max_quality:%allowed_error`
    /// (`aq`); each is optional, and one left out (or empty) keeps the service's.
    public struct AutoqualityArguments: Sendable, Equatable {
        public var method: Autoquality.Method?
        public var target: Double?
        public var minQuality: Int?
        public var maxQuality: Int?
        public var allowedError: Double?

        /// The `aq` segment that parses back to these arguments.
        var canonical: String {
            let values: [String] = [
                method?.rawValue ?? "", target.map { "\($0)" } ?? "", minQuality.map(String.init) ?? "",
                maxQuality.map(String.init) ?? "", allowedError.map { "\($0)" } ?? "",
            ]
            return (["aq"] + values).joined(separator: ":")
        }

        var isEmpty: Bool { self == AutoqualityArguments() }
    }

    extension OptionArguments {
        /// `aq:%method:%target:%min_quality:%max_quality:%allowed_error`, all optional.
        func autoquality() throws(ServiceError) -> AutoqualityArguments {
            guard values.count <= 5 else { throw failure("takes at most 5 arguments") }
            func given(_ index: Int) -> String? {
                index < values.count && !values[index].isEmpty ? values[index] : nil
            }
            var arguments = AutoqualityArguments()
            if let text = given(0) {
                guard let method = Autoquality.Method(rawValue: text) else {
                    throw failure("'\(text)' is not an autoquality method (none, size, dssim)")
                }
                guard method != .ml else {
                    throw failure(
                        "the ml method needs neural network models, which this service does not have; use dssim")
                }
                arguments.method = method
            }
            if let text = given(1) { arguments.target = try number(text, atLeast: 0) }
            if let text = given(2) { arguments.minQuality = try autoqualityBound(text) }
            if let text = given(3) { arguments.maxQuality = try autoqualityBound(text) }
            if let low = arguments.minQuality, let high = arguments.maxQuality, low > high {
                throw failure("the minimum quality \(low) is above the maximum \(high)")
            }
            if let text = given(4) { arguments.allowedError = try number(text, in: 0...1) }
            return arguments
        }

        private func autoqualityBound(_ text: String) throws(ServiceError) -> Int {
            guard let value = Int(text), (1...100).contains(value) else {
                throw failure("'\(text)' is not a quality from 1 to 100")
            }
            return value
        }
    }
#endif
