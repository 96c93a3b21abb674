import AsyncHTTPClient
import Foundation
import NIOCore
import NIOFoundationCompat
import NIOHTTP1
import NIOSSL
import Synchronization

/// One transfer once it has a slot, top to bottom: the request, the attempts (with retries),
/// the exchange (redirects, the basic-auth round trip, cookies and validators), then the
/// response's checks and its body, read on the event loop by a ``ResponseReader`` into a
/// ``BodyReceiver``. The idle timeouts that watch each attempt follow it, then which URLs are
/// sent and when credentials travel, and the request, response, header, inflation and body
/// types the transfer works with.
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
            let (outgoing, validatorsSent) = try makeClientRequest(
                url: url, target: target, method: method, headers: headers, body: body,
                sendsCredentials: sendsCredentials)
            record.withLock { $0.metrics.requestCount += 1 }
            environment.statistics.countRequest()
            let hop = Hop(url: url, validatorsSent: validatorsSent, sendsCredentials: sendsCredentials)
            let reader = ResponseReader(activity: activity) { [self] head in try decide(head, hop: hop) }
            let outcome = try await reader.read(outgoing, on: client) { head in
                try await modifiedBodySink(head, hop: hop)
            }
            switch outcome {
            case .received(_, let sink):
                return finished(sink)
            case .discarded(let head):
                if Task.isCancelled { throw CancellationError() }
                let status = Int(head.status.code)
                guard Self.isRedirect(head), let location = head.headers.first(name: "Location") else {
                    // An auth challenge answered with the credentials on the next round.
                    sendsCredentials = true
                    continue
                }
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
            }
        }
    }

    /// What one request of the exchange sent, for reading its response.
    struct Hop: Sendable {
        let url: URL
        let validatorsSent: Bool
        let sendsCredentials: Bool
    }

    /// A 301, 302, 303, 307 or 308 that says where to go.
    static func isRedirect(_ head: HTTPResponseHead) -> Bool {
        [301, 302, 303, 307, 308].contains(head.status.code) && head.headers.contains(name: "Location")
    }

    /// On the event loop, as the head arrives: stores its cookies, then drops the body of a
    /// redirect or of a basic-auth challenge we can answer, holds the body back for the task when
    /// a response modifier must see the head (it is async), and otherwise checks the head and
    /// collects the body.
    private func decide(_ head: HTTPResponseHead, hop: Hop) throws -> ResponseReader.Decision {
        if options.contains(.handleCookies) {
            let lines = head.headers["Set-Cookie"]
            if !lines.isEmpty { environment.cookieStore.store(setCookieHeaders: lines, for: hop.url) }
        }
        if Self.isRedirect(head) { return .discard }
        if head.status.code == 401, !hop.sendsCredentials, config.username != nil, config.password != nil,
            head.headers["WWW-Authenticate"].contains(where: Self.isBasicChallenge)
        {
            return .discard
        }
        if context?.downloadResponseModifier ?? environment.responseModifier != nil { return .wait }
        let (response, retryAfter) = downloadResponse(head, url: hop.url)
        return .receive(try bodySink(head, original: response, response: response, retryAfter: retryAfter, hop: hop))
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
    ) throws -> (HTTPClient.Request, validatorsSent: Bool) {
        var fields = HTTPHeaders()
        for (name, value) in headers.fields { fields.add(name: name, value: value) }
        // As URLSession does; the body sink inflates what comes back (a caller's own value wins).
        if !fields.contains(name: "Accept-Encoding") {
            fields.add(name: "Accept-Encoding", value: "gzip, deflate")
        }
        if options.contains(.handleCookies), let cookies = environment.cookieStore.cookieHeader(for: url) {
            let own = fields.first(name: "Cookie")
            fields.replaceOrAdd(name: "Cookie", value: own.map { "\($0); \(cookies)" } ?? cookies)
        }
        var validatorsSent = false
        if options.contains(.ignoreCachedResponse) {
            for (name, value) in ImageDownloadConditionalRequest.headers(for: context?.loaderCachedMetadata) {
                fields.replaceOrAdd(name: name, value: value)
                validatorsSent = true
            }
        }
        if sendsCredentials, let username = config.username, let password = config.password {
            let credentials = Data("\(username):\(password)".utf8).base64EncodedString()
            fields.replaceOrAdd(name: "Authorization", value: "Basic \(credentials)")
        }
        let outgoing = try HTTPClient.Request(
            url: target, method: HTTPMethod(rawValue: method), headers: fields,
            body: body.map { .byteBuffer(ByteBuffer(bytes: $0)) },
            tlsConfiguration: options.contains(.allowInvalidSSLCertificates) ? Self.insecureTLS : nil)
        return (outgoing, validatorsSent)
    }

    // MARK: The response

    /// The head as subscribers see it, and its `Retry-After`.
    private func downloadResponse(_ head: HTTPResponseHead, url: URL) -> (ImageDownloadResponse, retryAfter: String?) {
        var headers = ImageDownloadHeaders()
        // The client already refused CR/LF in header fields, so none is dropped here.
        for header in head.headers { try? headers.add(name: header.name, value: header.value) }
        let response = ImageDownloadResponse(url: url, statusCode: Int(head.status.code), headers: headers)
        return (response, head.headers.first(name: "Retry-After"))
    }

    /// The response modifier's turn (on the task: it is async), then the same checks and sink
    /// as ``decide(_:hop:)``'s.
    private func modifiedBodySink(_ head: HTTPResponseHead, hop: Hop) async throws -> BodySink {
        let (original, retryAfter) = downloadResponse(head, url: hop.url)
        var response = original
        if let modifier = context?.downloadResponseModifier ?? environment.responseModifier {
            guard let modified = await modifier.modifiedResponse(original) else {
                throw WebImageError.invalidDownloadResponse
            }
            response = modified
        }
        return try bodySink(head, original: original, response: response, retryAfter: retryAfter, hop: hop)
    }

    /// Checks the response in SDWebImage's order — response modifier (2003, before this),
    /// status (2001), content type (2004) — and makes the sink its body streams into, under the
    /// size and pixel limits. `original` is the head as the server sent it, `response` as the
    /// modifier left it.
    private func bodySink(
        _ head: HTTPResponseHead, original: ImageDownloadResponse, response: ImageDownloadResponse,
        retryAfter: String?, hop: Hop
    ) throws -> BodySink {
        let url = hop.url
        record.withLock { $0.response = response }
        work.send(.responseHead(response))
        // A 304 answers our validators, whatever the acceptable codes say.
        if response.statusCode == 304, hop.validatorsSent { throw WebImageError.cacheNotModified }
        if let codes = config.acceptableStatusCodes, !codes.contains(response.statusCode) {
            throw AttemptFailure(error: .invalidDownloadStatusCode(response.statusCode), retryAfter: retryAfter)
        }
        if let types = config.acceptableContentTypes {
            let type = response.mimeType
            guard let type, types.contains(where: { $0.lowercased() == type }) else {
                throw WebImageError.invalidDownloadContentType(type)
            }
        }
        if response.statusCode == 304 { throw WebImageError.cacheNotModified }

        environment.events.emit(.receivedResponse(url: self.url, response: response))
        work.send(.response(response))

        let codings = ResponseInflater.codings(in: head.headers)
        guard codings.count <= ResponseInflater.maximumCodings else {
            throw WebImageError.transferFailed(
                TransferFailure(
                    .badServerResponse,
                    "\(url.absoluteString): \(codings.count) content codings; at most \(ResponseInflater.maximumCodings) are undone"
                ))
        }
        let declared = ImageDownloadResponse(url: url, statusCode: 200, headers: original.headers).expectedContentLength
        // With a coding, Content-Length counts the coded bytes: the decoded size is unknown.
        let expected = codings.isEmpty ? declared : -1
        let maxSize = config.effectiveMaxResponseSize
        if declared > maxSize, codings.isEmpty {
            throw WebImageError.transferFailed(
                TransferFailure(
                    .responseTooLarge, "\(url.absoluteString): \(declared) bytes declared; the limit is \(maxSize)"))
        }
        let receiver = BodyReceiver(
            work: work, expected: expected, maxSize: maxSize, url: url,
            sendsEveryChunk: options.contains(.progressiveLoad))
        receiver.reportProgress()
        return BodySink(
            receiver: receiver, inflater: ResponseInflater(codings: codings, limit: maxSize), expected: expected,
            response: response)
    }

    /// The body and response once the body ended: the last progress, and the counts.
    private func finished(_ sink: BodySink) -> (Data, ImageDownloadResponse) {
        sink.receiver.reportFinalProgress()
        let count = sink.receiver.count
        record.withLock { $0.metrics.receivedBytes = count }
        environment.statistics.countBytes(count)
        return (sink.receiver.data, sink.response)
    }
}

