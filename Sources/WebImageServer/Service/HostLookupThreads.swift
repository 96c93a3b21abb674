#if Server
    import NIOPosix
    import WebImage

    /// The threads host name lookups block on: ``width`` of them, with at most ``queueLimit``
    /// lookups waiting in line for one.
    ///
    /// `getaddrinfo` blocks its thread until the name servers answer or give up, and nothing can
    /// interrupt it. On Swift's cooperative pool a slow name server would stall unrelated tasks; on
    /// the global dispatch queue every stuck lookup can make the system add a thread. Here a stuck
    /// lookup holds one of a fixed set of threads, and past the line's bound a lookup is refused at
    /// once rather than queued without end. The threads start with the first lookup.
    final class HostLookupThreads: Sendable {
        /// Why a lookup was not queued.
        enum Refusal: Error {
            case full, shutDown
        }

        /// Threads, and so lookups running at once.
        let width: Int
        /// Lookups that may wait for a thread.
        let queueLimit: Int

        private struct State {
            var pool: NIOThreadPool?
            /// Lookups queued or running.
            var pending = 0
            var isShutdown = false
        }

        private let state = Locked(State())

        init(width: Int, queueLimit: Int) {
            self.width = max(1, width)
            self.queueLimit = max(0, queueLimit)
        }

        deinit {
            // Threads outlive a service dropped without ``shutdown()`` only until their lookups end.
            state.withLock { $0.pool }?.shutdownGracefully { _ in }
        }

        /// Lookups queued or running now.
        var pending: Int { state.withLock { $0.pending } }

        /// Queues `lookup`, which later runs on one of the threads with `true`, or with `false` if
        /// the threads were shut down before its turn. Throws, and nothing runs, when the line is
        /// full or the threads are shut down.
        func submit(_ lookup: @escaping @Sendable (_ isActive: Bool) -> Void) throws(Refusal) {
            let pool = try state.withLock { [width, queueLimit] state throws(Refusal) -> NIOThreadPool in
                guard !state.isShutdown else { throw .shutDown }
                guard state.pending < width + queueLimit else { throw .full }
                state.pending += 1
                if let pool = state.pool { return pool }
                let pool = NIOThreadPool(numberOfThreads: width)
                pool._start(threadNamePrefix: "webimage-dns-")
                state.pool = pool
                return pool
            }
            pool.submit { [self] work in
                lookup(work == .active)
                state.withLock { $0.pending -= 1 }
            }
        }

        /// Refuses later lookups, hands queued ones `false`, and stops the threads: at once when
        /// none is busy, otherwise each as soon as its lookup returns (a lookup cannot be stopped,
        /// and the service's shutdown does not wait for a name server).
        func shutdown() async {
            let (pool, idle) = state.withLock { state in
                state.isShutdown = true
                defer { state.pool = nil }
                return (state.pool, state.pending == 0)
            }
            guard let pool else { return }
            if idle {
                try? await pool.shutdownGracefully()
            } else {
                pool.shutdownGracefully { _ in }
            }
        }
    }
#endif
