import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix
import WebImage

/// A loopback HTTP/1.1 server for tests, the demo and benchmarks.
///
/// It listens on 127.0.0.1 only, on an ephemeral port, and serves fixtures, generated images,
/// random bytes and registered bodies. Query parameters on any URL inject faults (`delay`, `drip`,
/// `reset`, `short`, `long`, `stall`, `status`, `type`, `etag`, `redirect`, `fail`, `gzip`, ...); it
/// counts and records every request. Each origin runs on its own event loops, which
/// ``shutdown()`` stops, closing every connection.
public final class TestOrigin: Sendable {
    /// The bound port.
    public let port: Int
    /// The IP address the listening socket is bound to (always `127.0.0.1`).
    public let host: String
    /// `http://127.0.0.1:<port>`.
    public let baseURL: URL

    private let core: OriginCore
    private let group: MultiThreadedEventLoopGroup
    private let serverChannel: any Channel
    private let isShutDown = Locked(false)

    private init(core: OriginCore, group: MultiThreadedEventLoopGroup, serverChannel: any Channel) throws {
        guard let address = serverChannel.localAddress, let port = address.port, let host = address.ipAddress,
            let baseURL = URL(string: "http://\(host):\(port)")
        else { throw OriginStartError(description: "the listening socket has no IP address") }
        self.core = core
        self.group = group
        self.serverChannel = serverChannel
        self.port = port
        self.host = host
        self.baseURL = baseURL
    }

    deinit {
        // A test that forgot shutdown() must not leak the event-loop threads; this cannot wait.
        if !isShutDown.withLock({ $0 }) { group.shutdownGracefully { _ in } }
    }

    /// Binds 127.0.0.1 on an ephemeral port (never any other address), serving `fixturesDirectory`
    /// under `/fixtures/` when given.
    public static func start(fixturesDirectory: URL? = nil) async throws -> TestOrigin {
        let core = OriginCore(fixturesDirectory: fixturesDirectory)
        let group = MultiThreadedEventLoopGroup(numberOfThreads: min(2, System.coreCount))
        do {
            let channel = try await bindLoopbackHTTP(group: group) { OriginHandler(core: core) }
            return try TestOrigin(core: core, group: group, serverChannel: channel)
        } catch {
            try? await group.shutdownGracefully()
            throw error
        }
    }

    /// `baseURL` followed by `pathAndQuery`, e.g. `url("/a.png?delay=100")`. Characters a URL cannot
    /// hold are percent-encoded.
    public func url(_ pathAndQuery: String) -> URL {
        let target = pathAndQuery.hasPrefix("/") ? pathAndQuery : "/" + pathAndQuery
        if let url = URL(string: baseURL.absoluteString + target) { return url }
        var allowed = CharacterSet.urlQueryAllowed
        allowed.insert("%")
        let encoded = target.addingPercentEncoding(withAllowedCharacters: allowed) ?? ""
        return URL(string: baseURL.absoluteString + encoded) ?? baseURL
    }

    /// Serves `body` at `path` (exact path, query ignored for matching) with these headers.
    /// Registering a path again replaces its body.
    public func register(path: String, body: Data, contentType: String?, headers: [(String, String)] = []) {
        let resource = Resource(body: ByteBuffer(bytes: body), contentType: contentType, extraHeaders: headers)
        let registered = RegisteredResource(resource)
        core.state.withLock { $0.registered[path] = registered }
    }

    /// Requests seen for `path` (query ignored), counted when the request head arrives.
    public func requestCount(path: String) -> Int {
        core.state.withLock { $0.counts[path] ?? 0 }
    }

    /// Requests seen on every path.
    public var totalRequestCount: Int {
        core.state.withLock { $0.total }
    }

    /// Requests whose response has not finished (nor their connection closed) right now.
    public var inFlightCount: Int {
        core.state.withLock { $0.inFlight }
    }

    /// The most requests in flight at once since the start or the last ``resetCounters()``.
    public var maxInFlightCount: Int {
        core.state.withLock { $0.maxInFlight }
    }

    /// Every request head seen for `path` (query ignored), oldest first.
    public func requests(path: String) -> [RecordedRequest] {
        let heads = core.state.withLock { $0.recorded[path] ?? [] }
        return heads.map(\.publicValue)
    }

    /// Forgets request counts, recorded requests and `fail=K` tallies; the in-flight peak restarts
    /// from the requests in flight now. Registered bodies stay.
    public func resetCounters() {
        core.state.withLock { state in
            state.counts = [:]
            state.recorded = [:]
            state.total = 0
            state.failTallies = [:]
            state.maxInFlight = state.inFlight
        }
    }

    /// Stops listening, closes every connection and stops the origin's threads. Calling it again
    /// does nothing.
    public func shutdown() async throws {
        let alreadyShutDown = isShutDown.withLock { done in
            defer { done = true }
            return done
        }
        guard !alreadyShutDown else { return }
        try? await serverChannel.close()
        try await group.shutdownGracefully()
    }
}

/// An HTTP/1.1 server channel on 127.0.0.1, on an ephemeral port, each connection answered by a
/// new handler from `makeHandler`.
func bindLoopbackHTTP<Handler: ChannelInboundHandler>(
    group: MultiThreadedEventLoopGroup, makeHandler: @escaping @Sendable () -> Handler
) async throws -> any Channel where Handler.InboundIn == HTTPServerRequestPart {
    try await ServerBootstrap(group: group)
        .serverChannelOption(.backlog, value: 512)
        .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
        .childChannelOption(ChannelOptions.tcpOption(.tcp_nodelay), value: 1)
        .childChannelInitializer { channel in
            channel.eventLoop.makeCompletedFuture {
                try channel.pipeline.syncOperations.configureHTTPServerPipeline(withErrorHandling: true)
                try channel.pipeline.syncOperations.addHandler(makeHandler())
            }
        }
        .bind(host: "127.0.0.1", port: 0).get()
}

/// A fake's listening socket on 127.0.0.1: its event loops, its server channel and where it
/// listens, started and stopped the one way every fake needs.
struct LoopbackListener: Sendable {
    /// The bound port on 127.0.0.1.
    let port: Int
    /// `http://127.0.0.1:<port>`.
    let endpoint: URL
    private let group: MultiThreadedEventLoopGroup
    private let channel: any Channel

    /// Listens on an ephemeral port, each connection answered by a new handler from
    /// `makeHandler`; the event loops stop again when that fails.
    static func start<Handler: ChannelInboundHandler>(
        makeHandler: @escaping @Sendable () -> Handler
    ) async throws -> LoopbackListener where Handler.InboundIn == HTTPServerRequestPart {
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        do {
            let channel = try await bindLoopbackHTTP(group: group, makeHandler: makeHandler)
            guard let port = channel.localAddress?.port, let endpoint = URL(string: "http://127.0.0.1:\(port)")
            else { throw OriginStartError(description: "the listening socket has no port") }
            return LoopbackListener(port: port, endpoint: endpoint, group: group, channel: channel)
        } catch {
            try? await group.shutdownGracefully()
            throw error
        }
    }

    /// Stops listening and closes every connection.
    func shutdown() async throws {
        try? await channel.close()
        try await group.shutdownGracefully()
    }
}

/// The origin could not start listening.
struct OriginStartError: Error, CustomStringConvertible {
    var description: String
}
