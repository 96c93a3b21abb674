import AsyncHTTPClient
import Foundation
import NIOCore
import NIOFoundationCompat
import NIOHTTP1
import Synchronization

/// One transfer once it has a slot, top to bottom: the request, the attempts (with retries),
/// the exchange (redirects, the basic-auth round trip, cookies and validators), then the
/// response's checks and its body, collected by a ``BodyReceiver``. The idle timeouts that watch
/// each attempt close this file; which URLs are sent and when credentials travel is in
/// `HTTPTransfer+Rules.swift`.
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
                    try await Task.sleep(nanoseconds: UInt64(clamping: min(delay, 86_400) * 1_000_000_000))
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
            let approval = try await config.requestValidator?(url) ?? .resolveAsUsual
            // Held until this hop's response is read (the `defer` runs at the end of the hop).
            let lease = try pinnedLease(for: url, approval)
            defer { if let lease { environment.pinnedClients.release(lease) } }
            let client = lease?.client ?? environment.client
            let (outgoing, validatorsSent) = makeClientRequest(
                url: url, target: target, method: method, headers: headers, body: body,
                sendsCredentials: sendsCredentials)
            record.withLock { $0.metrics.requestCount += 1 }
            environment.statistics.countRequest()
            let response = try await client.execute(outgoing, deadline: .distantFuture)
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

    /// The client pinned to the address the validator approved, when it named one other than
    /// the URL's own host.
    private func pinnedLease(for url: URL, _ approval: RequestApproval) throws(WebImageError) -> PinnedClients.Lease? {
        guard let address = approval.connectAddress, let host = url.host, host != address else { return nil }
        guard let lease = environment.pinnedClients.lease(host: host, address: address) else {
            throw .invalidDownloadOperation("the downloader was shut down")
        }
        return lease
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

    // MARK: The response

    /// Checks the response head in SDWebImage's order — response modifier (2003), status (2001),
    /// content type (2004) — then streams the body under the size and pixel limits.
    func receive(
        _ response: HTTPClientResponse, from url: URL, validatorsSent: Bool, activity: IdleActivity?
    ) async throws -> (Data, ImageDownloadResponse) {
        let config = environment.config
        var headers = ImageDownloadHeaders()
        // The client already refused CR/LF in header fields, so none is dropped here.
        for header in response.headers { try? headers.add(name: header.name, value: header.value) }
        let retryAfter = response.headers.first(name: "Retry-After")
        var head = ImageDownloadResponse(url: url, statusCode: Int(response.status.code), headers: headers)
        if let modifier = context?.downloadResponseModifier ?? environment.responseModifier {
            guard let modified = await modifier.modifiedResponse(head) else {
                throw WebImageError.invalidDownloadResponse
            }
            head = modified
        }
        record.withLock { $0.response = head }
        work.send(.responseHead(head))
        // A 304 answers our validators, whatever the acceptable codes say.
        if head.statusCode == 304, validatorsSent { throw WebImageError.cacheNotModified }
        if let codes = config.acceptableStatusCodes, !codes.contains(head.statusCode) {
            throw AttemptFailure(error: .invalidDownloadStatusCode(head.statusCode), retryAfter: retryAfter)
        }
        if let types = config.acceptableContentTypes {
            let type = head.mimeType
            guard let type, types.contains(where: { $0.lowercased() == type }) else {
                throw WebImageError.invalidDownloadContentType(type)
            }
        }
        if head.statusCode == 304 { throw WebImageError.cacheNotModified }

        environment.events.emit(.receivedResponse(url: self.url, response: head))
        work.send(.response(head))

        let codings = ResponseInflater.codings(in: response.headers)
        guard codings.count <= ResponseInflater.maximumCodings else {
            throw WebImageError.transferFailed(
                TransferFailure(
                    .badServerResponse,
                    "\(url.absoluteString): \(codings.count) content codings; at most \(ResponseInflater.maximumCodings) are undone"
                ))
        }
        let declared = ImageDownloadResponse(url: url, statusCode: 200, headers: headers).expectedContentLength
        // With a coding, Content-Length counts the coded bytes: the decoded size is unknown.
        let expected = codings.isEmpty ? declared : -1
        let maxSize = config.effectiveMaxResponseSize
        if declared > maxSize, codings.isEmpty {
            throw WebImageError.transferFailed(
                TransferFailure(
                    .responseTooLarge, "\(url.absoluteString): \(declared) bytes declared; the limit is \(maxSize)"))
        }
        var receiver = BodyReceiver(
            work: work, expected: expected, maxSize: maxSize, url: url,
            sendsEveryChunk: options.contains(.progressiveLoad))
        receiver.reportProgress()
        let inflater = ResponseInflater(codings: codings, limit: maxSize)
        for try await chunk in response.body {
            activity?.touch()
            if let inflater {
                for part in try inflater.inflate(chunk) { try receiver.append(part) }
            } else {
                try receiver.append(chunk)
            }
        }
        try inflater?.finish()
        if expected >= 0, receiver.count < expected {
            throw WebImageError.transferFailed(
                TransferFailure(
                    .connectionLost, "\(url.absoluteString): \(receiver.count) of \(expected) bytes arrived"))
        }
        receiver.reportFinalProgress()
        record.withLock { $0.metrics.receivedBytes = receiver.count }
        environment.statistics.countBytes(receiver.count)
        return (receiver.data, head)
    }
}

