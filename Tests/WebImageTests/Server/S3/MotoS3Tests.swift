import Foundation
import Testing
import WebImageTestOrigin

@testable import WebImage
@testable import WebImageServer

/// The S3 client and tier against moto_server, a real S3 implementation that checks signatures.
@Suite(
    "S3 tier against moto_server", .serialized,
    .enabled(if: MotoServer.executable != nil, "moto_server is not on PATH (pip install 'moto[server]')"))
struct MotoS3Tests {
    /// Runs `body` with a client for `configuration` and always shuts the client down.
    func withClient(_ configuration: S3Configuration, _ body: (S3Client) async throws -> Void) async throws {
        try await shuttingDown(S3Client(configuration: configuration), with: { await $0.shutdown() }, body)
    }

    @Test func motoAcceptsOurSignaturesAndRefusesAWrongSecret() async throws {
        try await MotoServer.run { moto in
            // moto 5.2's own signature check (boto3's requests fail it too) mis-encodes `=`, `+`
            // and non-ASCII in paths; the tier's keys are hex, and a space is encoded as AWS does.
            let key = "results/a b-0123456789abcdef"
            try await withClient(moto.configuration()) { client in
                #expect(try await client.get(key) == nil)
                try await client.put(key, data: Data("hello".utf8))
                #expect(try await client.get(key) == Data("hello".utf8))
                #expect(try await client.head(key))
                try await client.delete(key)
                #expect(try await client.head(key) == false)
            }
            try await withClient(moto.configuration(secret: "not the secret")) { forger in
                await #expect(throws: ServiceError.badGateway("S3 answered 403")) { try await forger.get(key) }
            }
        }
    }

    @Test func aResultOneNodeMadeIsServedByAnotherFromMoto() async throws {
        try await MotoServer.run { moto in
            try await withOrigin { origin in
                let request = ServiceRequest(path: ImageServiceTests.path("w:48", origin.url(S3Fixture.photo)))
                func node() throws -> ServiceConfiguration {
                    var configuration = ServiceConfiguration()
                    configuration.allowsLoopbackSources = true
                    configuration.cacheDirectory = try makeTemporaryDirectory()
                    configuration.s3 = moto.configuration()
                    return configuration
                }
                let first = try node()
                let second = try node()
                defer {
                    for directory in [first.cacheDirectory, second.cacheDirectory].compactMap(\.self) {
                        try? FileManager.default.removeItem(at: directory)
                    }
                }
                let made = try await withImageService(first) { await $0.respond(to: request) }
                origin.resetCounters()
                let served = try await withImageService(second) { service in
                    let response = await service.respond(to: request)
                    #expect(service.metricsText().contains("webimage_s3_lookups_total{outcome=\"hit\"} 1"))
                    return response
                }
                #expect(made.status == 200 && served.body == made.body)
                #expect(origin.totalRequestCount == 0)
            }
        }
    }
}
