#if Server
    import ArgumentParser
    import Foundation
    import WebImage
    import WebImageServer

    /// `webimage serve`'s S3 tier flags, each also a `WEBIMAGE_S3_*` variable; the keys come from
    /// `AWS_ACCESS_KEY_ID`, `AWS_SECRET_ACCESS_KEY` and `AWS_SESSION_TOKEN` (read by ``ServeOptions``).
    struct ServeS3Options: ParsableArguments {
        @Option(
            help: ArgumentHelp(
                "Keep results in this S3-compatible service too, behind the disk cache (path-style).",
                valueName: "URL"))
        var s3Endpoint: String?

        @Option(help: ArgumentHelp("The S3 bucket (with --s3-endpoint).", valueName: "NAME"))
        var s3Bucket: String?

        @Option(help: ArgumentHelp("The region S3 requests are signed for (with --s3-endpoint).", valueName: "R"))
        var s3Region: String?

        @Option(help: ArgumentHelp("Put before every S3 object key, e.g. webimage/ (default none).", valueName: "P"))
        var s3Prefix: String?

        @Flag(help: "Keep source images in S3 too, not only results.")
        var s3Sources = false

        @Option(
            parsing: .unconditional, help: "Seconds one S3 request may take before it counts as a miss (default 2).")
        var s3Timeout: String?

        /// The flags given, by name.
        var flagValues: [String: String] {
            let options: [String: String?] = [
                "s3-endpoint": s3Endpoint, "s3-bucket": s3Bucket, "s3-region": s3Region, "s3-prefix": s3Prefix,
                "s3-timeout": s3Timeout,
            ]
            return options.compactMapValues { $0 }.merging(s3Sources ? ["s3-sources": "true"] : [:]) { $1 }
        }
    }
#endif
