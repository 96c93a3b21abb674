#if Server
    import WebImage

    /// Skips S3 for a while after it failed several times in a row, so that S3 being down costs a
    /// request at most one timeout per cool-down rather than one per request.
    final class S3Breaker: Sendable {
        private struct State {
            var failures = 0
            var openUntil: ContinuousClock.Instant?
        }

        let threshold: Int
        let coolDown: Duration
        /// The time now (the continuous clock's; tests pass their own).
        private let now: @Sendable () -> ContinuousClock.Instant
        private let state = Locked(State())

        init(
            threshold: Int, coolDown: Duration,
            now: @escaping @Sendable () -> ContinuousClock.Instant = { ContinuousClock.now }
        ) {
            self.threshold = max(1, threshold)
            self.coolDown = coolDown
            self.now = now
        }

        /// Whether a request may go to S3 now. Once the cool-down is over, requests go again; one
        /// more failure then reopens it.
        var allowsRequests: Bool {
            state.withLock { state in
                guard let until = state.openUntil else { return true }
                return now() >= until
            }
        }

        func succeeded() {
            state.withLock { $0 = State() }
        }

        func failed() {
            state.withLock { state in
                state.failures += 1
                if state.failures >= threshold || state.openUntil != nil {
                    state.openUntil = now() + coolDown
                }
            }
        }
    }
#endif
