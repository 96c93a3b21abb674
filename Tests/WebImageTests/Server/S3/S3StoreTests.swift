import Foundation
import Testing
import WebImageTestOrigin

@testable import WebImage
@testable import WebImageServer

/// The S3 client and store on their own, against a fake S3: status mapping, size limits and
/// the breaker that skips S3 after failures.
@Suite("S3 store: client, limits and breaker")
struct S3StoreTests {
    static func configuration(_ s3: FakeS3) -> S3Configuration {
        var configuration = S3Configuration(
            endpoint: s3.endpoint, bucket: "b", region: "us-east-1",
            credentials: S3Credentials(accessKeyID: "AKIDTEST", secretAccessKey: "secret", sessionToken: "tok"))
        // Long enough for a healthy answer on a loaded machine; the stall tests set their own.
        configuration.requestTimeout = .seconds(2)
        return configuration
    }

    @Test func theClientPutsGetsHeadsAndDeletesPathStyleObjects() async throws {
        try await withFakeS3 { s3 in
            let client = S3Client(configuration: Self.configuration(s3))
            defer { Task { await client.shutdown() } }
            #expect(try await client.get("a b/c") == nil)
            #expect(try await client.head("a b/c") == false)
            try await client.put("a b/c", data: Data("hello".utf8))
            #expect(s3.object("/b/a b/c") == Data("hello".utf8))
            #expect(try await client.get("a b/c") == Data("hello".utf8))
            #expect(try await client.head("a b/c"))
            try await client.delete("a b/c")
            #expect(s3.object("/b/a b/c") == nil)
            let put = try #require(s3.requests.first { $0.method == "PUT" })
            #expect(put.uri == "/b/a%20b/c")
            #expect(put.header("x-amz-security-token") == "tok")
            #expect(put.header("Authorization")?.contains("x-amz-security-token") == true)
            await client.shutdown()
        }
    }

    @Test func errorStatusesAndTimeoutsAreTypedErrors() async throws {
        try await withFakeS3 { s3 in
            var configuration = Self.configuration(s3)
            configuration.requestTimeout = .milliseconds(200)
            let client = S3Client(configuration: configuration)
            s3.setFault(.status(403))
            await #expect(throws: ServiceError.badGateway("S3 answered 403")) { try await client.get("k") }
            s3.setFault(.status(500))
            await #expect(throws: ServiceError.badGateway("S3 answered 500")) {
                try await client.put("k", data: Data())
            }
            s3.setFault(.stall)
            let clock = ContinuousClock()
            let start = clock.now
            await #expect(throws: ServiceError.gatewayTimeout("S3 did not answer in time")) {
                try await client.get("k")
            }
            #expect(clock.now - start < .seconds(5), "a stalled GET costs about its 200 ms timeout, not a hang")
            await client.shutdown()
        }
    }

    @Test func objectsAboveTheLimitAreRefusedBothWays() async throws {
        try await withFakeS3 { s3 in
            var configuration = Self.configuration(s3)
            configuration.maxObjectBytes = 100
            let client = S3Client(configuration: configuration)
            s3.setObject(Data(count: 101), at: "/b/big")
            await #expect(throws: ServiceError.self) { try await client.get("big") }
            await #expect(throws: ServiceError.self) { try await client.put("big2", data: Data(count: 101)) }
            #expect(s3.object("/b/big2") == nil)
            await client.shutdown()
            // The store skips a result too large to keep, without counting it against S3.
            let metrics = ServiceMetrics()
            let store = S3Store(configuration: configuration, metrics: metrics)
            store.store(Data(count: 200), metadata: nil, forKey: "big3")
            #expect(metrics.exposition().contains("webimage_s3_puts_total{outcome=\"skipped\"} 1"))
            #expect(store.breaker.allowsRequests)
            await store.shutdown()
        }
    }

    @Test func afterRepeatedFailuresTheStoreSkipsS3() async throws {
        try await withFakeS3 { s3 in
            var configuration = Self.configuration(s3)
            configuration.failureThreshold = 2
            configuration.coolDown = .seconds(600)
            let metrics = ServiceMetrics()
            let store = S3Store(configuration: configuration, metrics: metrics)
            s3.setFault(.status(500))
            #expect(await store.entry(forKey: "k") == nil)
            #expect(await store.entry(forKey: "k") == nil)
            #expect(s3.requests.count == 2)
            // Open: no request at all, for reads or writes.
            #expect(await store.entry(forKey: "k") == nil)
            store.store(Data("x".utf8), metadata: nil, forKey: "k")
            #expect(s3.requests.count == 2)
            let text = metrics.exposition()
            #expect(text.contains("webimage_s3_lookups_total{outcome=\"error\"} 2"))
            #expect(text.contains("webimage_s3_lookups_total{outcome=\"skipped\"} 1"))
            #expect(text.contains("webimage_s3_puts_total{outcome=\"skipped\"} 1"))
            #expect(text.contains("webimage_s3_round_trips_total 2"))
            await store.shutdown()
        }
    }

    @Test func theBreakerOpensAfterTheThresholdAndRetriesOnceTheCoolDownEnds() {
        let start = ContinuousClock.now
        let elapsed = Locked(Duration.zero)
        let breaker = S3Breaker(threshold: 3, coolDown: .seconds(10)) { start + elapsed.withLock { $0 } }
        breaker.failed()
        breaker.failed()
        #expect(breaker.allowsRequests, "two failures are below the threshold")
        breaker.failed()
        #expect(!breaker.allowsRequests)
        elapsed.withLock { $0 = .seconds(9) }
        #expect(!breaker.allowsRequests)
        elapsed.withLock { $0 = .seconds(10) }
        #expect(breaker.allowsRequests, "the cool-down is over: S3 is tried again")
        breaker.failed()
        #expect(!breaker.allowsRequests, "one more failure reopens it at once")
        elapsed.withLock { $0 = .seconds(20) }
        breaker.succeeded()
        breaker.failed()
        #expect(breaker.allowsRequests, "a success starts the count again")
    }

    @Test func identicalConcurrentLookupsShareOneGet() async throws {
        try await withFakeS3 { s3 in
            // Stalled, so that every lookup starts while the first GET is still waiting.
            s3.setFault(.stall)
            let store = S3Store(configuration: Self.configuration(s3), metrics: ServiceMetrics())
            let found = await withTaskGroup(of: Bool.self) { group in
                for _ in 0..<10 { group.addTask { await store.entry(forKey: "k") != nil } }
                return await group.reduce(0) { $0 + ($1 ? 1 : 0) }
            }
            #expect(found == 0)
            #expect(s3.requests.count == 1)
            await store.shutdown()
        }
    }
}