// MARK: Reading the response where it arrives

/// Reads one response on the event loop that receives it, and hands the transfer's task the
/// outcome once: the whole body, a body dropped (a redirect's, an auth challenge's), or a head
/// that the task must look at first (a response modifier is async).
///
/// The head is checked and every body chunk is collected where the bytes arrive, so a download
/// resumes its task once, when it is over, instead of once per chunk; and the idle clock is
/// stamped there too. It stops while the task holds the response (a head it looks at, a body
/// that ended), so a task that waits for a thread is never taken for a silent server.
final class ResponseReader: HTTPClientResponseDelegate, @unchecked Sendable {
    // @unchecked: `state` is behind its lock; `decide` and `activity` are immutable and
    // Sendable; a `BodySink` is written only on the event loop, then read by the task after the
    // outcome was handed over through the lock.
    typealias Response = Void

    /// What to do with a response, decided from its head on the event loop.
    enum Decision {
        /// Drop the body (up to ``discardLimit`` bytes; past that the connection is closed).
        case discard
        /// Collect the body into this sink.
        case receive(BodySink)
        /// Hold the body back until the task has looked at the head (``read(_:on:letIn:)``).
        case wait
    }

    /// How the response ended, for the task.
    enum Outcome {
        /// With its body dropped.
        case discarded(HTTPResponseHead)
        /// With its body collected.
        case received(HTTPResponseHead, BodySink)
    }

    /// What the event loop hands the task: a head held back (``Decision/wait``), or the end.
    private enum Delivery {
        case held(HTTPResponseHead)
        case ended(Outcome)
    }

    /// The most bytes of a dropped body read so that the connection can be reused.
    static let discardLimit = 64 * 1024

