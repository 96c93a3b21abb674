import ArgumentParser
import Foundation
import WebImage
import WebImageServer

/// `webimage serve`'s S3 tier flags, each also a `WEBIMAGE_S3_*` variable; the keys come from
/// `AWS_ACCESS_KEY_ID`, `AWS_SECRET_ACCESS_KEY` and `AWS_SESSION_TOKEN`.
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

    @Option(help: "Seconds one S3 request may take before it counts as a miss (default 2).")
    var s3Timeout: Double?

    /// The S3 tier the flags and variables describe; nil when no endpoint is given.
    func configuration(_ settings: ServeSettings) throws -> S3Configuration? {
        let bucket = s3Bucket ?? settings.string("S3_BUCKET")
        let region = s3Region ?? settings.string("S3_REGION")
        guard let endpointText = s3Endpoint ?? settings.string("S3_ENDPOINT") else {
            if bucket != nil || region != nil { throw CommandFailure("--s3-bucket and --s3-region need --s3-endpoint") }
            return nil
        }
        guard let endpoint = URL(string: endpointText), ["http", "https"].contains(endpoint.scheme ?? ""),
            endpoint.host?.isEmpty == false
        else { throw CommandFailure("--s3-endpoint must be an http or https URL, got \(endpointText)") }
        guard let bucket, !bucket.contains("/") else {
            throw CommandFailure("--s3-endpoint needs --s3-bucket NAME (a bucket name without '/')")
        }
        guard let region else { throw CommandFailure("--s3-endpoint needs --s3-region (us-east-1 for MinIO)") }
        guard let credentials = S3Credentials(environment: settings.environment) else {
            throw CommandFailure("--s3-endpoint needs AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY in the environment")
        }
        var configuration = S3Configuration(
            endpoint: endpoint, bucket: bucket, region: region, prefix: s3Prefix ?? settings.string("S3_PREFIX") ?? "",
            credentials: credentials)
        configuration.storesSources = s3Sources || settings.flag("S3_SOURCES")
        if let seconds = try s3Timeout ?? settings.number("S3_TIMEOUT") {
            guard seconds.isFinite, seconds > 0, seconds <= 600 else {
                throw CommandFailure("--s3-timeout must be a positive number of seconds")
            }
            configuration.requestTimeout = .milliseconds(Int64(clamping: seconds * 1000))
            configuration.connectTimeout = min(configuration.connectTimeout, configuration.requestTimeout)
        }
        return configuration
    }
}
