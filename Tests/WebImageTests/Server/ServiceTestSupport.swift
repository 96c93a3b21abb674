import HummingbirdTesting
import Logging
import WebImageServer
import WebImageTestOrigin

/// Runs `body` with a service made from `configuration`, and shuts the service down afterwards
/// (also when `body` throws), so that no test leaves its source client's connections open.
func withImageService<T>(
    _ configuration: ServiceConfiguration, logger: Logger = ImageService.silentLogger,
    _ body: (ImageService) async throws -> T
) async throws -> T {
    try await shuttingDown(
        try ImageService(configuration: configuration, logger: logger), with: { await $0.shutdown() }, body)
}

/// Runs `body` with a service made from `configuration` serving on a loopback port, a client of
/// it and a fresh origin (the service allows loopback sources only if `configuration` does); the
/// server, the service and the origin are stopped afterwards.
func withServingImageService(
    _ configuration: ServiceConfiguration,
    _ body: @Sendable (ImageService, any TestClientProtocol, TestOrigin) async throws -> Void
) async throws {
    try await withImageService(configuration) { service in
        try await withOrigin { origin in
            try await ImageServer.application(service: service, host: "127.0.0.1", port: 0).test(.live) { client in
                try await body(service, client, origin)
            }
        }
    }
}
