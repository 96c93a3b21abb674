import AsyncHTTPClient

/// HTTP clients that connect to an address a request validator chose for a host (see
/// ``RequestApproval/connect(to:)``), one per host and address: AsyncHTTPClient takes such an
/// override only for a whole client, where it keeps TLS on the host's name.
///
/// A transfer leases a client for its exchange and returns it after; a client on loan is never
/// shut down. Returned clients wait idle for reuse by the next transfer to the same host and
/// address, within two bounds checked whenever a client is leased or returned: at most
/// ``capacity`` clients in all (the least recently returned idle ones are shut down first), and
/// none idle for longer than ``idleLifetime``. ``shutdown()`` shuts idle clients down at once
/// and each leased one when it comes back, and returns when every client it made is closed.
final class PinnedClients: Sendable {
    private struct Leased {
        let client: HTTPClient
        var leases: Int
    }

    private struct Idle {
        let client: HTTPClient
        let since: ContinuousClock.Instant
    }

    private struct State {
        var leased: [String: Leased] = [:]
        /// Idle clients by the time they came back: the least recently used is the longest idle.
        var idle = LRUList<String, Idle>()
        /// Clients made whose shutdown has not completed.
        var open = 0
        var isShutdown = false
        /// Who waits in ``shutdown()`` for `open` to reach 0.
        var closeWaiters: [CheckedContinuation<Void, Never>] = []

        /// Takes the idle clients that outstay `lifetime` or exceed `capacity`, oldest first.
        mutating func takeSurplus(now: ContinuousClock.Instant, lifetime: Duration, capacity: Int) -> [HTTPClient] {
            var surplus: [HTTPClient] = []
            while let oldest = idle.leastRecentlyUsed?.value,
                leased.count + idle.count > capacity || now - oldest.since >= lifetime
            {
                _ = idle.removeLeastRecentlyUsed()
                surplus.append(oldest.client)
            }
            return surplus
        }
    }

    /// Clients kept at most, idle or on loan (more only while more are on loan at once).
    let capacity: Int
    /// How long a client may stay idle: the connection pool's own idle timeout, after which the
    /// client holds no connection worth keeping it for.
    let idleLifetime: Duration
    private let configuration: HTTPClient.Configuration
    private let now: @Sendable () -> ContinuousClock.Instant
    private let state = Locked(State())

    init(
        configuration: HTTPClient.Configuration, capacity: Int = 32, idleLifetime: Duration = .seconds(60),
        now: @escaping @Sendable () -> ContinuousClock.Instant = { ContinuousClock.now }
    ) {
        self.configuration = configuration
        self.capacity = max(1, capacity)
        self.idleLifetime = idleLifetime
        self.now = now
    }

    /// Clients kept now, idle or on loan (for tests).
    var count: Int { state.withLock { $0.leased.count + $0.idle.count } }

    /// Clients made and not yet completely shut down (for tests: 0 after ``shutdown()``).
    var openCount: Int { state.withLock { $0.open } }

    /// A client on loan; give it back with ``release(_:)``.
    struct Lease {
        let client: HTTPClient
        fileprivate let key: String
    }

    /// The client that connects to `address` for `host`, made on first use; nil after
    /// ``shutdown()``.
    func lease(host: String, address: String) -> Lease? {
        let key = host + "\u{0}" + address
        let moment = now()
        let (lease, surplus) = state.withLock { state -> (Lease?, [HTTPClient]) in
            guard !state.isShutdown else { return (nil, []) }
            if var entry = state.leased[key] {
                entry.leases += 1
                state.leased[key] = entry
                return (Lease(client: entry.client, key: key), [])
            }
            let client: HTTPClient
            if let idle = state.idle.remove(forKey: key) {
                client = idle.client
            } else {
                var configuration = configuration
                configuration.dnsOverride = [host: address]
                client = HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: configuration)
                state.open += 1
            }
            state.leased[key] = Leased(client: client, leases: 1)
            return (
                Lease(client: client, key: key),
                state.takeSurplus(now: moment, lifetime: idleLifetime, capacity: capacity)
            )
        }
        close(surplus)
        return lease
    }

    /// Returns a leased client: it waits idle for reuse, or is shut down once the pool is.
    func release(_ lease: Lease) {
        let key = lease.key
        let moment = now()
        let closing = state.withLock { state -> [HTTPClient] in
            guard var entry = state.leased[key] else { return [] }
            entry.leases -= 1
            guard entry.leases == 0 else {
                state.leased[key] = entry
                return []
            }
            state.leased[key] = nil
            if state.isShutdown { return [entry.client] }
            state.idle.insert(Idle(client: entry.client, since: moment), forKey: key, cost: 0)
            return state.takeSurplus(now: moment, lifetime: idleLifetime, capacity: capacity)
        }
        close(closing)
    }

    /// Shuts every client down (each leased one when it is returned) and waits until all are
    /// closed; later leases get nil.
    func shutdown() async {
        startShutdown()
        await withCheckedContinuation { continuation in
            let closed = state.withLock { state in
                if state.open == 0 { return true }
                state.closeWaiters.append(continuation)
                return false
            }
            if closed { continuation.resume() }
        }
    }

    /// Starts shutting every client down without waiting (for a downloader's `deinit`).
    func startShutdown() {
        let idle = state.withLock { state in
            state.isShutdown = true
            var clients: [HTTPClient] = []
            while let idle = state.idle.removeLeastRecentlyUsed() { clients.append(idle.client) }
            return clients
        }
        close(idle)
    }

    private func close(_ clients: [HTTPClient]) {
        for client in clients {
            client.shutdown { [self] _ in
                let waiters = state.withLock { state -> [CheckedContinuation<Void, Never>] in
                    state.open -= 1
                    guard state.open == 0 else { return [] }
                    defer { state.closeWaiters = [] }
                    return state.closeWaiters
                }
                for waiter in waiters { waiter.resume() }
            }
        }
    }
}
