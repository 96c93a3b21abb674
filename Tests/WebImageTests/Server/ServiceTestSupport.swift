import Logging
import WebImageServer

/// Runs `body` with a service made from `configuration`, and shuts the service down afterwards
/// (also when `body` throws), so that no test leaves its source client's connections open.
func withImageService<T>(
    _ configuration: ServiceConfiguration, logger: Logger = ImageService.silentLogger,
    _ body: (ImageService) async throws -> T
) async throws -> T {
    let service = try ImageService(configuration: configuration, logger: logger)
    do {
        let result = try await body(service)
        await service.shutdown()
        return result
    } catch {
        await service.shutdown()
        throw error
    }
}