// MARK: Attempts and their idle timeouts

/// A failed attempt, with the `Retry-After` the server sent, for the retry policy.
struct AttemptFailure: Error {
    var error: WebImageError
    var retryAfter: String?
    /// The downloader's idle timeout interrupted the attempt (by cancelling its task).
    var isIdleTimeout = false
}

/// The last moment bytes moved in one attempt, and whether its idle timeout or its overall
/// deadline fired.
final class IdleActivity: Sendable {
    private let last = Atomic<UInt64>(DispatchTime.now().uptimeNanoseconds)
    private let expired = Atomic<Bool>(false)
    private let pastDeadline = Atomic<Bool>(false)
    /// When the attempt started, for its overall deadline.
    let startNanoseconds = DispatchTime.now().uptimeNanoseconds

    func touch() { last.store(DispatchTime.now().uptimeNanoseconds, ordering: .relaxed) }

    var idleNanoseconds: UInt64 {
        let now = DispatchTime.now().uptimeNanoseconds
        let then = last.load(ordering: .relaxed)
        return now > then ? now - then : 0
    }

    /// Whether a timeout fired (the attempt was interrupted because of it).
    var timedOut: Bool { expired.load(ordering: .acquiring) }
    /// Whether the timeout that fired was the overall deadline, not the idle one.
    var exceededDeadline: Bool { pastDeadline.load(ordering: .acquiring) }

    fileprivate func markTimedOut(byDeadline: Bool) {
        if byDeadline { pastDeadline.store(true, ordering: .releasing) }
        expired.store(true, ordering: .releasing)
    }
}

/// The idle timeouts of one downloader's running attempts, checked by a single timer task.
///
/// AsyncHTTPClient's own read timeout cancels and re-arms an event-loop timer on every body
/// chunk, a visible share of a download-heavy workload's CPU time; here an attempt only
/// stamps the time on each chunk, and one task looks at every attempt a few times a second
/// (at most a twentieth of the shortest timeout apart). The task ends when nothing is watched.
final class IdleTimeouts: Sendable {
    private struct Watch {
        let activity: IdleActivity
        let limit: UInt64
        /// Uptime after which the attempt fails however steadily bytes arrive; nil: none.
        let deadline: UInt64?
        let onTimeout: @Sendable () -> Void
    }

    private struct State {
        var watches: [Int: Watch] = [:]
        var nextID = 0
        var monitorRunning = false
    }

    private let state = Locked(State())

    /// Starts watching an attempt; `onTimeout` runs once if `activity` sees nothing for
    /// `timeout` seconds, or once the attempt has run for `totalTimeout` seconds (a server
    /// dripping a byte now and then never trips the idle timeout), before ``unwatch(_:)``.
    func watch(
        _ activity: IdleActivity, timeout: TimeInterval, totalTimeout: TimeInterval? = nil,
        onTimeout: @escaping @Sendable () -> Void
    ) -> Int {
        let limit = UInt64(clamping: timeout.clamped(to: 0.001...86_400) * 1_000_000_000)
        let deadline = totalTimeout.map {
            activity.startNanoseconds + UInt64(clamping: $0.clamped(to: 0.001...86_400) * 1_000_000_000)
        }
        let (id, startMonitor) = state.withLock { state -> (Int, Bool) in
            state.nextID += 1
            state.watches[state.nextID] = Watch(
                activity: activity, limit: limit, deadline: deadline, onTimeout: onTimeout)
            defer { state.monitorRunning = true }
            return (state.nextID, !state.monitorRunning)
        }
        // On the network threads, with the transfers whose bodies it watches: neither waits
        // behind CPU work (that runs on the CPU threads) or a host that blocks Swift's
        // cooperative pool, so an attempt is called idle only when its bytes stopped coming.
        if startMonitor {
            Task.detached(executorPreference: ThreadPoolExecutor.network, priority: .low) { [self] in await monitor() }
        }
        return id
    }

    func unwatch(_ id: Int) {
        _ = state.withLock { $0.watches.removeValue(forKey: id) }
    }

    private func monitor() async {
        while true {
            let now = DispatchTime.now().uptimeNanoseconds
            let (expired, period) = state.withLock { state -> ([(Watch, byDeadline: Bool)], UInt64?) in
                var expired: [(Watch, byDeadline: Bool)] = []
                var shortest = UInt64.max
                for (id, watch) in state.watches {
                    if let deadline = watch.deadline, now >= deadline {
                        expired.append((watch, byDeadline: true))
                        state.watches[id] = nil
                    } else if watch.activity.idleNanoseconds >= watch.limit {
                        expired.append((watch, byDeadline: false))
                        state.watches[id] = nil
                    } else {
                        shortest = min(shortest, watch.limit)
                    }
                }
                guard !state.watches.isEmpty else {
                    state.monitorRunning = false
                    return (expired, nil)
                }
                return (expired, min(max(shortest / Self.looksPerTimeout, 2_000_000), 250_000_000))
            }
            for (watch, byDeadline) in expired {
                watch.activity.markTimedOut(byDeadline: byDeadline)
                watch.onTimeout()
            }
            guard let period else { return }
            try? await Task.sleep(nanoseconds: period)
        }
    }

    /// How often the monitor looks within the shortest timeout it watches: a timeout fires at
    /// most a twentieth of itself late (and at most 250 ms).
    private static let looksPerTimeout: UInt64 = 20
}
