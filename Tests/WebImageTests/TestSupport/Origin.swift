import WebImageTestOrigin

/// Starts an origin serving the committed fixtures, runs `body`, and shuts the origin down even
/// when `body` throws. ``DownloaderTestSupport/withOrigin(config:_:)`` adds a downloader to it,
/// and ``ManagerOriginFixture/run(config:_:)`` a cache and a manager.
func withOrigin<T>(_ body: (TestOrigin) async throws -> T) async throws -> T {
    let origin = try await TestOrigin.start(fixturesDirectory: Fixtures.directory)
    do {
        let result = try await body(origin)
        try await origin.shutdown()
        return result
    } catch {
        try? await origin.shutdown()
        throw error
    }
}
