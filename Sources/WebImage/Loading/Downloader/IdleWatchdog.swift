import Foundation
import Synchronization

/// The last moment bytes moved, for an idle timeout.
final class IdleActivity: Sendable {
    private let last = Atomic<UInt64>(DispatchTime.now().uptimeNanoseconds)

    func touch() { last.store(DispatchTime.now().uptimeNanoseconds, ordering: .relaxed) }

    var idleNanoseconds: UInt64 {
        let now = DispatchTime.now().uptimeNanoseconds
        let then = last.load(ordering: .relaxed)
        return now > then ? now - then : 0
    }
}

/// Runs `body` and fails it with ``TransferFailure/Kind/timedOut`` once no activity was seen
/// for `timeout` seconds. Used when a request's timeout is shorter than the HTTP client's own
/// read timeout, which is fixed per client.
enum IdleWatchdog {
    static func run<T: Sendable>(
        timeout: TimeInterval, url: URL, _ body: @escaping @Sendable (IdleActivity) async throws -> T
    ) async throws -> T {
        let activity = IdleActivity()
        let limit = UInt64(max(timeout, 0.001) * 1_000_000_000)
        return try await withThrowingTaskGroup(of: T?.self) { group in
            group.addTask { try await body(activity) }
            group.addTask {
                while true {
                    let idle = activity.idleNanoseconds
                    if idle >= limit {
                        throw WebImageError.transferFailed(
                            TransferFailure(.timedOut, "\(url.absoluteString): no data for \(timeout) s"))
                    }
                    try await Task.sleep(nanoseconds: limit - idle)
                }
            }
            defer { group.cancelAll() }
            while let next = try await group.next() {
                if let value = next { return value }
            }
            throw CancellationError()
        }
    }
}
