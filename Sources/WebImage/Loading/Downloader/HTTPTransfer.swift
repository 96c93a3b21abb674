import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import NIOSSL

/// One transfer once it has a slot: the request, the attempts (with retries), then the body
/// handed to the transfer's subscribers, then the exchange (redirects, the basic-auth round trip,
/// cookies and validators). The response checks and the body are in `HTTPTransfer+Body.swift`.
struct HTTPTransfer: Sendable {
    /// The URL the first subscriber asked for, and its `absoluteString`.
    let url: URL
    let key: String
    /// The first subscriber's options and context, which shape the request (as in SDWebImage).
    let options: ImageDownloaderOptions
    let context: WebImageContext?
    /// The shared work: where events go, and what an idle timeout interrupts.
    let work: ImageDownloader.Transfers.Work
    let environment: DownloadEnvironment
    /// What the transfer measured so far.
    let record = Locked(TransferReport())

    var config: ImageDownloaderConfig { environment.config }

    /// The whole transfer: request, attempts, then the decrypted body. Emits the downloader's
    /// start, stop and finish events around it.
    func run() async throws(WebImageError) -> DownloadedBody {
        record.withLock { $0.metrics.startDate = Date() }
        environment.events.emit(.start(url: url))
        work.send(.progress(received: 0, expected: -1))
        let outcome: Result<(Data, ImageDownloadResponse), WebImageError>
        do throws(WebImageError) {
            let request = try await makeRequest()
            record.withLock { $0.request = request }
            work.send(.request(request))
            outcome = .success(try await attempts(request))
        } catch {
            // An idle timeout interrupts the task; it stays a timeout.
            outcome = .failure(Task.isCancelled && error.transferFailure?.kind != .timedOut ? .cancelled : error)
        }
        record.withLock { $0.metrics.endDate = Date() }
        environment.events.emit(.stop(url: url))
        let (data, response) = try outcome.get()
        environment.events.emit(.finish(url: url))
        return try finish(data, response: response)
    }

    /// The downloader's headers, then its headers filter, then the request modifier (the
    /// context's wins over the downloader's). Either may refuse with 2000.
    private func makeRequest() async throws(WebImageError) -> ImageDownloadRequest {
        var headers = environment.headers
        if let filter = environment.headersFilter {
            guard let filtered = filter(url, headers) else {
                throw .invalidDownloadOperation("the headers filter refused \(url.absoluteString)")
            }
            headers = filtered
        }
        var request = ImageDownloadRequest(url: url, headers: headers, timeout: config.effectiveTimeout)
        request.knownAbsoluteString = key
        if let modifier = context?.downloadRequestModifier ?? environment.requestModifier {
            guard let modified = await modifier.modifiedRequest(request) else {
                throw .invalidDownloadOperation("the request modifier returned nil for \(url.absoluteString)")
            }
            request = modified
        }
        return request
    }

    /// Decrypts the body, and turns bytes identical to the cached ones into `cacheNotModified`.
    private func finish(_ body: Data, response: ImageDownloadResponse) throws(WebImageError) -> DownloadedBody {
        var data = body
        if let decryptor = context?.downloadDecryptor ?? environment.decryptor {
            guard
                let plain = decryptor.decryptedData(
                    data, url: response.url, headers: response.headers.fields.map { ($0.name, $0.value) })
            else { throw .badImageData("\(url.absoluteString): the decryptor returned nil") }
            data = plain
        }
        if options.contains(.ignoreCachedResponse), let cached = context?.loaderCachedData, cached == data {
            throw .cacheNotModified
        }
        return DownloadedBody(data: data, report: record.withLock { $0 })
    }

    /// Runs attempts until one succeeds or the retry policy gives up.
    private func attempts(_ request: ImageDownloadRequest) async throws(WebImageError) -> (Data, ImageDownloadResponse)
    {
        var attempt = 1
        var random = SystemRandomNumberGenerator()
        while true {
            do {
                return try await attemptOnce(request)
            } catch {
                // Our own idle timeout interrupts the attempt by cancelling it: that is not the
                // caller's cancel.
                if Task.isCancelled, !error.isIdleTimeout { throw .cancelled }
                guard
                    let delay = config.retryPolicy.retryDelay(
                        afterAttempt: attempt, error: error.error, retryAfter: error.retryAfter, now: Date(),
                        random: &random),
                    delay.isFinite, delay >= 0
                else { throw error.error }
                do {
                    try await Task.sleep(nanoseconds: UInt64(min(delay, 86_400) * 1_000_000_000))
                } catch {
                    throw .cancelled
                }
                attempt += 1
            }
        }
    }

