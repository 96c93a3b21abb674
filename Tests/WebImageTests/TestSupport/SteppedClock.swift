@testable import WebImage

/// A time source for code that takes `now` as a closure: it stands still until a test moves it,
/// so that expiry is tested by moving past a lifetime rather than by sleeping through it.
final class SteppedClock: Sendable {
    private let instant = Locked(ContinuousClock.now)

    /// The time now, as the code under test reads it.
    var now: ContinuousClock.Instant { instant.withLock { $0 } }

    /// Moves the time forward by `duration`.
    func advance(by duration: Duration) {
        instant.withLock { $0 = $0.advanced(by: duration) }
    }
}