    private enum Phase {
        case waitingForHead
        case holding(HTTPResponseHead, EventLoopPromise<Void>)
        case discarding(HTTPResponseHead, read: Int)
        case receiving(HTTPResponseHead, BodySink)
        /// The task refused a held head: the request fails with its error.
        case refused
        case over
    }

    private struct State {
        var phase = Phase.waitingForHead
        var pending: Result<Delivery, any Error>?
        var waiter: UnsafeContinuation<Result<Delivery, any Error>, Never>?
        var task: HTTPClient.Task<Void>?
        var cancelled = false
    }

    private let state = Locked(State())
    private let activity: IdleActivity
    private let decide: @Sendable (HTTPResponseHead) throws -> Decision

    /// `decide` runs on the event loop when the head arrives; what it throws fails the request.
    init(activity: IdleActivity, decide: @escaping @Sendable (HTTPResponseHead) throws -> Decision) {
        self.activity = activity
        self.decide = decide
    }

    /// Sends `request` and waits for the response to end. A head held back
    /// (``Decision/wait``) goes to `letIn` on the calling task first, and the body into the sink
    /// it returns; what it throws fails the request. Cancelling the calling task cancels the
    /// request.
    func read(
        _ request: HTTPClient.Request, on client: HTTPClient, letIn: (HTTPResponseHead) async throws -> BodySink
    ) async throws -> Outcome {
        try await withTaskCancellationHandler {
            activity.touch()
            let task = client.execute(request: request, delegate: self)
            let cancelled = state.withLock { state in
                state.task = task
                return state.cancelled
            }
            if cancelled { task.cancel() }
            var delivery = try await next()
            if case .held(let head) = delivery {
                let sink: Result<BodySink, any Error>
                do {
                    sink = .success(try await letIn(head))
                } catch {
                    sink = .failure(error)
                }
                open(sink)
                delivery = try await next()
            }
            // One head per request: after the held one, only the end comes.
            guard case .ended(let outcome) = delivery else {
                throw WebImageError.invalidDownloadOperation("a second response head arrived for one request")
            }
            return outcome
        } onCancel: {
            cancel()
        }
    }

    /// Lets the held body into `sink`, or fails the request with the `failure`.
    private func open(_ sink: Result<BodySink, any Error>) {
        let gate = state.withLock { state -> (EventLoopPromise<Void>, Result<Void, any Error>)? in
            guard case .holding(let head, let promise) = state.phase else { return nil }
            switch sink {
            case .success(let sink):
                state.phase = .receiving(head, sink)
                return (promise, .success(()))
            case .failure(let error):
                // The request fails with it, and `didReceiveError` reports it.
                state.phase = .refused
                return (promise, .failure(error))
            }
        }
        if let (promise, result) = gate {
            activity.touch()
            promise.completeWith(result)
        }
    }

    private func cancel() {
        let task = state.withLock { state in
            state.cancelled = true
            return state.task
        }
        task?.cancel()
    }

    private func next() async throws -> Delivery {
        let result = await withUnsafeContinuation {
            (continuation: UnsafeContinuation<Result<Delivery, any Error>, Never>) in
            let ready = state.withLock { state -> Result<Delivery, any Error>? in
                if let pending = state.pending {
                    state.pending = nil
                    return pending
                }
                state.waiter = continuation
                return nil
            }
            if let ready { continuation.resume(returning: ready) }
        }
        return try result.get()
    }

    /// Hands `result` to the task (now if it waits, else when it next asks).
    private func deliver(_ result: Result<Delivery, any Error>) {
        let waiter = state.withLock { state -> UnsafeContinuation<Result<Delivery, any Error>, Never>? in
            if let waiter = state.waiter {
                state.waiter = nil
                return waiter
            }
            state.pending = result
            return nil
        }
        waiter?.resume(returning: result)
    }

    // MARK: The event loop's side

    func didReceiveHead(task: HTTPClient.Task<Void>, _ head: HTTPResponseHead) -> EventLoopFuture<Void> {
        activity.touch()
        let decision: Decision
        do {
            decision = try decide(head)
        } catch {
            return task.eventLoop.makeFailedFuture(error)
        }
        switch decision {
        case .discard:
            state.withLock { $0.phase = .discarding(head, read: 0) }
        case .receive(let sink):
            state.withLock { $0.phase = .receiving(head, sink) }
        case .wait:
            // The task holds the response now: the idle clock stops until it lets the body in.
            activity.pause()
            let promise = task.eventLoop.makePromise(of: Void.self)
            state.withLock { $0.phase = .holding(head, promise) }
            deliver(.success(.held(head)))
            return promise.futureResult
        }
        return task.eventLoop.makeSucceededVoidFuture()
    }

    func didReceiveBodyPart(task: HTTPClient.Task<Void>, _ buffer: ByteBuffer) -> EventLoopFuture<Void> {
        activity.touch()
        let phase = state.withLock { state -> Phase in
            if case .discarding(let head, let read) = state.phase {
                state.phase = .discarding(head, read: read + buffer.readableBytes)
            }
            return state.phase
        }
        switch phase {
        case .discarding(_, let read) where read > Self.discardLimit:
            return task.eventLoop.makeFailedFuture(DiscardedBodyTooLarge())
        case .receiving(_, let sink):
            // Outside the lock: the sink sends events, and a listener may cancel the transfer.
            do {
                try sink.take(buffer)
            } catch {
                return task.eventLoop.makeFailedFuture(error)
            }
        default:
            break
        }
        return task.eventLoop.makeSucceededVoidFuture()
    }

