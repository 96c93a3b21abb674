#if Server
    import WebImage

    /// Resolves the host names of sources for the address check: each answer is kept for a short
    /// time, concurrent requests for one host share one lookup, and lookups block only the
    /// resolver's own threads (see ``SourceHostResolution`` for the times and bounds).
    ///
    /// Only the resolution is cached, never the verdict: the address guard checks the addresses on
    /// every fetch, so an answer that changes to a refused address is refused as soon as the old
    /// answer expires.
    final class SourceHostResolver: Sendable {
        /// A blocking lookup: the addresses (4 or 16 bytes each) a name resolves to, empty if none.
        typealias Lookup = @Sendable (String) -> [[UInt8]]

        private struct Answer {
            var addresses: [[UInt8]]
            var expiry: ContinuousClock.Instant
        }

        private let answerLifetime: Duration
        private let failureLifetime: Duration
        private let lookupTimeout: Duration
        private let cachedHosts: Int
        private let answers = Locked(LRUList<String, Answer>())
        /// Lookups under way, by host name.
        let lookups = InFlightTable<String, [[UInt8]], Never, WebImageError>()
        let threads: HostLookupThreads
        private let lookup: Lookup
        private let now: @Sendable () -> ContinuousClock.Instant

        /// A resolver with `settings`, running `lookup` (`getaddrinfo` by default) on its threads and
        /// reading the time from `now` (for tests that move it).
        init(
            _ settings: SourceHostResolution, lookup: @escaping Lookup = HostLookup.addresses(of:),
            now: @escaping @Sendable () -> ContinuousClock.Instant = { ContinuousClock.now }
        ) {
            answerLifetime = Duration(clampingSeconds: max(0, settings.answerLifetime))
            failureLifetime = Duration(clampingSeconds: max(0, settings.failureLifetime))
            lookupTimeout = Duration(clampingSeconds: max(0, settings.lookupTimeout))
            cachedHosts = max(0, settings.cachedHosts)
            threads = HostLookupThreads(width: settings.threads, queueLimit: settings.queueLimit)
            self.lookup = lookup
            self.now = now
        }

        /// Host names with an answer kept now, expired or not (for tests).
        var cachedCount: Int { answers.withLock { $0.count } }

        /// The addresses `host` resolves to, from the cache while its answer is fresh; empty if it
        /// does not resolve. Fails with a ``TransferFailure/Kind/timedOut`` transfer failure when no
        /// answer comes within the lookup timeout or the lookup threads' line is full.
        func addresses(for host: String) async throws(WebImageError) -> [[UInt8]] {
            if let cached = cachedAnswer(for: host) { return cached }
            let subscription = lookups.subscribe(host, priority: Task.currentPriority) { [self] work in
                start(work, for: host)
            }
            let timer = Task { [lookupTimeout] in
                try? await Task.sleep(for: lookupTimeout)
                guard !Task.isCancelled else { return }
                // Leaves the lookup without disturbing it: the next request for the host joins it.
                subscription.cancel(
                    with: .transferFailed(TransferFailure(.timedOut, "\(host) did not resolve within \(lookupTimeout)"))
                )
            }
            defer { timer.cancel() }
            return try await subscription.value()
        }

        /// Refuses later lookups and stops the threads (without waiting for a lookup that hangs).
        func shutdown() async {
            await threads.shutdown()
        }

        private func cachedAnswer(for host: String) -> [[UInt8]]? {
            let moment = now()
            return answers.withLock { answers in
                guard let answer = answers.value(forKey: host) else { return nil }
                guard moment < answer.expiry else {
                    _ = answers.remove(forKey: host)
                    return nil
                }
                return answer.addresses
            }
        }

        private func remember(_ addresses: [[UInt8]], for host: String) {
            let lifetime = addresses.isEmpty ? failureLifetime : answerLifetime
            guard lifetime > .zero, cachedHosts > 0 else { return }
            let answer = Answer(addresses: addresses, expiry: now() + lifetime)
            answers.withLock { answers in
                _ = answers.remove(forKey: host)
                answers.insert(answer, forKey: host, cost: 1)
                while answers.count > cachedHosts { _ = answers.removeLeastRecentlyUsed() }
            }
        }

        /// Sets a new lookup of `host` off on the threads.
        private func start(_ work: InFlightTable<String, [[UInt8]], Never, WebImageError>.Work, for host: String) {
            // A blocking lookup cannot be stopped, so it stays a subscriber of its own work until it
            // returns: requests that time out or are cancelled leave without abandoning it, and a
            // later request for the host joins it instead of tying up a second thread.
            let holder = lookups.subscribe(host, priority: .background, start: { _ in })
            assert(holder.joinedRunningWork, "the lookup's own subscription joins the work it starts")
            do {
                try threads.submit { [self] isActive in
                    guard isActive else {
                        work.complete(.failure(Self.failure(.shutDown, host: host)))
                        return
                    }
                    let addresses = lookup(host)
                    // Cached before the work ends: a request that comes after it finds the answer.
                    remember(addresses, for: host)
                    work.complete(.success(addresses))
                }
            } catch {
                work.complete(.failure(Self.failure(error, host: host)))
            }
        }

        private static func failure(_ refusal: HostLookupThreads.Refusal, host: String) -> WebImageError {
            switch refusal {
            case .full:
                // Past the bound the name servers are not keeping up: the same as not answering.
                .transferFailed(TransferFailure(.timedOut, "\(host) was not resolved: too many lookups are waiting"))
            case .shutDown:
                .transferFailed(
                    TransferFailure(.cannotFindHost, "\(host) was not resolved: the service is shutting down"))
            }
        }
    }
#endif
