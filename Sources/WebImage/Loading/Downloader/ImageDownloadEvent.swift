import Foundation
import Synchronization

/// Lifecycle events of a downloader's transfers (SDWebImage's download notifications).
public enum ImageDownloadEvent: Sendable {
    /// A transfer left the queue and started (`SDWebImageDownloadStartNotification`).
    case start(url: URL)
    /// The response head arrived and passed the checks (`…ReceiveResponseNotification`).
    case receivedResponse(url: URL, response: ImageDownloadResponse)
    /// The transfer ended, successfully or not (`…StopNotification`).
    case stop(url: URL)
    /// The transfer ended with the whole body (`…FinishNotification`, after `stop`).
    case finish(url: URL)
}

/// Fans events out to every subscriber's own stream.
final class DownloadEventBroadcaster: Sendable {
    private let subscribers = Locked<[Int: AsyncStream<ImageDownloadEvent>.Continuation]>([:])
    private let nextID = Atomic<Int>(0)
    /// Mirrors `subscribers.count`, for a lock-free check in ``emit(_:)``.
    private let subscriberCount = Atomic<Int>(0)

    func subscribe() -> AsyncStream<ImageDownloadEvent> {
        let (stream, continuation) = AsyncStream<ImageDownloadEvent>.makeStream(bufferingPolicy: .bufferingNewest(1024))
        let id = nextID.wrappingAdd(1, ordering: .relaxed).oldValue
        subscribers.withLock {
            $0[id] = continuation
            subscriberCount.store($0.count, ordering: .relaxed)
        }
        continuation.onTermination = { [weak self] _ in
            self?.subscribers.withLock {
                $0.removeValue(forKey: id)
                self?.subscriberCount.store($0.count, ordering: .relaxed)
            }
        }
        return stream
    }

    /// Sends `event` to every subscriber. With none (the usual case) this is one atomic load:
    /// it runs four times per download, and the event is not even built.
    func emit(_ event: @autoclosure () -> ImageDownloadEvent) {
        guard subscriberCount.load(ordering: .relaxed) > 0 else { return }
        let targets = subscribers.withLock { Array($0.values) }
        let event = event()
        for continuation in targets { continuation.yield(event) }
    }

    func finishAll() {
        let targets = subscribers.withLock { subscribers in
            defer {
                subscribers = [:]
                subscriberCount.store(0, ordering: .relaxed)
            }
            return Array(subscribers.values)
        }
        for continuation in targets { continuation.finish() }
    }
}
