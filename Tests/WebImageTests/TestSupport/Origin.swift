import WebImageTestOrigin

/// Starts an origin serving the committed fixtures, runs `body`, and shuts the origin down even
/// when `body` throws. ``DownloaderTestSupport/withOrigin(config:_:)`` adds a downloader to it,
/// and ``ManagerOriginFixture/run(config:_:)`` a cache and a manager.
func withOrigin<T>(_ body: (TestOrigin) async throws -> T) async throws -> T {
    try await shuttingDown(
        try await TestOrigin.start(fixturesDirectory: Fixtures.directory), with: { try await $0.shutdown() }, body)
}