    /// The response is over for the event loop: the idle clock stops (the task holds the
    /// outcome now), and the client's task, which holds this reader until it completes, is let
    /// go. Returns the phase it was in.
    private func end() -> Phase {
        activity.pause()
        return state.withLock { state in
            defer {
                state.phase = .over
                state.task = nil
            }
            return state.phase
        }
    }

    func didFinishRequest(task: HTTPClient.Task<Void>) throws {
        switch end() {
        case .discarding(let head, _):
            deliver(.success(.ended(.discarded(head))))
        case .receiving(let head, let sink):
            deliver(
                Result { () throws -> Delivery in
                    try sink.finish()
                    return .ended(.received(head, sink))
                })
        case .waitingForHead, .holding, .refused, .over:
            deliver(.failure(HTTPClientError.remoteConnectionClosed))
        }
    }

    func didReceiveError(task: HTTPClient.Task<Void>, _ error: any Error) {
        switch end() {
        case .over:
            return
        case .holding(_, let promise):
            // A held body's gate is always closed, one way or the other.
            promise.fail(error)
        case .discarding(let head, _):
            // Nobody wanted that body: a connection closed under it (past the limit, say)
            // changes nothing, and a cancelled task finds out when it looks.
            deliver(.success(.ended(.discarded(head))))
            return
        default:
            break
        }
        deliver(.failure(error))
    }
}

/// A dropped body passed ``ResponseReader/discardLimit``: the connection is closed instead.
struct DiscardedBodyTooLarge: Error {}

/// Where one response body goes on the event loop: inflated if coded, then collected under the
/// size limit (``BodyReceiver``), with the length the response declared checked at the end.
final class BodySink: @unchecked Sendable {
    // @unchecked: one thread at a time uses it: the event loop while the body arrives, then the
    // transfer's task, which gets it through ``ResponseReader``'s lock once the body ended.
    private(set) var receiver: BodyReceiver
    private let inflater: ResponseInflater?
    /// The declared length, when no coding changes it; -1 otherwise.
    let expected: Int
    /// The response as the transfer's subscribers saw it.
    let response: ImageDownloadResponse

    init(receiver: BodyReceiver, inflater: ResponseInflater?, expected: Int, response: ImageDownloadResponse) {
        self.receiver = receiver
        self.inflater = inflater
        self.expected = expected
        self.response = response
    }

    func take(_ chunk: ByteBuffer) throws {
        if let inflater {
            for part in try inflater.inflate(chunk) { try receiver.append(part) }
        } else {
            try receiver.append(chunk)
        }
    }

