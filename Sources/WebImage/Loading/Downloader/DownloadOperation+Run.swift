import Foundation

extension DownloadOperation {
    /// The whole life of a started download: request, transfer, then one result per caller.
    func run(_ environment: DownloadEnvironment) async {
        updateSnapshot { $0.metrics.startDate = Date() }
        environment.events.emit(.start(url: url))
        if isProgressObserved {
            for token in tokens { token.reportProgress(received: 0, expected: -1, interval: 0) }
        }
        let outcome: Result<DownloadedBody, WebImageError>
        do throws(WebImageError) {
            let request = try await makeRequest(environment)
            updateSnapshot { $0.request = request }
            outcome = .success(
                try await HTTPTransfer(operation: self, environment: environment, request: request).run())
        } catch {
            // An idle timeout cancels the task to interrupt the transfer; it stays a timeout.
            outcome = .failure(Task.isCancelled && !Self.isTimeout(error) ? .cancelled : error)
        }
        updateSnapshot { $0.metrics.endDate = Date() }
        environment.events.emit(.stop(url: url))
        switch outcome {
        case .success(let body):
            environment.events.emit(.finish(url: url))
            finish(body, environment: environment)
        case .failure(let error):
            fail(error)
        }
    }

    /// The downloader's headers, then its headers filter, then the request modifier (the
    /// context's wins over the downloader's). Either may refuse with 2000.
    private func makeRequest(_ environment: DownloadEnvironment) async throws(WebImageError) -> ImageDownloadRequest {
        var headers = environment.headers
        if let filter = environment.headersFilter {
            guard let filtered = filter(url, headers) else {
                throw .invalidDownloadOperation("the headers filter refused \(url.absoluteString)")
            }
            headers = filtered
        }
        var request = ImageDownloadRequest(url: url, headers: headers, timeout: environment.config.effectiveTimeout)
        request.knownAbsoluteString = key
        if let modifier = context?.downloadRequestModifier ?? environment.requestModifier {
            guard let modified = await modifier.modifiedRequest(request) else {
                throw .invalidDownloadOperation("the request modifier returned nil for \(url.absoluteString)")
            }
            request = modified
        }
        return request
    }

    /// Decrypts, then decodes once per distinct decode options and coder. The operation closes
    /// before the first result goes out, so a caller arriving from then on gets a new transfer.
    private func finish(_ body: DownloadedBody, environment: DownloadEnvironment) {
        var data = body.data
        if let decryptor = context?.downloadDecryptor ?? environment.decryptor {
            guard
                let plain = decryptor.decryptedData(
                    data, url: body.response.url, headers: body.response.headers.fields.map { ($0.name, $0.value) })
            else {
                return fail(.badImageData("\(url.absoluteString): the decryptor returned nil"))
            }
            data = plain
        }
        if options.contains(.ignoreCachedResponse), let cached = context?.loaderCachedData, cached == data {
            return fail(.cacheNotModified)
        }
        var metadata: DiskCacheMetadata?
        var decoded: [(options: ImageDecodeOptions, coder: ObjectIdentifier, result: Result<Image, WebImageError>)] = []
        for token in closeAndTakeTokens() {
            guard token.isWaiting else { continue }
            if token.dataSink != nil {
                token.deliverData(data)
                continue
            }
            let coderID = Self.identity(of: token.coder)
            let result: Result<Image, WebImageError>
            if let coderID,
                let hit = decoded.first(where: { $0.coder == coderID && $0.options == token.decodeOptions })
            {
                result = hit.result
            } else {
                result = Result { () throws(WebImageError) in
                    try ImageLoaderDecoding.decode(
                        data, url: url, decodeOptions: token.decodeOptions, coder: token.coder)
                }
                if let coderID { decoded.append((token.decodeOptions, coderID, result)) }
            }
            let headers = metadata ?? Self.metadata(of: body.response)
            metadata = headers
            token.deliver(
                result.map { ImageLoadResult(image: $0, data: data, metadata: headers, isFinished: true) })
        }
    }

    /// What a cache keeps of the response's headers; only image callers need it.
    private static func metadata(of response: ImageDownloadResponse) -> DiskCacheMetadata {
        var fields: [String: String] = [:]
        for (name, value) in response.headers.fields { fields[name] = value }
        return DiskCacheMetadata(httpHeaders: fields)
    }

    /// Ends every caller with `error`. The operation closes first: a caller arriving now gets a
    /// fresh transfer rather than a failure it never waited for.
    private func fail(_ error: WebImageError) {
        for token in closeAndTakeTokens() { token.deliver(.failure(error)) }
    }

    private static func isTimeout(_ error: WebImageError) -> Bool {
        error.transferFailure?.kind == .timedOut
    }

    /// Coders that are classes can share a decode; value-type coders might differ, so never do.
    private static func identity(of coder: any ImageCoding) -> ObjectIdentifier? {
        type(of: coder) is AnyClass ? ObjectIdentifier(coder as AnyObject) : nil
    }
}
