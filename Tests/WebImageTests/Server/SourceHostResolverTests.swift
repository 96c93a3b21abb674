import Dispatch
import Foundation
import Testing
import WebImage

@testable import WebImageServer

/// The service's resolver: answers kept for a stated time, one lookup per host at a time, and
/// lookups that block only the resolver's own threads.
@Suite("Image service: resolving source host names")
struct SourceHostResolverTests {
    /// A stand-in for `getaddrinfo`: answers from a table a test may change, counts its calls
    /// per host, and blocks its thread for the hosts named as hanging until ``release(_:)``.
    final class Names: Sendable {
        private let state: Locked<(answers: [String: [[UInt8]]], calls: [String: Int])>
        private let hanging: Set<String>
        private let hung = DispatchSemaphore(value: 0)

        init(_ answers: [String: [[UInt8]]], hanging: Set<String> = []) {
            state = Locked((answers, [:]))
            self.hanging = hanging
        }

        func lookup(_ host: String) -> [[UInt8]] {
            state.withLock { $0.calls[host, default: 0] += 1 }
            if hanging.contains(host) { hung.wait() }
            return state.withLock { $0.answers[host] ?? [] }
        }

        func answer(_ host: String, with addresses: [[UInt8]]) {
            state.withLock { $0.answers[host] = addresses }
        }

        func calls(_ host: String) -> Int { state.withLock { $0.calls[host] ?? 0 } }

        /// Lets `count` hanging lookups return.
        func release(_ count: Int) {
            for _ in 0..<count { hung.signal() }
        }
    }

    static let public1: [UInt8] = [93, 184, 216, 34]
    static let public2: [UInt8] = [93, 184, 216, 35]

    static func resolver(
        _ names: Names, clock: SteppedClock = SteppedClock(), _ adjust: (inout SourceHostResolution) -> Void = { _ in }
    ) -> SourceHostResolver {
        var settings = SourceHostResolution()
        adjust(&settings)
        return SourceHostResolver(settings, lookup: names.lookup, now: { clock.now })
    }

    @Test func anAnswerIsReusedWithinItsLifetimeAndLookedUpAgainAfterIt() async throws {
        let names = Names(["a.invalid": [Self.public1]])
        let clock = SteppedClock()
        let resolver = Self.resolver(names, clock: clock)
        #expect(try await resolver.addresses(for: "a.invalid") == [Self.public1])
        clock.advance(by: .seconds(29))
        #expect(try await resolver.addresses(for: "a.invalid") == [Self.public1])
        #expect(names.calls("a.invalid") == 1)
        names.answer("a.invalid", with: [Self.public2])
        clock.advance(by: .seconds(2))
        #expect(try await resolver.addresses(for: "a.invalid") == [Self.public2])
        #expect(names.calls("a.invalid") == 2)
        await resolver.shutdown()
    }

    @Test func aNameThatDoesNotResolveIsLookedUpAgainSoonerThanAnAnswer() async throws {
        let names = Names([:])
        let clock = SteppedClock()
        let resolver = Self.resolver(names, clock: clock)
        #expect(try await resolver.addresses(for: "gone.invalid").isEmpty)
        clock.advance(by: .seconds(4))
        #expect(try await resolver.addresses(for: "gone.invalid").isEmpty)
        #expect(names.calls("gone.invalid") == 1)
        clock.advance(by: .seconds(2))
        names.answer("gone.invalid", with: [Self.public1])
        #expect(try await resolver.addresses(for: "gone.invalid") == [Self.public1])
        #expect(names.calls("gone.invalid") == 2)
        await resolver.shutdown()
    }

    @Test func aLifetimeOfZeroResolvesEveryTime() async throws {
        let names = Names(["a.invalid": [Self.public1]])
        let resolver = Self.resolver(names) { $0.answerLifetime = 0 }
        for _ in 0..<3 { _ = try await resolver.addresses(for: "a.invalid") }
        #expect(names.calls("a.invalid") == 3)
        #expect(resolver.cachedCount == 0)
        await resolver.shutdown()
    }

    @Test func concurrentRequestsForOneHostShareOneLookup() async throws {
        let names = Names(["shared.invalid": [Self.public1]], hanging: ["shared.invalid"])
        let resolver = Self.resolver(names)
        let answers = Task {
            try await withThrowingTaskGroup(of: [[UInt8]].self) { group in
                for _ in 0..<20 { group.addTask { try await resolver.addresses(for: "shared.invalid") } }
                return try await group.reduce(into: []) { $0.append($1) }
            }
        }
        // Every request waits on the one lookup (which holds on to it as well) before it returns.
        #expect(await eventually { resolver.lookups.subscriberCount { _ in true } == 21 })
        names.release(1)
        let all = try await answers.value
        #expect(all.count == 20 && all.allSatisfy { $0 == [Self.public1] })
        #expect(names.calls("shared.invalid") == 1)
        #expect(resolver.lookups.count == 0)
        await resolver.shutdown()
    }