    private func attemptOnce(_ request: ImageDownloadRequest) async throws(AttemptFailure) -> (
        Data, ImageDownloadResponse
    ) {
        let clientTimeout = config.effectiveTimeout
        let timeout =
            request.timeout.isFinite && request.timeout > 0 ? min(request.timeout, clientTimeout) : clientTimeout
        let activity = IdleActivity()
        do {
            if config.retryPolicy.maxAttempts > 1 {
                // A timed-out attempt may be followed by another: it runs in a task of its
                // own, so interrupting it leaves the download's task free to retry.
                let attempt = Task { [self] () async throws -> (Data, ImageDownloadResponse) in
                    try await exchange(request, activity: activity)
                }
                let id = environment.idleTimeouts.watch(
                    activity, timeout: timeout, totalTimeout: config.effectiveResourceTimeout
                ) { attempt.cancel() }
                defer { environment.idleTimeouts.unwatch(id) }
                return try await withTaskCancellationHandler {
                    try await attempt.value
                } onCancel: {
                    attempt.cancel()
                }
            }
            let work = work
            let id = environment.idleTimeouts.watch(
                activity, timeout: timeout, totalTimeout: config.effectiveResourceTimeout
            ) { work.interrupt() }
            defer { environment.idleTimeouts.unwatch(id) }
            return try await exchange(request, activity: activity)
        } catch let failure as AttemptFailure {
            if activity.timedOut {
                throw AttemptFailure(error: timedOut(activity, after: timeout, request: request), isIdleTimeout: true)
            }
            throw failure
        } catch {
            if activity.timedOut {
                throw AttemptFailure(error: timedOut(activity, after: timeout, request: request), isIdleTimeout: true)
            }
            if Task.isCancelled { throw AttemptFailure(error: .cancelled) }
            throw AttemptFailure(error: HTTPErrorMapping.webImageError(error, url: request.url))
        }
    }

    private func timedOut(_ activity: IdleActivity, after timeout: TimeInterval, request: ImageDownloadRequest)
        -> WebImageError
    {
        if activity.exceededDeadline, let total = config.effectiveResourceTimeout {
            return .transferFailed(
                TransferFailure(.timedOut, "\(request.url.absoluteString): not complete after \(total) s"))
        }
        return .transferFailed(TransferFailure(.timedOut, "\(request.url.absoluteString): no data for \(timeout) s"))
    }
}

// MARK: The exchange

extension HTTPTransfer {
    /// Sends the request, following redirects and one basic-auth challenge, and receives the body.
    func exchange(_ request: ImageDownloadRequest, activity: IdleActivity) async throws -> (Data, ImageDownloadResponse)
    {
        var url = request.url
        var method = request.method.uppercased()
        var body = request.body
        var headers = request.headers
        var redirects = 0
        var sendsCredentials = false
        var knownTarget = request.knownAbsoluteString
        while true {
            let target = knownTarget ?? url.absoluteString
            guard Self.isFetchable(url, absoluteString: target) else { throw WebImageError.invalidURL(target) }
            let (outgoing, validatorsSent) = makeClientRequest(
                url: url, target: target, method: method, headers: headers, body: body,
                sendsCredentials: sendsCredentials)
            record.withLock { $0.metrics.requestCount += 1 }
            environment.statistics.countRequest()
            let response = try await environment.client.execute(outgoing, deadline: .distantFuture)
            activity.touch()
            if options.contains(.handleCookies) {
                let lines = response.headers["Set-Cookie"]
                if !lines.isEmpty { environment.cookieStore.store(setCookieHeaders: lines, for: url) }
            }
            let status = Int(response.status.code)
            if [301, 302, 303, 307, 308].contains(status), let location = response.headers.first(name: "Location") {
                redirects += 1
                guard redirects <= config.effectiveMaxRedirects else {
                    throw WebImageError.transferFailed(
                        TransferFailure(
                            .tooManyRedirects,
                            "\(request.url.absoluteString): more than \(config.effectiveMaxRedirects) redirects"))
                }
                guard let next = URL(string: location, relativeTo: url)?.absoluteURL else {
                    throw WebImageError.transferFailed(
                        TransferFailure(.badServerResponse, "\(url.absoluteString): bad Location '\(location)'"))
                }
                await Self.discard(response.body)
                if status == 303 || ((status == 301 || status == 302) && method != "GET" && method != "HEAD") {
                    method = "GET"
                    body = nil
                }
                if !Self.isSameOrigin(url, next) {
                    // Credentials meant for one origin never travel to another.
                    headers["Authorization"] = nil
                    headers["Cookie"] = nil
                }
                url = next
                knownTarget = nil
                sendsCredentials = false
                record.withLock { $0.metrics.redirectCount = redirects }
                continue
            }
            if status == 401, !sendsCredentials, config.username != nil, config.password != nil,
                response.headers["WWW-Authenticate"].contains(where: Self.isBasicChallenge)
            {
                await Self.discard(response.body)
                sendsCredentials = true
                continue
            }
            return try await receive(response, from: url, validatorsSent: validatorsSent, activity: activity)
        }
    }