    /// Checks that every coded stream ended and that the declared length arrived.
    func finish() throws {
        try inflater?.finish()
        if expected >= 0, receiver.count < expected {
            throw WebImageError.transferFailed(
                TransferFailure(
                    .connectionLost, "\(response.url.absoluteString): \(receiver.count) of \(expected) bytes arrived"))
        }
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
///
/// The clock runs only while the attempt waits for the server: from the moment a request is
/// handed to the HTTP client, stamped where the bytes arrive (on the event loop), and paused
/// while the transfer's task holds the response (a head it checks, a body that ended). A task
/// waiting for a thread on a busy cooperative pool never looks like a silent server, and what
/// runs before the request is sent (a request validator's name lookup, say) has its own limits.
final class IdleActivity: Sendable {
    /// The last stamp, or ``paused`` (as it starts: nothing was sent yet).
    private let last = Atomic<UInt64>(IdleActivity.paused)
    private let expired = Atomic<Bool>(false)
    private let pastDeadline = Atomic<Bool>(false)
    /// When the attempt started, for its overall deadline.
    let startNanoseconds = DispatchTime.now().uptimeNanoseconds

    private static let paused = UInt64.max

    /// Bytes moved now (or the attempt starts waiting for the server again).
    func touch() { last.store(DispatchTime.now().uptimeNanoseconds, ordering: .relaxed) }

    /// The attempt waits for its own task, not the server, until the next ``touch()``.
    func pause() { last.store(Self.paused, ordering: .relaxed) }

    var idleNanoseconds: UInt64 {
        let then = last.load(ordering: .relaxed)
        guard then != Self.paused else { return 0 }
        let now = DispatchTime.now().uptimeNanoseconds
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
        // On the network thread: it never waits behind CPU work (that runs on the CPU threads)
        // or a host that blocks Swift's cooperative pool, so a timeout fires when it is due; and
        // the clock it reads runs only while an attempt waits for its server (``IdleActivity``).
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

/// The rules a transfer applies to URLs and credentials: which URLs are sent at all, when
/// credentials may follow a redirect, and how a body nobody reads is dropped.
extension HTTPTransfer {
    /// Certificates are not verified (``ImageDownloaderOptions/allowInvalidSSLCertificates``);
    /// the pool keys connections by TLS configuration, so these never serve other requests.
    static let insecureTLS: TLSConfiguration = {
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

    static func isBasicChallenge(_ value: String) -> Bool {
        value.trimmingCharacters(in: .whitespaces).lowercased().hasPrefix("basic")
    }

    static func isSameOrigin(_ a: URL, _ b: URL) -> Bool {
        a.scheme?.lowercased() == b.scheme?.lowercased() && a.host?.lowercased() == b.host?.lowercased()
            && a.port == b.port
    }
}

/// The HTTP request a download sends, as request modifiers see it (SDWebImage hands them an
/// `NSURLRequest`).
public struct ImageDownloadRequest: Sendable {
    /// The URL to fetch; a modifier may point it elsewhere (only `http`/`https`).
    public var url: URL {
        didSet { knownAbsoluteString = nil }
    }
    /// `url.absoluteString` when the downloader already had it (it keys coalescing with it);
    /// changing `url` forgets it. Foundation builds that string anew on every call.
    var knownAbsoluteString: String?
    /// The method (default `GET`).
    public var method: String
    /// The headers to send: the downloader's, then the modifiers' edits.
    public var headers: ImageDownloadHeaders
    /// A body to send, if any.
    public var body: Data?
    /// The idle timeout in seconds. It can shorten the downloader's
    /// ``ImageDownloaderConfig/downloadTimeout`` for this request, not extend it.
    public var timeout: TimeInterval

    public init(
        url: URL, method: String = "GET", headers: ImageDownloadHeaders = [:], body: Data? = nil,
        timeout: TimeInterval = 15
    ) {
        self.url = url
        self.method = method
        self.headers = headers
        self.body = body
        self.timeout = timeout
    }
}

/// The HTTP response of a download, as response modifiers and ``ImageDownloadToken/response`` see it.
public struct ImageDownloadResponse: Sendable {
    /// The URL that answered, after redirects.
    public var url: URL
    /// The HTTP status code.
    public var statusCode: Int
    /// The response headers.
    public var headers: ImageDownloadHeaders

    public init(url: URL, statusCode: Int, headers: ImageDownloadHeaders = [:]) {
        self.url = url
        self.statusCode = statusCode
        self.headers = headers
    }

    /// The `Content-Type` without parameters, lowercased (URLResponse's `mimeType`).
    public var mimeType: String? {
        guard let value = headers["Content-Type"] else { return nil }
        let type = value.split(separator: ";", maxSplits: 1).first ?? ""
        let trimmed = type.trimmingCharacters(in: .whitespaces).lowercased()
        return trimmed.isEmpty ? nil : trimmed
    }

    /// The declared `Content-Length`, or -1 when absent or malformed (header values arrive
    /// trimmed, see ``ImageDownloadHeaders``).
    public var expectedContentLength: Int {
        guard let value = headers["Content-Length"], let length = Int(value),
            length >= 0
        else { return -1 }
        return length
    }
}

/// What a download measured (a small part of URLSession's task metrics).
public struct ImageDownloadMetrics: Sendable, Equatable {
    /// When the transfer started (after the queue).
    public var startDate: Date?
    /// When the last byte arrived or the transfer failed.
    public var endDate: Date?
    /// Body bytes received (after gzip/deflate decoding), over every attempt's final hop.
    public var receivedBytes = 0
    /// Redirects followed.
    public var redirectCount = 0
    /// Requests sent for the image: retries and the basic-auth round trip count.
    public var requestCount = 0

    public init() {}
}

/// An ordered list of HTTP header fields whose names compare case-insensitively.
///
/// Names must be RFC 9110 tokens and values must hold no control characters other than tab —
/// above all no CR or LF, which would let a value inject further headers into the request.
/// ``set(name:value:)`` and ``add(name:value:)`` throw ``WebImageError/invalidArgument(_:underlying:)`` for
/// an invalid field; the subscript setter and the dictionary literal, which cannot throw,
/// silently ignore it (the list is left unchanged). Leading and trailing spaces and tabs of a
/// value are trimmed.
public struct ImageDownloadHeaders: Sendable, Equatable, Sequence, ExpressibleByDictionaryLiteral {
    public typealias Field = (name: String, value: String)

    /// The fields in order, names as they were given.
    public private(set) var fields: [Field] = []

    /// `Accept: image/*,*/*;q=0.8` (SDWebImage's) and `User-Agent: swift-web-image/<version> (<OS>; Swift)`.
    public static let defaultImageHeaders: ImageDownloadHeaders = [
        "Accept": "image/*,*/*;q=0.8", "User-Agent": WebImageUserAgent.default,
    ]

    public init() {}

    /// The fields of `headers` in order; invalid fields throw.
    public init(_ headers: [(String, String)]) throws(WebImageError) {
        for (name, value) in headers { try add(name: name, value: value) }
    }

    /// Fields in literal order; invalid fields are ignored, repeated names are all kept.
    public init(dictionaryLiteral elements: (String, String)...) {
        for (name, value) in elements { try? add(name: name, value: value) }
    }

    public var count: Int { fields.count }
    public var isEmpty: Bool { fields.isEmpty }

    public func makeIterator() -> IndexingIterator<[Field]> {
        fields.makeIterator()
    }

    /// Every value of the fields called `name`, in order.
    public func values(for name: String) -> [String] {
        fields.filter { Self.namesEqual($0.name, name) }.map(\.value)
    }

    /// The values of `name` combined as RFC 9110 5.3 combines them (joined by `, `), or nil if
    /// absent. Setting replaces every field called `name` (at the position of the first); nil
    /// removes them; an invalid name or value is ignored (use ``set(name:value:)`` to get an error).
    public subscript(name: String) -> String? {
        get {
            // One field is the common case: answer it without building an array.
            guard let first = fields.firstIndex(where: { Self.namesEqual($0.name, name) }) else { return nil }
            let rest = fields[(first + 1)...]
            guard rest.contains(where: { Self.namesEqual($0.name, name) }) else { return fields[first].value }
            return values(for: name).joined(separator: ", ")
        }
        set { try? set(name: name, value: newValue) }
    }

    /// Replaces every field called `name` with one holding `value` (at the position of the first
    /// such field, else at the end); nil removes them.
    public mutating func set(name: String, value: String?) throws(WebImageError) {
        guard let value else {
            fields.removeAll { Self.namesEqual($0.name, name) }
            return
        }
        let field = try Self.validated(name: name, value: value)
        if let first = fields.firstIndex(where: { Self.namesEqual($0.name, name) }) {
            fields[first] = field
            var index = fields.index(after: first)
            while index < fields.endIndex {
                if Self.namesEqual(fields[index].name, name) { fields.remove(at: index) } else { index += 1 }
            }
        } else {
            fields.append(field)
        }
    }

    /// Appends a field, keeping any others with the same name.
    public mutating func add(name: String, value: String) throws(WebImageError) {
        fields.append(try Self.validated(name: name, value: value))
    }

    /// These headers with every name in `other` replaced by `other`'s fields, e.g. a request's
    /// own headers over the downloader's.
    public func merging(_ other: ImageDownloadHeaders) -> ImageDownloadHeaders {
        var merged = self
        var replaced: [String] = []
        for field in other.fields where !replaced.contains(where: { Self.namesEqual($0, field.name) }) {
            replaced.append(field.name)
            merged.fields.removeAll { Self.namesEqual($0.name, field.name) }
        }
        merged.fields += other.fields
        return merged
    }

    /// Same fields in the same order; names compare case-insensitively, values exactly.
    public static func == (lhs: ImageDownloadHeaders, rhs: ImageDownloadHeaders) -> Bool {
        lhs.fields.count == rhs.fields.count
            && zip(lhs.fields, rhs.fields).allSatisfy { namesEqual($0.name, $1.name) && $0.value == $1.value }
    }

    private static func validated(name: String, value: String) throws(WebImageError) -> Field {
        guard !name.isEmpty, name.utf8.allSatisfy(isTokenByte) else {
            throw .invalidArgument("\(String(name.prefix(100)).debugDescription) is not a valid HTTP header name")
        }
        let trimmed = trimmingSpacesAndTabs(value)
        guard !trimmed.utf8.contains(where: { ($0 < 0x20 && $0 != 0x09) || $0 == 0x7F }) else {
            throw .invalidArgument(
                "the value of HTTP header '\(name)' contains a control character such as CR or LF: "
                    + String(value.prefix(100)).debugDescription)
        }
        return (name, trimmed)
    }

    /// `value` without leading and trailing spaces and tabs (a byte scan: this runs for every
    /// field of every response).
    private static func trimmingSpacesAndTabs(_ value: String) -> String {
        let bytes = value.utf8
        let isBlank = { (byte: UInt8) in byte == 0x20 || byte == 0x09 }
        guard let first = bytes.first, let last = bytes.last, isBlank(first) || isBlank(last) else { return value }
        guard let start = bytes.firstIndex(where: { !isBlank($0) }), let end = bytes.lastIndex(where: { !isBlank($0) })
        else { return "" }
        return String(value[start...end])
    }

    /// RFC 9110 5.6.2 `tchar`.
    private static func isTokenByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"):
            true
        default: "!#$%&'*+-.^_`|~".utf8.contains(byte)
        }
    }

    /// Names are ASCII tokens, so an ASCII case fold is the whole comparison.
    static func namesEqual(_ lhs: String, _ rhs: String) -> Bool {
        lhs.utf8.count == rhs.utf8.count
            && zip(lhs.utf8, rhs.utf8).allSatisfy { ($0 | 0x20 == $1 | 0x20) && ($0 == $1 || isLetter($0)) }
    }

    private static func isLetter(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte | 0x20)
    }
}

/// Undoes a response body's `gzip`, `x-gzip` and `deflate` codings as its chunks arrive.
///
/// AsyncHTTPClient can inflate bodies itself, but only for every response of a client: its
/// decompressor then sits in every connection's pipeline and sees every part of every
/// response, compressed or not, though images are almost never sent compressed. Here zlib runs
/// off the network, only for a response that says it is compressed: one stream per coding, the
/// last one applied undone first (RFC 9110 8.4). zlib rather than NIO's decompressor, which
/// needs an `EmbeddedChannel`: that is bound to the thread that made it, and a transfer resumes
/// on any thread.
/// Used by one transfer at a time; zlib's state is released with it.
final class ResponseInflater {
    /// Bodies listing more codings than this are refused rather than given a zlib stream each.
    static let maximumCodings = 3

    /// One zlib stream per coding, in the order they are undone.
    private let stages: [ZlibInflateStream]
    /// The most bytes any stage may produce.
    private let limit: Int

    /// The codings the response's `Content-Encoding` fields list, lowercased, in the order the
    /// server applied them. Several fields and comma-separated lists both count; `identity`
    /// (no coding) is left out, so an empty list means the body is sent as it is.
    static func codings(in headers: HTTPHeaders) -> [String] {
        headers[canonicalForm: "Content-Encoding"].compactMap { token in
            let coding = token.lowercased()
            return coding.isEmpty || coding == "identity" ? nil : coding
        }
    }

    /// An inflater for `codings` (as ``codings(in:)`` lists them), or nil when there is nothing
    /// to undo or one of them is neither gzip nor deflate: that body is passed on as it is.
    /// Inflating past `limit` bytes at any stage throws ``InflateError/limit``.
    init?(codings: [String], limit: Int) {
        // RFC 9110 8.4.1.3: x-gzip is gzip.
        var stages: [ZlibInflateStream] = []
        for coding in codings.reversed() {
            switch coding {
            case "gzip", "x-gzip": stages.append(ZlibInflateStream(format: .gzip))
            case "deflate": stages.append(ZlibInflateStream(format: .deflate))
            default: return nil
            }
        }
        guard !stages.isEmpty else { return nil }
        self.stages = stages
        self.limit = max(limit, 0)
    }

    /// The inflated bytes that `chunk` completes, in order (possibly none yet).
    func inflate(_ chunk: ByteBuffer) throws -> [ByteBuffer] {
        var parts = [chunk]
        for stage in stages {
            var output: [ByteBuffer] = []
            for part in parts { try stage.inflate(part, limit: limit, into: &output) }
            parts = output
        }
        return parts
    }

    /// Checks that the body ended with every compressed stream: zlib hands out all it can as
    /// bytes arrive, so nothing is left to return; throws if a stream was cut short.
    func finish() throws {
        for stage in stages where !stage.ended { throw InflateError.truncated }
    }
}

/// Collects a body under the size limit, and tells the transfer's subscribers how it grows:
/// progress on every chunk, and the bytes so far at doubling sizes (enough for a decode to read
/// the header and refuse an image too large) or, for a progressive download, on every chunk.
struct BodyReceiver {
    let work: ImageDownloader.Transfers.Work
    let expected: Int
    let maxSize: Int
    let url: URL
    let sendsEveryChunk: Bool
    /// The bytes so far, in memory from the body pool (``BodyBufferPool``, below). Every chunk is
    /// copied in once; a declared length sizes the storage up front (up to 4 MiB), otherwise it
    /// doubles as bytes arrive. The final `Data` shares this storage.
    private var storage: BodyStorage?
    private(set) var count = 0
    /// The size at which the bytes so far go out next; none after 16 MiB.
    private var nextBytesEvent = 1

    init(work: ImageDownloader.Transfers.Work, expected: Int, maxSize: Int, url: URL, sendsEveryChunk: Bool) {
        self.work = work
        self.expected = expected
        self.maxSize = maxSize
        self.url = url
        self.sendsEveryChunk = sendsEveryChunk
    }

    /// The bytes received so far, as `Data` sharing the body's memory (no copy).
    var data: Data { storage?.data(count: count) ?? Data() }

    mutating func append(_ chunk: ByteBuffer) throws {
        guard chunk.readableBytes > 0 else { return }
        guard count + chunk.readableBytes <= maxSize else {
            throw WebImageError.transferFailed(
                TransferFailure(.responseTooLarge, "\(url.absoluteString): the body passed \(maxSize) bytes"))
        }
        reserve(count + chunk.readableBytes)
        chunk.withUnsafeReadableBytes { bytes in storage?.write(bytes, at: count) }
        count += chunk.readableBytes
        reportProgress()
        if sendsEveryChunk || (count >= nextBytesEvent && count <= 16 << 20) {
            nextBytesEvent = count * 2
            work.send(.bytes(data))
        }
    }

    /// Makes room for `needed` bytes: the declared length (capped) the first time, then at least
    /// double the storage, copying what has arrived.
    private mutating func reserve(_ needed: Int) {
        if let storage, storage.capacity >= needed { return }
        var wanted = needed
        if let storage {
            wanted = max(needed, storage.capacity * 2)
        } else if expected > needed {
            wanted = max(needed, min(expected, Self.largestUpFrontReservation))
        }
        let larger = BodyBufferPool.shared.take(atLeast: min(wanted, maxSize))
        if let storage, count > 0 {
            larger.write(UnsafeRawBufferPointer(start: storage.base, count: count), at: 0)
        }
        storage = larger
    }

    /// A declared length sizes the first storage only up to this: a server may lie about it.
    static let largestUpFrontReservation = 4 << 20

    func reportProgress() {
        work.send(.progress(received: count, expected: expected))
    }

    /// The last report carries every byte; with an unknown length it says so (expected = received).
    func reportFinalProgress() {
        work.send(.progress(received: count, expected: expected < 0 ? count : expected))
    }
}

// MARK: The body pool

/// Memory for response bodies, recycled between downloads.
///
/// A downloaded body outlives its transfer: it waits for its callers (and, in the manager, for
/// the decode and the disk store) while the next transfers already run. With many bodies of
/// 100 KB and more freed in bursts, glibc's heap returns its free top to the kernel
/// (`madvise`) and the next bodies fault those pages back in. Freed body memory comes back
/// here instead, up to ``limit`` bytes, and the next body of that size class reuses it.
///
/// Sizes are rounded up to powers of two from 16 KiB; classes above 4 MiB are never kept.
final class BodyBufferPool: Sendable {
    /// The pool every downloader uses.
    static let shared = BodyBufferPool(limit: 8 << 20)

    static let smallestClassShift = 14
    static let largestPooledShift = 22

    /// At most this many bytes of unused memory are kept.
    let limit: Int
    private let free: Locked<FreeLists>

    init(limit: Int) {
        self.limit = limit
        free = Locked(FreeLists(classCount: Self.largestPooledShift - Self.smallestClassShift + 1))
    }

    deinit {
        // Only a pool nothing holds goes away (each storage holds its pool): what it kept is
        // unused and goes back to the allocator.
        free.withLock { lists in
            for address in lists.stacks.joined() { UnsafeMutableRawPointer(bitPattern: address)?.deallocate() }
        }
    }

    /// Unused bytes held right now.
    var pooledBytes: Int { free.withLock { $0.bytes } }

    /// Storage of at least `byteCount` bytes: recycled memory of that class when there is some.
    func take(atLeast byteCount: Int) -> BodyStorage {
        let capacity = Self.capacity(for: byteCount)
        if let index = Self.classIndex(ofCapacity: capacity),
            let address = free.withLock({ $0.pop(index, capacity: capacity) }),
            let base = UnsafeMutableRawPointer(bitPattern: address)
        {
            return BodyStorage(base: base, capacity: capacity, pool: self)
        }
        let base = UnsafeMutableRawPointer.allocate(byteCount: capacity, alignment: 16)
        return BodyStorage(base: base, capacity: capacity, pool: self)
    }

    /// Keeps `base` for reuse if its class is pooled and the pool has room; frees it otherwise.
    fileprivate func recycle(_ base: UnsafeMutableRawPointer, capacity: Int) {
        var kept = false
        if let index = Self.classIndex(ofCapacity: capacity) {
            let address = UInt(bitPattern: base)
            kept = free.withLock { $0.push(address, index, capacity: capacity, limit: limit) }
        }
        if !kept { base.deallocate() }
    }

    /// The power of two at or above `byteCount`, at least the smallest class.
    static func capacity(for byteCount: Int) -> Int {
        let wanted = max(byteCount, 1 << smallestClassShift)
        let shift = Int.bitWidth - (wanted - 1).leadingZeroBitCount
        return shift >= Int.bitWidth - 1 ? wanted : 1 << shift
    }

    private static func classIndex(ofCapacity capacity: Int) -> Int? {
        guard capacity.nonzeroBitCount == 1 else { return nil }
        let shift = capacity.trailingZeroBitCount
        guard shift >= smallestClassShift, shift <= largestPooledShift else { return nil }
        return shift - smallestClassShift
    }

    /// Addresses of unused buffers, one stack per class, the most recently freed on top (its
    /// pages are the likeliest to be in cache).
    private struct FreeLists {
        var stacks: [[UInt]]
        var bytes = 0

        init(classCount: Int) {
            stacks = Array(repeating: [], count: classCount)
        }

        mutating func pop(_ index: Int, capacity: Int) -> UInt? {
            guard let address = stacks[index].popLast() else { return nil }
            bytes -= capacity
            return address
        }

        mutating func push(_ address: UInt, _ index: Int, capacity: Int, limit: Int) -> Bool {
            guard bytes + capacity <= limit else { return false }
            stacks[index].append(address)
            bytes += capacity
            return true
        }
    }
}

/// One body's memory. Bytes are only ever appended: a `Data` made by ``data(count:)`` covers
/// bytes that are never written again, and keeps the storage alive until that `Data` is gone.
final class BodyStorage: @unchecked Sendable {
    // @unchecked: `base` is written only by the one receiver that owns this storage, and only
    // past every count it has handed out as `Data`; readers see only those earlier bytes.
    let base: UnsafeMutableRawPointer
    let capacity: Int
    private let pool: BodyBufferPool

    fileprivate init(base: UnsafeMutableRawPointer, capacity: Int, pool: BodyBufferPool) {
        self.base = base
        self.capacity = capacity
        self.pool = pool
    }

    deinit {
        pool.recycle(base, capacity: capacity)
    }

    /// Copies `bytes` to `offset`, which must be at or past every count handed out as `Data`.
    func write(_ bytes: UnsafeRawBufferPointer, at offset: Int) {
        precondition(offset >= 0 && offset + bytes.count <= capacity, "body write out of bounds")
        guard let source = bytes.baseAddress, !bytes.isEmpty else { return }
        (base + offset).copyMemory(from: source, byteCount: bytes.count)
    }

    /// The first `count` bytes, without a copy; the storage lives as long as the `Data`.
    func data(count: Int) -> Data {
        precondition(count >= 0 && count <= capacity, "body count out of bounds")
        guard count > 0 else { return Data() }
        return Data(bytesNoCopy: base, count: count, deallocator: .custom { _, _ in withExtendedLifetime(self) {} })
    }
}
