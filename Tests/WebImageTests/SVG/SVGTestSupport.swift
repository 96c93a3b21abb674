#if SVG
    import Foundation
    import Testing

    @testable import WebImage

    /// Expects `body` to throw ``WebImageError/Code/badImageData`` whose message contains `text`.
    func expectSVGError(
        containing text: String, sourceLocation: SourceLocation = #_sourceLocation, _ body: () throws -> Any
    ) {
        let matches: (WebImageError) -> Bool = { $0.code == .badImageData && $0.message.contains(text) }
        expectWebImageError(sourceLocation: sourceLocation, matching: matches, body)
    }

    /// Expects `body` to throw a ``WebImageError`` with `code`.
    func expectSVGError(
        code: WebImageError.Code, sourceLocation: SourceLocation = #_sourceLocation, _ body: () throws -> Any
    ) {
        let matches: (WebImageError) -> Bool = { $0.code == code }
        expectWebImageError(sourceLocation: sourceLocation, matching: matches, body)
    }

    /// The SVG fixtures (from Tests/Fixtures/generators/svg.py); references are `rsvg-convert`'s
    /// renderings.
    enum SVGFixtures: CoderFixtures {
        static let folder = "svg"
        static let fileExtension = "svg"
        static let format = ImageFormat.svg
        static let coder: any ImageCoding = SVGCoder()

        /// What rendering may differ from `rsvg-convert`'s by, per channel: librsvg and cairo draw
        /// both, so only the conversion to straight alpha could differ, and it rounds as cairo's
        /// PNG writer does. Colour is compared where alpha is at least 16 (below it, the
        /// premultiplied colour holds too few levels to divide back).
        static let tolerance = 1
        static let minimumAlpha: UInt8 = 16

        /// A document from text.
        static func document(_ text: String) -> Data { Data(text.utf8) }

        /// `<svg xmlns=… ATTRIBUTES>BODY</svg>`.
        static func svg(_ attributes: String, _ body: String = "") -> Data {
            document(#"<svg xmlns="http://www.w3.org/2000/svg" "# + attributes + ">" + body + "</svg>")
        }
    }
#endif
