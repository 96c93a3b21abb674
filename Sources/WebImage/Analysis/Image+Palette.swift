extension Image {
    /// Up to `maximumColors` colours that together stand for the image, the most common first:
    /// imgproxy's `palette`.
    ///
    /// `maximumColors` must be 2...256 (imgproxy's bounds), or this throws
    /// ``WebImageError/invalidArgument(_:underlying:)``. An image with fewer colours gives fewer,
    /// and exactly its own. The colours come from median cut over at most 65 536 pixels taken
    /// on an even grid, so a large image costs no more than a 256×256 one; fully transparent
    /// pixels count as ``RGBA8/clear``, whatever colour they hide. The orientation does not
    /// matter to a palette.
    public func palette(maximumColors: Int) throws(WebImageError) -> [RGBA8] {
        guard (2...256).contains(maximumColors) else {
            throw .invalidArgument("palette size must be 2...256, got \(maximumColors)")
        }
        let samples = AnalysisInput.gridSamples(of: bitmap)
        return MedianCut.quantize(samples, maximumColors: maximumColors).map(\.color)
    }
}
