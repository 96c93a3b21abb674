import Foundation
import NIOCore
import NIOHTTP1
import WebImage

/// A loopback stand-in for S3, for tests of the service's S3 tier: path-style objects kept in
/// memory (`GET`, `HEAD`, `PUT`, `DELETE` on `/{bucket}/{key}`), every request recorded, and one
/// fault at a time for every request.
///
/// It checks only the shape of the `Authorization` header (`AWS4-HMAC-SHA256 Credential=...,
/// SignedHeaders=..., Signature=<64 hex digits>`) and answers 403 without one; whether the
/// signature is right is for the signer's tests and a real S3 implementation.
public final class FakeS3: Sendable {
    /// What every request gets instead of its normal answer.
    public enum Fault: Sendable, Equatable {
        /// This status and a short XML error body.
        case status(Int)
        /// No answer at all: the connection stays open and silent.
        case stall
        /// For an object that exists: its full length announced, half of it sent, the connection closed.
        case cutOff
    }

    struct State {
        var objects: [String: Data] = [:]
        var requests: [TestOrigin.RecordedRequest] = []
        var fault: Fault?
    }

    /// The bound port on 127.0.0.1.
    public var port: Int { listener.port }
    /// `http://127.0.0.1:<port>`, the endpoint to configure.
    public var endpoint: URL { listener.endpoint }
    let state: Locked<State>

    private let listener: LoopbackListener

    private init(state: Locked<State>, listener: LoopbackListener) {
        self.state = state
        self.listener = listener
    }

    /// Listens on 127.0.0.1 on an ephemeral port.
    public static func start() async throws -> FakeS3 {
        let state = Locked(State())
        return FakeS3(state: state, listener: try await LoopbackListener.start { FakeS3Handler(state: state) })
    }

    /// The object at `path` (`/bucket/key`, not encoded), if any.
    public func object(_ path: String) -> Data? {
        state.withLock { $0.objects[path] }
    }

    /// Stores `data` at `path` (`/bucket/key`, not encoded), or with nil removes it.
    public func setObject(_ data: Data?, at path: String) {
        state.withLock { $0.objects[path] = data }
    }

    /// Every object path held now.
    public var objectPaths: [String] {
        state.withLock { Array($0.objects.keys) }
    }

    /// The fault every request gets from now on; nil answers normally again.
    public func setFault(_ fault: Fault?) {
        state.withLock { $0.fault = fault }
    }

    /// Every request head seen, oldest first (`uri` as sent, percent-encoded).
    public var requests: [TestOrigin.RecordedRequest] {
        state.withLock { $0.requests }
    }

    /// Stops listening and closes every connection.
    public func shutdown() async throws {
        try await listener.shutdown()
    }
}
