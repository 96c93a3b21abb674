/// `body(resource)`, then `shutdown(resource)` whether `body` returned or threw: Swift has no
/// async `defer`, and a test must not leave a server or its connections running. A failing
/// shutdown fails the call only when `body` returned.
func shuttingDown<Resource, T>(
    _ resource: Resource, with shutdown: (Resource) async throws -> Void, _ body: (Resource) async throws -> T
) async throws -> T {
    do {
        let result = try await body(resource)
        try await shutdown(resource)
        return result
    } catch {
        try? await shutdown(resource)
        throw error
    }
}