    private func makeClientRequest(
        url: URL, target: String, method: String, headers: ImageDownloadHeaders, body: Data?, sendsCredentials: Bool
    ) -> (HTTPClientRequest, validatorsSent: Bool) {
        var outgoing = HTTPClientRequest(url: target)
        outgoing.method = HTTPMethod(rawValue: method)
        for (name, value) in headers.fields { outgoing.headers.add(name: name, value: value) }
        // As URLSession does; `receive` inflates what comes back (a caller's own value wins).
        if !outgoing.headers.contains(name: "Accept-Encoding") {
            outgoing.headers.add(name: "Accept-Encoding", value: "gzip, deflate")
        }
        if options.contains(.handleCookies), let cookies = environment.cookieStore.cookieHeader(for: url) {
            let own = outgoing.headers.first(name: "Cookie")
            outgoing.headers.replaceOrAdd(name: "Cookie", value: own.map { "\($0); \(cookies)" } ?? cookies)
        }
        var validatorsSent = false
        if options.contains(.ignoreCachedResponse) {
            for (name, value) in ImageDownloadConditionalRequest.headers(for: context?.loaderCachedMetadata) {
                outgoing.headers.replaceOrAdd(name: name, value: value)
                validatorsSent = true
            }
        }
        if sendsCredentials, let username = config.username, let password = config.password {
            let credentials = Data("\(username):\(password)".utf8).base64EncodedString()
            outgoing.headers.replaceOrAdd(name: "Authorization", value: "Basic \(credentials)")
        }
        if let body { outgoing.body = .bytes(ByteBuffer(bytes: body)) }
        if options.contains(.allowInvalidSSLCertificates) { outgoing.tlsConfiguration = Self.insecureTLS }
        return (outgoing, validatorsSent)
    }

    /// Certificates are not verified (``ImageDownloaderOptions/allowInvalidSSLCertificates``);
    /// the pool keys connections by TLS configuration, so these never serve other requests.
    private static let insecureTLS: TLSConfiguration = {
        var tls = TLSConfiguration.makeClientConfiguration()
        tls.certificateVerification = .none
        return tls
    }()

    /// Whether `url` (whose `absoluteString` is given) is http or https with a host: the only
    /// URLs sent (AsyncHTTPClient would also reach Unix sockets). A plain
    /// `http[s]://host[:port]` start is recognised on the string; anything else is asked of
    /// Foundation's parser, whose scheme and host getters cost more than the rest of this check.
    static func isFetchable(_ url: URL, absoluteString: String) -> Bool {
        if hasPlainHTTPStart(absoluteString) { return true }
        guard let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https" else { return false }
        return url.host?.isEmpty == false
    }

    /// `http://` or `https://` (any case), then a non-empty host of letters, digits, `-` and
    /// `.`, an optional `:` and digits, and the end or `/`, `?` or `#`. False means "not
    /// recognised", not "invalid".
    private static func hasPlainHTTPStart(_ string: String) -> Bool {
        var bytes = string.utf8.makeIterator()
        for expected in "http".utf8 {
            // `| 0x20` lowercases an ASCII letter; no other byte lands on a lowercase letter.
            guard let byte = bytes.next(), byte | 0x20 == expected else { return false }
        }
        var next = bytes.next()
        if let byte = next, byte | 0x20 == UInt8(ascii: "s") { next = bytes.next() }
        guard next == UInt8(ascii: ":"), bytes.next() == UInt8(ascii: "/"), bytes.next() == UInt8(ascii: "/") else {
            return false
        }
        var hostLength = 0
        var inPort = false
        while let byte = bytes.next() {
            switch byte {
            case UInt8(ascii: "/"), UInt8(ascii: "?"), UInt8(ascii: "#"):
                return hostLength > 0
            case UInt8(ascii: ":") where !inPort:
                inPort = true
            case UInt8(ascii: "0")...UInt8(ascii: "9"):
                if !inPort { hostLength += 1 }
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "-"),
                UInt8(ascii: "."):
                guard !inPort else { return false }
                hostLength += 1
            default:
                return false
            }
        }
        return hostLength > 0
    }

    private static func isBasicChallenge(_ value: String) -> Bool {
        value.trimmingCharacters(in: .whitespaces).lowercased().hasPrefix("basic")
    }

    private static func isSameOrigin(_ a: URL, _ b: URL) -> Bool {
        a.scheme?.lowercased() == b.scheme?.lowercased() && a.host?.lowercased() == b.host?.lowercased()
            && a.port == b.port
    }

    /// Reads and drops a small body (a redirect's or a challenge's) so the connection can be
    /// reused; a large one is abandoned, which closes the connection.
    static func discard(_ body: HTTPClientResponse.Body) async {
        var remaining = 64 * 1024
        do {
            for try await chunk in body {
                remaining -= chunk.readableBytes
                if remaining < 0 { return }
            }
        } catch {}
    }
}
