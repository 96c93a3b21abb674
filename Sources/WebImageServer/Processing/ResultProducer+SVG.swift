#if Server
    import Foundation
    import WebImage

    /// How SVG sources are answered.
    ///
    /// imgproxy answers an SVG source as SVG whenever the URL names no output format (or names
    /// `svg`), ignoring whatever processing the URL asks for, unless `IMGPROXY_ALWAYS_RASTERIZE_SVG`
    /// is set. Here an SVG is answered as SVG when the URL names `svg`, when `skip_processing`
    /// names it, or when the URL names no format and asks for no processing (``asksForNoProcessing(_:)``;
    /// encoder options such as `quality` do not count) and ``ServiceConfiguration/alwaysRasterizesSVG``
    /// is off. A request that processes an SVG always rasterises it, at the size the result needs.
    /// An SVG answered as SVG is sanitised first (``ServiceConfiguration/sanitizesSVG``).
    extension ResultProducer {
        /// Whether an SVG source with `plan` is answered as SVG.
        func answersSVG(_ plan: ProcessingPlan) -> Bool {
            options.format == nil && !configuration.alwaysRasterizesSVG
                && (options.bestFormats.isEmpty || configuration.bestFormat.allowsSkips) && asksForNoProcessing(plan)
        }

        /// The source's own bytes as the result; an SVG's sanitised unless the service says not to.
        func sourceAsItIs(_ data: Data, info: ImageInfo) throws(WebImageError) -> ProcessedResult {
            let type = info.format.mimeType ?? "application/octet-stream"
            guard info.format == .svg, configuration.sanitizesSVG else {
                return ProcessedResult(data: data, contentType: type)
            }
            return ProcessedResult(data: try SVGSanitizer.sanitized(data), contentType: type)
        }
    }
#endif
