#if Server
    import Foundation
    import WebImage

    extension ServeOptions {
        /// The S3 tier the `s3-*` settings describe; nil when no endpoint is given. The keys come
        /// from `AWS_ACCESS_KEY_ID`, `AWS_SECRET_ACCESS_KEY` and `AWS_SESSION_TOKEN`.
        static func s3(_ settings: ServeSettings) throws(ServeSettingError) -> S3Configuration? {
            let bucket = try settings.value("s3-bucket")
            let region = try settings.value("s3-region")
            guard let endpointValue = try settings.value("s3-endpoint") else {
                if let given = bucket ?? region { throw ServeSettingError("\(given.source) needs --s3-endpoint") }
                return nil
            }
            let endpointText = endpointValue.text
            guard let endpoint = URL(string: endpointText), ["http", "https"].contains(endpoint.scheme ?? ""),
                endpoint.host?.isEmpty == false
            else {
                throw ServeSettingError("\(endpointValue.source) must be an http or https URL, got \(endpointText)")
            }
            guard let bucket, !bucket.text.contains("/") else {
                throw ServeSettingError("\(endpointValue.source) needs --s3-bucket NAME (a bucket name without '/')")
            }
            guard let region else {
                throw ServeSettingError("\(endpointValue.source) needs --s3-region (us-east-1 for MinIO)")
            }
            guard let credentials = S3Credentials(environment: settings.environment) else {
                throw ServeSettingError(
                    "\(endpointValue.source) needs AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY in the environment")
            }
            var configuration = S3Configuration(
                endpoint: endpoint, bucket: bucket.text, region: region.text,
                prefix: try settings.string("s3-prefix") ?? "", credentials: credentials)
            configuration.storesSources = try settings.bool("s3-sources") ?? false
            if let seconds = try settings.seconds(
                "s3-timeout", in: Double.leastNonzeroMagnitude...600, "a number of seconds above 0 and at most 600")
            {
                configuration.requestTimeout = Duration(clampingSeconds: seconds)
                configuration.connectTimeout = min(configuration.connectTimeout, configuration.requestTimeout)
            }
            return configuration
        }
    }
#endif
