import Logging
import WebImageServer

/// Runs `body` with a service made from `configuration`, and shuts the service down afterwards
/// (also when `body` throws), so that no test leaves its source client's connections open.
func withImageService<T>(
    _ configuration: ServiceConfiguration, logger: Logger = ImageService.silentLogger,
    _ body: (ImageService) async throws -> T
) async throws -> T {
    try await shuttingDown(
        try ImageService(configuration: configuration, logger: logger), with: { await $0.shutdown() }, body)
}
