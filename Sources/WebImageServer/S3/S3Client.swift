#if Server
    import AsyncHTTPClient
    import Crypto
    import Foundation
    import NIOCore
    import NIOHTTP1
    import WebImage

    /// GET, HEAD, PUT and DELETE of whole objects on an S3-compatible service, signed with
    /// Signature Version 4, path-style, each bounded by the configuration's timeouts and size limit.
    ///
    /// A missing object (404) is nil or false; any other failure — 403, 5xx, a timeout, a refused or
    /// reset connection, an object above the size limit — is a ``ServiceError`` (504 for a timeout,
    /// 502 otherwise).
    final class S3Client: Sendable {
        let configuration: S3Configuration
        private let http: HTTPClient
        private let signer: SigV4Signer
        /// Round trips made, for the metrics.
        private let onRoundTrip: @Sendable () -> Void
        /// Requests carry the current span's `traceparent` when tracing.
        private let tracing: ServiceTracing

        init(
            configuration: S3Configuration, tracing: ServiceTracing = ServiceTracing(tracer: nil),
            onRoundTrip: @escaping @Sendable () -> Void = {}
        ) {
            self.configuration = configuration
            self.tracing = tracing
            self.onRoundTrip = onRoundTrip
            signer = SigV4Signer(credentials: configuration.credentials, region: configuration.region, service: "s3")
            var httpConfiguration = HTTPClient.Configuration()
            httpConfiguration.timeout = .init(connect: Self.timeAmount(configuration.connectTimeout))
            httpConfiguration.redirectConfiguration = .disallow
            // The s3.get and s3.put spans are ours; no request spans from AsyncHTTPClient besides.
            httpConfiguration.tracing.tracer = nil
            http = HTTPClient(eventLoopGroupProvider: .singleton, configuration: httpConfiguration)
        }

        /// The object's bytes, or nil if there is none.
        func get(_ key: String) async throws(ServiceError) -> Data? {
            let (status, body) = try await send("GET", key: key, body: nil)
            if status == 404 { return nil }
            try Self.check(status)
            return body
        }

        /// Whether the object exists.
        func head(_ key: String) async throws(ServiceError) -> Bool {
            let (status, _) = try await send("HEAD", key: key, body: nil)
            if status == 404 { return false }
            try Self.check(status)
            return true
        }

        func put(_ key: String, data: Data) async throws(ServiceError) {
            guard data.count <= configuration.maxObjectBytes else { throw .badGateway("S3 object too large to store") }
            try Self.check(try await send("PUT", key: key, body: data).status)
        }

        /// Deletes the object; deleting a missing object succeeds.
        func delete(_ key: String) async throws(ServiceError) {
            let status = try await send("DELETE", key: key, body: nil).status
            if status != 404 { try Self.check(status) }
        }

        func shutdown() async {
            try? await http.shutdown()
        }

        /// `/{bucket}/{prefix}{key}`, not yet encoded.
        func objectPath(_ key: String) -> String {
            "/" + configuration.bucket + "/" + configuration.prefix + key
        }

        private static func check(_ status: Int) throws(ServiceError) {
            guard (200..<300).contains(status) else { throw .badGateway("S3 answered \(status)") }
        }

        /// The signed request for `method` on `key`.
        private func signedRequest(_ method: String, key: String, body: Data?) throws(ServiceError) -> HTTPClientRequest
        {
            let endpoint = configuration.endpoint
            guard let scheme = endpoint.scheme, let host = endpoint.host, !host.isEmpty else {
                throw .badGateway("the S3 endpoint has no host")
            }
            let bracketed = host.contains(":") && !host.hasPrefix("[") ? "[\(host)]" : host
            let hostHeader = endpoint.port.map { "\(bracketed):\($0)" } ?? bracketed
            // An endpoint may sit under a path (behind a proxy); it is part of what is signed.
            let basePath = endpoint.path.hasSuffix("/") ? String(endpoint.path.dropLast()) : endpoint.path
            let path = basePath + objectPath(key)
            let payloadHash = body.map { SigV4Signer.hex(SHA256.hash(data: $0)) } ?? SigV4Signer.emptyPayloadHash
            let amzDate = SigV4Signer.timestamp(Date()).amzDate
            var headers: [(name: String, value: String)] = [
                ("Host", hostHeader), ("x-amz-content-sha256", payloadHash), ("x-amz-date", amzDate),
            ]
            if let token = configuration.credentials.sessionToken { headers.append(("x-amz-security-token", token)) }
            let authorization = signer.authorization(
                for: SigV4Request(method: method, path: path, headers: headers, payloadHash: payloadHash),
                amzDate: amzDate)
            var request = HTTPClientRequest(
                url: "\(scheme)://\(hostHeader)" + SigV4Signer.encode(path, keepSlash: true))
            request.method = HTTPMethod(rawValue: method)
            for (name, value) in headers { request.headers.add(name: name, value: value) }
            request.headers.add(name: "Authorization", value: authorization)
            // Not signed: SigV4 covers only the headers it lists.
            for (name, value) in tracing.propagationHeaders() { request.headers.add(name: name, value: value) }
            if let body { request.body = .bytes(ByteBuffer(bytes: body)) }
            return request
        }

        private func send(_ method: String, key: String, body: Data?) async throws(ServiceError) -> (
            status: Int, body: Data
        ) {
            let request = try signedRequest(method, key: key, body: body)
            onRoundTrip()
            do {
                let response = try await http.execute(request, timeout: Self.timeAmount(configuration.requestTimeout))
                let status = Int(response.status.code)
                let limit = configuration.maxObjectBytes
                if let length = response.headers.first(name: "Content-Length").flatMap(Int.init), length > limit,
                    method == "GET", status == 200
                {
                    throw ServiceError.badGateway("S3 object above \(limit) bytes")
                }
                // Error bodies are short XML; nothing is kept of any body beyond the limit.
                let collected = try await response.body.collect(upTo: limit)
                return (status, Data(collected.readableBytesView))
            } catch let error as ServiceError {
                throw error
            } catch let error as HTTPClientError
                where [.deadlineExceeded, .readTimeout, .connectTimeout, .writeTimeout].contains(error)
            {
                throw .gatewayTimeout("S3 did not answer in time")
            } catch is NIOTooManyBytesError {
                throw .badGateway("S3 object above \(configuration.maxObjectBytes) bytes")
            } catch {
                throw .badGateway("S3 request failed: \(type(of: error))")
            }
        }

        static func timeAmount(_ duration: Duration) -> TimeAmount {
            let (seconds, attoseconds) = duration.components
            return .nanoseconds(seconds * 1_000_000_000 + attoseconds / 1_000_000_000)
        }
    }
#endif
