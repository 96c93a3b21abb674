import Foundation
import WebImageTestOrigin

@testable import WebImage
@testable import WebImageServer

/// Starts a fake S3 on 127.0.0.1, runs `body`, and shuts the fake down even when `body` throws.
func withFakeS3<T>(_ body: (FakeS3) async throws -> T) async throws -> T {
    try await shuttingDown(try await FakeS3.start(), with: { try await $0.shutdown() }, body)
}

/// The service, the origin, a fake S3 and the disk directories the S3 tier's tests share.
struct S3Fixture {
    static let bucket = "images"
    static let prefix = "node/"
    static let photo = "/fixtures/jpeg/photo_800x600.jpg"

    let s3: FakeS3
    let origin: TestOrigin

    /// An S3 configuration for the fake, with the default timeout unless the test sets a shorter one.
    func configuration(timeout: Duration = .seconds(2)) -> S3Configuration {
        var configuration = S3Configuration(
            endpoint: s3.endpoint, bucket: Self.bucket, region: "us-east-1", prefix: Self.prefix,
            credentials: S3Credentials(accessKeyID: "AKIDTEST", secretAccessKey: "secret"))
        configuration.connectTimeout = timeout
        configuration.requestTimeout = timeout
        return configuration
    }

    /// A request for a 64-pixel-wide version of the photo.
    var request: ServiceRequest {
        ServiceRequest(path: ImageServiceTests.path("w:64", origin.url(Self.photo)))
    }

    /// Runs `body` with a service on its own new disk directory (none when `disk` is false)
    /// and the S3 tier configured by `configure`; the service is shut down (its S3 writes
    /// finished) when `body` returns.
    func withService<T>(
        disk: Bool = true, configure: (inout ServiceConfiguration) -> Void = { _ in },
        _ body: (ImageService, URL) async throws -> T
    ) async throws -> T {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        var configuration = ServiceConfiguration()
        configuration.allowsLoopbackSources = true
        if disk { configuration.cacheDirectory = directory }
        configuration.s3 = self.configuration()
        configure(&configuration)
        return try await withImageService(configuration) { service in try await body(service, directory) }
    }

    /// The object path (`/bucket/prefix/key`) holding `key`'s entry.
    static func objectPath(forKey key: String) -> String {
        "/\(bucket)/\(prefix)" + S3Store.objectKey(for: key)
    }

    /// The result objects in the fake, by path.
    var resultObjects: [String] {
        s3.objectPaths.filter { $0.hasPrefix("/\(Self.bucket)/\(Self.prefix)results/") }
    }

    /// Serves the request once through a service with a disk of its own, so the result is made
    /// and written to S3; returns the response, the object path and the object.
    func seed() async throws -> (response: ServiceResponse, path: String, object: Data) {
        let response = try await withService { service, _ in await service.respond(to: request) }
        guard let path = resultObjects.first, let object = s3.object(path) else {
            throw S3TestFailure("the result was not written to S3")
        }
        return (response, path, object)
    }
}

struct S3TestFailure: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

/// Runs `body` with a fake S3 and a test origin.
func withS3Fixture<T>(_ body: (S3Fixture) async throws -> T) async throws -> T {
    try await withFakeS3 { s3 in
        try await withOrigin { origin in try await body(S3Fixture(s3: s3, origin: origin)) }
    }
}