    @Test func theCacheKeepsAtMostItsHostsLeastRecentlyUsedOutFirst() async throws {
        let names = Names(["a": [Self.public1], "b": [Self.public1], "c": [Self.public1], "d": [Self.public1]])
        let resolver = Self.resolver(names) { $0.cachedHosts = 3 }
        for host in ["a", "b", "c", "a", "d"] { _ = try await resolver.addresses(for: host) }
        #expect(resolver.cachedCount == 3)
        _ = try await resolver.addresses(for: "a")
        _ = try await resolver.addresses(for: "b")
        #expect(names.calls("a") == 1, "used recently, so kept")
        #expect(names.calls("b") == 2, "the least recently used, so evicted for d")
        await resolver.shutdown()
    }

    /// Two threads: the hung lookup holds one; the other keeps resolving. Every request for the
    /// hung host fails after the timeout, and they all wait on the one hung lookup, not a thread
    /// each; its late answer is then cached.
    @Test func aLookupThatHangsTimesOutWhileOtherHostsResolveOnTheOtherThread() async throws {
        let names = Names(
            ["stuck.invalid": [Self.public1], "fine.invalid": [Self.public2]], hanging: ["stuck.invalid"])
        let resolver = Self.resolver(names) {
            $0.threads = 2
            $0.lookupTimeout = 2
        }
        let first = Task { await resolver.failure(resolving: "stuck.invalid") }
        #expect(await eventually { names.calls("stuck.invalid") == 1 })
        let second = Task { await resolver.failure(resolving: "stuck.invalid") }
        #expect(try await resolver.addresses(for: "fine.invalid") == [Self.public2])
        for outcome in [await first.value, await second.value] {
            #expect(outcome?.code == .transferFailed && outcome?.transferFailure?.kind == .timedOut)
        }
        #expect(ServiceErrorMapping.map(try #require(await first.value)).status == 504)
        #expect(names.calls("stuck.invalid") == 1)
        names.release(1)
        #expect(await eventually { resolver.lookups.count == 0 })
        #expect(try await resolver.addresses(for: "stuck.invalid") == [Self.public1])
        #expect(names.calls("stuck.invalid") == 1)
        await resolver.shutdown()
    }

    @Test func aLookupPastTheLineIsRefusedAtOnce() async throws {
        let names = Names(["a": [Self.public1], "b": [Self.public2]], hanging: ["a", "b"])
        let resolver = Self.resolver(names) {
            $0.threads = 1
            $0.queueLimit = 1
            $0.lookupTimeout = 600
        }
        let running = Task { try await resolver.addresses(for: "a") }
        #expect(await eventually { names.calls("a") == 1 })
        let queued = Task { try await resolver.addresses(for: "b") }
        #expect(await eventually { resolver.threads.pending == 2 })
        let refused = await resolver.failure(resolving: "c")
        #expect(refused?.transferFailure?.kind == .timedOut)
        #expect(refused?.message.contains("too many lookups") == true)
        #expect(names.calls("c") == 0)
        names.release(2)
        #expect(try await running.value == [Self.public1])
        #expect(try await queued.value == [Self.public2])
        await resolver.shutdown()
    }

    @Test func shutdownAnswersQueuedLookupsAndRefusesLaterOnes() async throws {
        let names = Names(["a": [Self.public1], "b": [Self.public2]], hanging: ["a"])
        let resolver = Self.resolver(names) {
            $0.threads = 1
            $0.lookupTimeout = 600
        }
        let running = Task { try await resolver.addresses(for: "a") }
        #expect(await eventually { names.calls("a") == 1 })
        let queued = Task { await resolver.failure(resolving: "b") }
        #expect(await eventually { resolver.threads.pending == 2 })
        await resolver.shutdown()
        #expect(await queued.value?.transferFailure?.kind == .cannotFindHost)
        #expect(await resolver.failure(resolving: "later")?.transferFailure?.kind == .cannotFindHost)
        #expect(names.calls("b") == 0 && names.calls("later") == 0)
        names.release(1)
        #expect(try await running.value == [Self.public1], "a lookup already running ends normally")
    }
}

extension SourceHostResolver {
    /// The error resolving `host` ends in, or nil when it returns addresses.
    func failure(resolving host: String) async -> WebImageError? {
        await loadError { () throws(WebImageError) in try await addresses(for: host) }
    }
}
