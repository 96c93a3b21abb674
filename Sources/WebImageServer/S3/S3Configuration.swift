#if Server
    import Foundation
    import WebImage

    /// Where and how the service keeps results (and optionally sources) in S3, as a second tier
    /// behind its local disk cache.
    ///
    /// Objects are addressed path-style, `{endpoint}/{bucket}/{prefix}{results|sources}/{hash}`,
    /// which AWS, MinIO and moto_server all accept. S3 is an optimisation: when it is slow or down,
    /// a lookup costs at most ``requestTimeout`` and reads as a miss; after ``failureThreshold``
    /// failures in a row, S3 is skipped for ``coolDown``.
    public struct S3Configuration: Sendable {
        /// The service's base URL, e.g. `https://s3.eu-west-1.amazonaws.com` or `http://127.0.0.1:9000`.
        public var endpoint: URL
        public var bucket: String
        /// The region requests are signed for (`us-east-1` for MinIO and moto_server).
        public var region: String
        /// Put before every object key, e.g. `webimage/`.
        public var prefix: String
        public var credentials: S3Credentials
        /// Keep source bytes in S3 too, not only results.
        public var storesSources = false
        /// How long connecting may take (1 s by default).
        public var connectTimeout: Duration = .seconds(1)
        /// How long one request may take in all, connecting included (2 s by default).
        public var requestTimeout: Duration = .seconds(2)
        /// Objects larger than this are neither read nor written (64 MiB by default).
        public var maxObjectBytes = 64 << 20
        /// Failures in a row after which S3 is skipped for ``coolDown`` (3 by default).
        public var failureThreshold = 3
        /// How long S3 is skipped after ``failureThreshold`` failures (10 s by default).
        public var coolDown: Duration = .seconds(10)

        public init(endpoint: URL, bucket: String, region: String, prefix: String = "", credentials: S3Credentials) {
            self.endpoint = endpoint
            self.bucket = bucket
            self.region = region
            self.prefix = prefix
            self.credentials = credentials
        }
    }
#endif
