import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1

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
        /// Hold the body until the task calls ``open(_:)``.
        case wait
    }

    /// What the task gets back.
    enum Outcome {
        /// The head, with the body held back (``Decision/wait``).
        case head(HTTPResponseHead)
        /// The response ended with its body dropped.
        case discarded(HTTPResponseHead)
        /// The response ended with its body collected.
        case received(HTTPResponseHead, BodySink)
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
        var pending: Result<Outcome, any Error>?
        var waiter: UnsafeContinuation<Result<Outcome, any Error>, Never>?
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

    /// Sends `request` and waits for the first outcome. Cancelling the calling task cancels
    /// the request.
    func start(_ request: HTTPClient.Request, on client: HTTPClient) async throws -> Outcome {
        try await withTaskCancellationHandler {
            activity.touch()
            let task = client.execute(request: request, delegate: self)
            let cancelled = state.withLock { state in
                state.task = task
                return state.cancelled
            }
            if cancelled { task.cancel() }
            return try await next()
        } onCancel: {
            cancel()
        }
    }

    /// Lets a held body (``Outcome/head(_:)``) into `sink` (dropped when nil), and waits for the
    /// response to end; a `failure` instead fails the request with it.
    func open(_ sink: Result<BodySink?, any Error>) async throws -> Outcome {
        try await withTaskCancellationHandler {
            let gate = state.withLock { state -> (EventLoopPromise<Void>, Result<Void, any Error>)? in
                guard case .holding(let head, let promise) = state.phase else { return nil }
                switch sink {
                case .success(let sink?):
                    state.phase = .receiving(head, sink)
                    return (promise, .success(()))
                case .success(nil):
                    state.phase = .discarding(head, read: 0)
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
            return try await next()
        } onCancel: {
            cancel()
        }
    }

    private func cancel() {
        let task = state.withLock { state in
            state.cancelled = true
            return state.task
        }
        task?.cancel()
    }

    private func next() async throws -> Outcome {
        let result = await withUnsafeContinuation { (continuation: UnsafeContinuation<Result<Outcome, any Error>, Never>) in
            let ready = state.withLock { state -> Result<Outcome, any Error>? in
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
    private func deliver(_ result: Result<Outcome, any Error>) {
        let waiter = state.withLock { state -> UnsafeContinuation<Result<Outcome, any Error>, Never>? in
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
            deliver(.success(.head(head)))
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

    func didFinishRequest(task: HTTPClient.Task<Void>) throws {
        // The body is the task's now: the idle clock stops.
        activity.pause()
        let phase = state.withLock { state -> Phase in
            defer { state.phase = .over }
            return state.phase
        }
        switch phase {
        case .discarding(let head, _):
            deliver(.success(.discarded(head)))
        case .receiving(let head, let sink):
            deliver(Result { () throws -> Outcome in
                try sink.finish()
                return .received(head, sink)
            })
        case .waitingForHead, .holding, .refused, .over:
            deliver(.failure(HTTPClientError.remoteConnectionClosed))
        }
    }

    func didReceiveError(task: HTTPClient.Task<Void>, _ error: any Error) {
        activity.pause()
        let phase = state.withLock { state -> Phase in
            defer { state.phase = .over }
            return state.phase
        }
        switch phase {
        case .over:
            return
        case .holding(_, let promise):
            // A held body's gate is always closed, one way or the other.
            promise.fail(error)
        case .discarding(let head, _):
            // Nobody wanted that body: a connection closed under it (past the limit, say)
            // changes nothing, and a cancelled task finds out when it looks.
            deliver(.success(.discarded(head)))
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
