import Foundation
import NIOCore
import NIOHTTP1
import WebImage

/// A body the origin can serve, with the headers that describe it.
struct Resource: Sendable {
    var body: ByteBuffer
    var contentType: String?
    var extraHeaders: [(String, String)] = []
}

/// A registered body with its response head built once, so serving it is a dictionary lookup and
/// a reference-counted buffer write.
struct RegisteredResource: Sendable {
    var resource: Resource
    var headers: HTTPHeaders

    init(_ resource: Resource) {
        self.resource = resource
        var headers = HTTPHeaders()
        if let type = resource.contentType { headers.add(name: "Content-Type", value: type) }
        headers.add(name: "Content-Length", value: String(resource.body.readableBytes))
        for (name, value) in resource.extraHeaders { headers.add(name: name, value: value) }
        self.headers = headers
    }
}

/// Everything the request handlers share, behind one lock.
struct OriginState {
    var registered: [String: RegisteredResource] = [:]
    var counts: [String: Int] = [:]
    var recorded: [String: [RecordedHead]] = [:]
    var total = 0
    var inFlight = 0
    var maxInFlight = 0
    /// `fail=K` tallies, per full request target.
    var failTallies: [String: Int] = [:]
    var generated: [String: ByteBuffer] = [:]
    var generatedBytes = 0
}

/// The state and configuration the server's channel handlers share. Sendable: the mutable part
/// lives behind a lock, the rest is immutable.
final class OriginCore: Sendable {
    /// Generated images are cached up to this many bytes in total; beyond it they are regenerated.
    static let generatedCacheLimit = 256 << 20

    let fixturesDirectory: URL?
    let state = Locked(OriginState())

    init(fixturesDirectory: URL?) {
        self.fixturesDirectory = fixturesDirectory?.standardizedFileURL
    }

    /// Counts a request when its head arrives; it stays in flight until ``requestFinished()``.
    func requestArrived(_ head: HTTPRequestHead, path: String) {
        let record = RecordedHead(method: head.method, uri: head.uri, headers: head.headers)
        state.withLock { state in
            state.counts[path, default: 0] += 1
            state.recorded[path, default: []].append(record)
            state.total += 1
            state.inFlight += 1
            state.maxInFlight = max(state.maxInFlight, state.inFlight)
        }
    }

    func requestFinished() {
        state.withLock { $0.inFlight -= 1 }
    }

    /// Counts one more `fail=K` request for `uri` and says whether it should still fail.
    func shouldFail(uri: String, times: Int) -> Bool {
        state.withLock { state in
            let seen = state.failTallies[uri, default: 0] + 1
            state.failTallies[uri] = seen
            return seen <= times
        }
    }

    func registered(path: String) -> RegisteredResource? {
        state.withLock { $0.registered[path] }
    }

    func cachedGenerated(_ key: String) -> ByteBuffer? {
        state.withLock { $0.generated[key] }
    }

    func storeGenerated(_ body: ByteBuffer, key: String) {
        state.withLock { state in
            guard state.generated[key] == nil,
                state.generatedBytes + body.readableBytes <= Self.generatedCacheLimit
            else { return }
            state.generated[key] = body
            state.generatedBytes += body.readableBytes
        }
    }
}
