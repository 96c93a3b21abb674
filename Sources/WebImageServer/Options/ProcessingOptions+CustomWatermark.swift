#if Server
    import Foundation
    import WebImage

    extension ProcessingOptions {
        /// imgproxy Pro's per-request watermark: which mark `watermark`/`wm` places (an image from a
        /// URL, or text) and how it is shaped first (size, rotation, shadow). Every option here
        /// only shapes a mark that `wm` places; alone they change nothing.
        public struct CustomWatermark: Sendable, Equatable {
            /// Where the mark comes from, instead of the service's own.
            public enum Source: Sendable, Equatable {
                /// An image fetched from this URL as sources are (`watermark_url`).
                case url(String)
                /// This text, rendered (`watermark_text`); Pango markup tags are dropped.
                case text(String)
            }

            /// Nil: the service's configured watermark. The later of `wmu` and `wmt` wins.
            public var source: Source?
            /// Fit the mark into this box, enlarging it when need be (`watermark_size`); 0 derives a
            /// side from the other and the mark's aspect ratio, 0 and 0 keep the mark's size. Used
            /// only when `wm`'s scale is 0.
            public var width = 0
            public var height = 0
            /// Degrees, clockwise (`watermark_rotate`); the canvas grows to hold the turned mark.
            public var rotation: Double = 0
            /// The shadow's blur sigma in pixels (`watermark_shadow`); 0 is none.
            public var shadow: Double = 0

            public init() {}

            /// The most characters `watermark_text` may hold, after base64 decoding (markup included).
            public static let maximumTextLength = 1000
            /// The largest side `watermark_size` accepts, in pixels.
            public static let maximumSide = 8192
            /// The largest shadow sigma, in pixels: the canvas grows by three sigmas on each side.
            public static let maximumShadow: Double = 100
        }

        /// `watermark_url`, `watermark_text`, `watermark_size`, `watermark_rotate`, `watermark_shadow`.
        static let customWatermarkParsers:
            [([String], @Sendable (inout ProcessingOptions, OptionArguments) throws(ServiceError) -> Void)] = [
                (
                    ["watermark_url", "wmu"],
                    { o, a throws(ServiceError) in
                        o.customWatermark.source = try a.single(a.encodedText).map { .url($0) }
                    }
                ),
                (
                    ["watermark_text", "wmt"],
                    { o, a throws(ServiceError) in
                        let text = try a.single(a.encodedText)
                        if let text, text.unicodeScalars.count > CustomWatermark.maximumTextLength {
                            throw a.failure("the text is longer than \(CustomWatermark.maximumTextLength) characters")
                        }
                        o.customWatermark.source = text.map { .text($0) }
                    }
                ),
                (
                    ["watermark_size", "wms"],
                    { o, a throws(ServiceError) in
                        try a.count(atMost: 2)
                        var sides = [0, 0]
                        for (index, value) in a.values.enumerated() where !value.isEmpty {
                            let side = try a.integer(value, in: 0...)
                            guard side <= CustomWatermark.maximumSide else {
                                throw a.failure("'\(value)' is larger than \(CustomWatermark.maximumSide)")
                            }
                            sides[index] = side
                        }
                        (o.customWatermark.width, o.customWatermark.height) = (sides[0], sides[1])
                    }
                ),
                (
                    ["watermark_rotate", "wm_rot", "wmr"],
                    { o, a throws(ServiceError) in
                        o.customWatermark.rotation = try a.singleNumber(atLeast: -Double.greatestFiniteMagnitude)
                    }
                ),
                (
                    ["watermark_shadow", "wmsh"],
                    { o, a throws(ServiceError) in
                        o.customWatermark.shadow = try a.singleNumber(in: 0...CustomWatermark.maximumShadow)
                    }
                ),
            ]

        /// The canonical parts of the options above: the text and URL base64url without padding.
        var customWatermarkCanonicalParts: [String] {
            var parts: [String] = []
            switch customWatermark.source {
            case .url(let url): parts.append("wmu:" + Data(url.utf8).base64URLEncodedWithoutPadding())
            case .text(let text): parts.append("wmt:" + Data(text.utf8).base64URLEncodedWithoutPadding())
            case nil: break
            }
            if customWatermark.width != 0 || customWatermark.height != 0 {
                parts.append("wms:\(customWatermark.width):\(customWatermark.height)")
            }
            if customWatermark.rotation != 0 { parts.append("wmr:\(customWatermark.rotation)") }
            if customWatermark.shadow != 0 { parts.append("wmsh:\(customWatermark.shadow)") }
            return parts
        }
    }

    extension OptionArguments {
        /// Base64url (padding tolerated) UTF-8 text; empty is nil (the option's default).
        func encodedText(_ text: String) throws(ServiceError) -> String? {
            guard !text.isEmpty else { return nil }
            guard let data = Data(base64URLEncoded: text), let decoded = String(data: data, encoding: .utf8) else {
                throw failure("'\(text.prefix(64))' is not base64url-encoded UTF-8 text")
            }
            return decoded.isEmpty ? nil : decoded
        }
    }
#endif
