import AsyncHTTPClient

/// HTTP clients that connect to an address a request validator chose for a host (see
/// ``RequestApproval/connect(to:)``), one per host and address: AsyncHTTPClient takes such an
/// override only for a whole client, where it keeps TLS on the host's name.
///
/// A transfer leases a client for its exchange and returns it after; past ``capacity`` the
/// least recently used idle clients are shut down, so a service fetching from many hosts keeps
/// a bounded number of pools.
final class PinnedClients: Sendable {
    private struct Entry {
        let client: HTTPClient
        var leases = 0
        var lastUse: UInt64
    }

    private struct State {
        var entries: [String: Entry] = [:]
        var clock: UInt64 = 0
        var isShutdown = false
    }

    let capacity: Int
    private let configuration: HTTPClient.Configuration
    private let state = Locked(State())

    init(configuration: HTTPClient.Configuration, capacity: Int = 32) {
        self.configuration = configuration
        self.capacity = capacity
    }

    /// Clients alive now (for tests).
    var count: Int { state.withLock { $0.entries.count } }

    /// A client on loan; give it back with ``release(_:)``.
    struct Lease {
        let client: HTTPClient
        fileprivate let key: String
    }

    /// The client that connects to `address` for `host`, made on first use; nil after
    /// ``shutdown()``.
    func lease(host: String, address: String) -> Lease? {
        let key = host + "\u{0}" + address
        return state.withLock { state in
            guard !state.isShutdown else { return nil }
            state.clock += 1
            if var entry = state.entries[key] {
                entry.leases += 1
                entry.lastUse = state.clock
                state.entries[key] = entry
                return Lease(client: entry.client, key: key)
            }
            var configuration = configuration
            configuration.dnsOverride = [host: address]
            let client = HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: configuration)
            state.entries[key] = Entry(client: client, leases: 1, lastUse: state.clock)
            return Lease(client: client, key: key)
        }
    }

    /// Returns a leased client; idle clients beyond ``capacity`` are shut down, oldest first.
    func release(_ lease: Lease) {
        let key = lease.key
        let evicted: [HTTPClient] = state.withLock { state in
            state.entries[key]?.leases -= 1
            guard state.entries.count > capacity else { return [] }
            let idle = state.entries.filter { $0.value.leases == 0 }.sorted { $0.value.lastUse < $1.value.lastUse }
            let surplus = idle.prefix(state.entries.count - capacity)
            for (key, _) in surplus { state.entries[key] = nil }
            return surplus.map(\.value.client)
        }
        for client in evicted { client.shutdown { _ in } }
    }

    /// Shuts every client down and waits; later leases get nil.
    func shutdown() async {
        for client in close() { try? await client.shutdown() }
    }

    /// Starts shutting every client down without waiting (for a downloader's `deinit`).
    func startShutdown() {
        for client in close() { client.shutdown { _ in } }
    }

    private func close() -> [HTTPClient] {
        state.withLock { state in
            state.isShutdown = true
            defer { state.entries.removeAll() }
            return state.entries.values.map(\.client)
        }
    }
}
