import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import NIOSSL

/// One transfer once it has a slot: the request, the attempts (with retries), then the body
/// handed to the transfer's subscribers. Redirects, the basic-auth round trip, cookies and
/// validators are in `HTTPTransfer+Exchange.swift`; the response checks and the body in
/// `HTTPTransfer+Body.swift`.
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
