import Dispatch
import Foundation
import Testing

@testable import WebImage

/// Records a prefetcher's callbacks in the order they ran.
final class PrefetchLog: ImagePrefetcherDelegate {
    enum Event: Equatable {
        case delegateProgress(finished: Int, total: Int)
        case delegateSkip(URL)
        case delegateFinish(total: Int, skipped: Int)
        case progress(finished: Int, total: Int)
        case completed(finished: Int, skipped: Int)
    }
    private let events = Locked<[Event]>([])

    var all: [Event] { events.withLock { $0 } }
    func record(_ event: Event) { events.withLock { $0.append(event) } }
    var progress: (@Sendable (Int, Int) -> Void) { { self.record(.progress(finished: $0, total: $1)) } }
    var completed: (@Sendable (Int, Int) -> Void) { { self.record(.completed(finished: $0, skipped: $1)) } }
    var completions: [Event] { all.filter { if case .completed = $0 { true } else { false } } }

    func imagePrefetcher(_ prefetcher: ImagePrefetcher, didPrefetch url: URL, finishedCount: Int, totalCount: Int) {
        record(.delegateProgress(finished: finishedCount, total: totalCount))
    }
    func imagePrefetcher(_ prefetcher: ImagePrefetcher, didFinishWithTotalCount totalCount: Int, skippedCount: Int) {
        record(.delegateFinish(total: totalCount, skipped: skippedCount))
    }
    func imagePrefetcher(_ prefetcher: ImagePrefetcher, didSkip url: URL, error: WebImageError?) {
        record(.delegateSkip(url))
    }
}

enum PrefetchFixtures {
    /// `count` scripted URLs serving the PNG fixture (after `delay` ms when given).
    static func urls(_ count: Int, loader: ScriptedLoader, prefix: String = "p", delay: Int? = nil) throws -> [URL] {
        let png = try ManagerFixtures.png()
        return (0..<count).map { index in
            let url = URL(string: "test://origin/\(prefix)\(index).png")!
            loader.respond(to: url, with: delay.map { .delayed(png, milliseconds: $0) } ?? .data(png))
            return url
        }
    }

    /// A context whose callbacks run on a queue the test can drain.
    static func context(_ queue: DispatchQueue) -> WebImageContext {
        var context = WebImageContext()
        context.callbackQueue = queue
        return context
    }
}

/// ``eventually(timeout:_:)`` with a minute's patience: on a loaded 2-core machine other suites
/// can hold the cooperative threads for many seconds.
func settles(_ condition: () -> Bool) async -> Bool {
    await eventually(timeout: .seconds(60), condition)
}
