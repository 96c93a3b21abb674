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

    func subscribe() -> AsyncStream<ImageDownloadEvent> {
        let (stream, continuation) = AsyncStream<ImageDownloadEvent>.makeStream(bufferingPolicy: .bufferingNewest(1024))
        let id = nextID.wrappingAdd(1, ordering: .relaxed).oldValue
        subscribers.withLock { $0[id] = continuation }
        continuation.onTermination = { [weak self] _ in
            _ = self?.subscribers.withLock { $0.removeValue(forKey: id) }
        }
        return stream
    }

    func emit(_ event: ImageDownloadEvent) {
        let targets = subscribers.withLock { $0.isEmpty ? [] : Array($0.values) }
        for continuation in targets { continuation.yield(event) }
    }

    func finishAll() {
        let targets = subscribers.withLock { subscribers in
            defer { subscribers = [:] }
            return Array(subscribers.values)
        }
        for continuation in targets { continuation.finish() }
    }
}
