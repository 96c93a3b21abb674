#if Server
    import ArgumentParser
    import Foundation
    import WebImage
    import WebImageServer

    /// `webimage serve`'s autoquality and `best` format flags, each also a `WEBIMAGE_*` variable
    /// and read from imgproxy's `IMGPROXY_AUTOQUALITY_*` and `IMGPROXY_BEST_FORMAT_*`.
    struct ServeSmallerFilesOptions: ParsableArguments {
        @Option(
            help: ArgumentHelp(
                "How lossy results' quality is chosen: none, size or dssim (ml is read as dssim; default none).",
                valueName: "METHOD"))
        var autoqualityMethod: String?

        @Option(
            parsing: .unconditional,
            help: "Autoquality's goal: bytes for size, a DSSIM (1/SSIM - 1) for dssim (default 0.02).")
        var autoqualityTarget: String?

        @Option(parsing: .unconditional, help: "The lowest quality autoquality uses (default 70).")
        var autoqualityMin: String?

        @Option(parsing: .unconditional, help: "The highest quality autoquality uses (default 80).")
        var autoqualityMax: String?

        @Option(
            help: ArgumentHelp(
                "Per-format lowest qualities, e.g. avif=60,webp=65 (default avif=60).", valueName: "FORMAT=Q,..."))
        var autoqualityFormatMin: String?

        @Option(
            help: ArgumentHelp("Per-format highest qualities (default avif=65).", valueName: "FORMAT=Q,..."))
        var autoqualityFormatMax: String?

        @Option(parsing: .unconditional, help: "How far from the DSSIM target still counts as on it (default 0.002).")
        var autoqualityAllowedError: String?

        @Option(parsing: .unconditional, help: "Results with more pixels keep the usual quality (default 0: no limit).")
        var autoqualityMaxResultPixels: String?

        @Option(
            parsing: .unconditional,
            help: "best: images less complex than this are written losslessly (default 5.5).")
        var bestFormatComplexityThreshold: String?

        @Option(
            parsing: .unconditional,
            help: "best: results with more pixels get one format picked by rule (default 0: try every candidate).")
        var bestFormatMaxResultPixels: String?

        @Flag(help: "Use the best format when the URL names no format.")
        var bestFormatByDefault = false

        @Flag(help: "Let skip_processing and --skip-processing-format apply to the best format too.")
        var bestFormatAllowSkips = false

        /// The flags given, by name.
        var flagValues: [String: String] {
            let options: [String: String?] = [
                "autoquality-method": autoqualityMethod, "autoquality-target": autoqualityTarget,
                "autoquality-min": autoqualityMin, "autoquality-max": autoqualityMax,
                "autoquality-format-min": autoqualityFormatMin, "autoquality-format-max": autoqualityFormatMax,
                "autoquality-allowed-error": autoqualityAllowedError,
                "autoquality-max-result-pixels": autoqualityMaxResultPixels,
                "best-format-complexity-threshold": bestFormatComplexityThreshold,
                "best-format-max-result-pixels": bestFormatMaxResultPixels,
            ]
            let switches = [
                "best-format-by-default": bestFormatByDefault, "best-format-allow-skips": bestFormatAllowSkips,
            ]
            return options.compactMapValues { $0 }.merging(switches.filter(\.value).mapValues { _ in "true" }) { $1 }
        }
    }
#endif
