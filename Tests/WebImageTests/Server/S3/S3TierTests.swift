import Crypto
import Foundation
import InMemoryTracing
import Testing
import WebImageTestOrigin

@_spi(Internals) @testable import WebImage
@testable import WebImageServer

/// The service with an S3 tier behind its disk, against a fake S3 on 127.0.0.1: the lookup
/// order, the background write, and S3 failures that never fail a request.
@Suite("S3 tier: two-tier lookup and failure modes")
struct S3TierTests {
    @Test func aMissIsWrittenToS3InTheBackgroundUnderItsKeyInAValidEnvelope() async throws {
        try await withS3Fixture { fixture in
            let (response, path, object) = try await fixture.seed()
            #expect(response.status == 200)
            #expect(fixture.resultObjects.count == 1)
            let entry = try #require(DiskCacheEntryFormat.decode(object))
            #expect(entry.data == response.body)
            #expect(entry.metadata.etag == response.header("ETag"))
            let key = String(decoding: try #require(entry.metadata.extendedData), as: UTF8.self)
            #expect(path == S3Fixture.objectPath(forKey: key))
            let put = try #require(fixture.s3.requests.first { $0.method == "PUT" })
            #expect(put.header("Authorization")?.hasPrefix("AWS4-HMAC-SHA256 Credential=AKIDTEST/") == true)
            #expect(put.header("x-amz-content-sha256") == SigV4Signer.hex(SHA256.hash(data: object)))
            // The lookup before it was a 404.
            #expect(fixture.s3.requests.first?.method == "GET")
        }
    }

    @Test func aResultOnlyInS3IsServedWithoutTheOriginAndThenLandsOnTheDisk() async throws {
        try await withS3Fixture { fixture in
            let seeded = try await fixture.seed()
            fixture.origin.resetCounters()
            try await fixture.withService { service, directory in
                let response = await service.respond(to: fixture.request)
                #expect(response.status == 200 && response.body == seeded.response.body)
                #expect(response.header("ETag") == seeded.response.header("ETag"))
                #expect(fixture.origin.totalRequestCount == 0)
                #expect(service.metricsText().contains("webimage_cache_hits_total{tier=\"s3\"} 1"))
                #expect(service.metricsText().contains("webimage_s3_lookups_total{outcome=\"hit\"} 1"))
                await FileIOExecutor.shared.drain()
                let disk = try DiskCache(directory: directory)
                #expect(disk.totalCount == 1)
            }
        }
    }

    @Test func aDiskHitMakesNoS3Request() async throws {
        try await withS3Fixture { fixture in
            let directory = try makeTemporaryDirectory()
            defer { try? FileManager.default.removeItem(at: directory) }
            var configuration = ServiceConfiguration()
            configuration.allowsLoopbackSources = true
            configuration.cacheDirectory = directory
            configuration.s3 = fixture.configuration()
            _ = try await withImageService(configuration) { await $0.respond(to: fixture.request) }
            let before = fixture.s3.requests.map(\.method)
            #expect(before == ["GET", "PUT"])
            // A new service on the same disk (no memory tier yet) answers from the disk.
            let again = try await withImageService(configuration) { service in
                let response = await service.respond(to: fixture.request)
                #expect(service.metricsText().contains("webimage_cache_hits_total{tier=\"disk\"} 1"))
                return response
            }
            #expect(again.status == 200)
            #expect(fixture.s3.requests.count == before.count)
        }
    }

    /// Runs the request with S3 answering with `fault`; the request must be served from the
    /// origin and the lookup counted as `outcome`. What the fault costs is the `s3.get` span:
    /// about the S3 timeout, not a hang (a stalled S3 never answers), so the bound only has to
    /// tell "ended" from "never": the timeout and 30 s. In a parallel test run whose 1,700 tests
    /// share two cooperative threads, the lookup's own steps wait for a thread (the timer fired
    /// 2 s late once, and an injected 503 took 19.7 s to be read once). The whole request is
    /// not timed: it also waits for the CPU threads (10 s and more were seen there).
    func expectServedDespite(
        _ fault: FakeS3.Fault, outcome: String, timeout: Duration = .seconds(2)
    ) async throws {
        try await withS3Fixture { fixture in
            fixture.s3.setFault(fault)
            let tracer = InMemoryTracer()
            try await fixture.withService(configure: {
                $0.s3 = fixture.configuration(timeout: timeout)
                $0.tracer = tracer
            }) { service, _ in
                let response = await service.respond(to: fixture.request)
                #expect(response.status == 200)
                let lookup = try #require(tracer.popFinishedSpans().first { $0.operationName == "s3.get" })
                let took = Duration.nanoseconds(
                    Int64(clamping: lookup.endInstant.nanosecondsSinceEpoch)
                        - Int64(clamping: lookup.startInstant.nanosecondsSinceEpoch))
                // The slack is for a loaded 2-core machine (see above); a lookup the timeout did
                // not end would take as long as the fault lasts, which for a stall is forever.
                #expect(took < timeout + .seconds(30), "the S3 lookup took \(took)")
                #expect(fixture.origin.requestCount(path: S3Fixture.photo) == 1)
                #expect(service.metricsText().contains("webimage_s3_lookups_total{outcome=\"\(outcome)\"} 1"))
            }
        }
    }

    @Test(arguments: [403, 500, 503])
    func anS3ErrorStatusIsAMissAndTheRequestIsServed(_ status: Int) async throws {
        try await expectServedDespite(.status(status), outcome: "error")
    }

    @Test func aStalledS3CostsAtMostItsTimeoutAndTheRequestIsServed() async throws {
        try await expectServedDespite(.stall, outcome: "error", timeout: .milliseconds(300))
    }

    @Test func anUnreachableS3IsAMissAndTheRequestIsServed() async throws {
        try await withS3Fixture { fixture in
            // A port that was listening a moment ago and is closed now: connections are refused.
            let closed = try await FakeS3.start()
            try await closed.shutdown()
            try await fixture.withService(configure: {
                $0.s3?.endpoint = closed.endpoint
            }) { service, _ in
                let response = await service.respond(to: fixture.request)
                #expect(response.status == 200)
                #expect(service.metricsText().contains("webimage_s3_lookups_total{outcome=\"error\"} 1"))
            }
        }
    }

    /// Seeds the result in S3, lets `spoil` damage the object or the way to it, and checks a
    /// fresh node makes the result again from the origin, counting the lookup as `outcome`.
    func expectRemadeAfter(
        _ spoil: (S3Fixture, _ path: String, _ object: Data) throws -> Void, outcome: String
    ) async throws {
        try await withS3Fixture { fixture in
            let seeded = try await fixture.seed()
            try spoil(fixture, seeded.path, seeded.object)
            fixture.origin.resetCounters()
            try await fixture.withService { service, _ in
                let response = await service.respond(to: fixture.request)
                #expect(response.status == 200 && response.body == seeded.response.body)
                #expect(fixture.origin.requestCount(path: S3Fixture.photo) == 1)
                #expect(service.metricsText().contains("webimage_s3_lookups_total{outcome=\"\(outcome)\"} 1"))
            }
            fixture.s3.setFault(nil)
            // The node's own write holds a valid entry of the same result now.
            let rewritten = try #require(fixture.s3.object(seeded.path).flatMap(DiskCacheEntryFormat.decode))
            #expect(rewritten.data == seeded.response.body)
        }
    }

    /// Replaces the seeded object with `damage(object)`: a corrupt miss, the bad object never served.
    func expectCorruptMiss(_ damage: (Data) throws -> Data) async throws {
        try await expectRemadeAfter(
            { fixture, path, object in fixture.s3.setObject(try damage(object), at: path) },
            outcome: "corrupt")
    }

    @Test func anObjectCutOffInTransitIsAMissAndTheRequestIsServed() async throws {
        try await expectRemadeAfter({ fixture, _, _ in fixture.s3.setFault(.cutOff) }, outcome: "error")
    }

    @Test func aTruncatedObjectIsACorruptMiss() async throws {
        try await expectCorruptMiss { $0.prefix($0.count - 10) }
    }

    @Test func anObjectFailingItsChecksumIsACorruptMiss() async throws {
        try await expectCorruptMiss { object in
            var bad = object
            bad[bad.count - 1] ^= 0xff
            return bad
        }
    }

    @Test func anIntactEntryForAnotherKeyIsACorruptMiss() async throws {
        try await expectCorruptMiss { object in
            var entry = try #require(DiskCacheEntryFormat.decode(object))
            entry.metadata.extendedData = Data("another key".utf8)
            return try DiskCacheEntryFormat.encode(data: entry.data, metadata: entry.metadata)
        }
    }

    @Test func arbitraryBytesAreACorruptMiss() async throws {
        try await expectCorruptMiss { _ in Data("<html>not ours</html>".utf8) }
    }

    @Test func sourcesGoToS3OnlyWhenAskedAndThenSpareTheOrigin() async throws {
        try await withS3Fixture { fixture in
            let sources = "/\(S3Fixture.bucket)/\(S3Fixture.prefix)sources/"
            _ = try await fixture.seed()
            #expect(!fixture.s3.objectPaths.contains { $0.hasPrefix(sources) })
            let other = ServiceRequest(path: ImageServiceTests.path("w:32", fixture.origin.url(S3Fixture.photo)))
            try await fixture.withService(configure: { $0.s3?.storesSources = true }) { service, _ in
                #expect(await service.respond(to: other).status == 200)
            }
            #expect(fixture.s3.objectPaths.contains { $0.hasPrefix(sources) })
            fixture.origin.resetCounters()
            // A third result of the same source, on a new node: the source comes from S3.
            let third = ServiceRequest(path: ImageServiceTests.path("w:16", fixture.origin.url(S3Fixture.photo)))
            try await fixture.withService(configure: { $0.s3?.storesSources = true }) { service, _ in
                #expect(await service.respond(to: third).status == 200)
            }
            #expect(fixture.origin.totalRequestCount == 0)
        }
    }
}
