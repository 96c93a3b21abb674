#if Server
    import Foundation
    import WebImage

    /// The Client Hints a request carries, as imgproxy reads them when they are enabled
    /// (``ServiceConfiguration/readsClientHints``): a device pixel ratio from `Sec-CH-DPR` or `DPR`,
    /// and a width in device pixels from `Sec-CH-Width` or `Width`. They set the defaults of `dpr`
    /// and `width`, which the URL's own options (and presets) override.
    public struct ClientHints: Sendable, Equatable {
        /// Above 0 and at most 8, as imgproxy accepts it; nil when no header gives a valid one.
        public var dpr: Double?
        /// Device pixels, above 0; nil when no header gives a valid one.
        public var width: Int?

        /// The request headers a response varies on when hints are read.
        public static let headerNames = ["Sec-CH-DPR", "DPR", "Sec-CH-Width", "Width"]

        /// The largest ratio accepted (imgproxy's).
        static let maxDPR = 8.0

        public init(dpr: Double? = nil, width: Int? = nil) {
            self.dpr = dpr
            self.width = width
        }

        /// The hints from header values: of each pair, the first that is valid.
        public init(secCHDPR: String?, dpr: String?, secCHWidth: String?, width: String?) {
            self.dpr =
                [secCHDPR, dpr].lazy.compactMap { text -> Double? in
                    guard let value = text.flatMap({ Double($0.trimmingCharacters(in: .whitespaces)) }),
                        value > 0, value <= Self.maxDPR
                    else { return nil }
                    return value
                }.first
            self.width =
                [secCHWidth, width].lazy.compactMap { text -> Int? in
                    guard let value = text.flatMap({ Int($0.trimmingCharacters(in: .whitespaces)) }), value > 0 else {
                        return nil
                    }
                    return value
                }.first
        }

        /// Whether no hint was given.
        public var isEmpty: Bool { dpr == nil && width == nil }

        /// The defaults the hints give: `dpr`, and `width` in CSS pixels (the hinted width divided
        /// by the ratio, rounded).
        func apply(to options: inout ProcessingOptions) {
            if let dpr { options.dpr = dpr }
            if let width {
                let ratio = dpr ?? 1
                options.width = Int(clamping: Double(width) / ratio, rounding: .toNearestOrAwayFromZero)
            }
        }
    }
#endif
