import Testing

@testable import WebImage

/// The error a throwing call ends with, or nil when it returns (for loads and other async calls
/// that throw ``WebImageError``).
func loadError<T>(_ body: () async throws(WebImageError) -> T) async -> WebImageError? {
    do {
        _ = try await body()
        return nil
    } catch {
        return error
    }
}

/// The error `body` throws, as a ``WebImageError`` (nil when it does not throw one).
func webImageError(_ body: () throws -> Void) -> WebImageError? {
    do {
        try body()
        return nil
    } catch let error as WebImageError {
        return error
    } catch {
        return nil
    }
}

/// Expects `body` to throw a ``WebImageError`` for which `matches` holds, never to return.
func expectWebImageError(
    _ comment: Comment? = nil, sourceLocation: SourceLocation = #_sourceLocation,
    matching matches: (WebImageError) -> Bool, _ body: () throws -> Any
) {
    let error = #expect(throws: WebImageError.self, comment, sourceLocation: sourceLocation) { try body() }
    if let error, !matches(error) { Issue.record("unexpected error \(error)", sourceLocation: sourceLocation) }
}

/// Expects `body` to throw ``WebImageError/badImageData(_:)``, never to return an image.
func expectBadImageData(
    _ comment: Comment? = nil, sourceLocation: SourceLocation = #_sourceLocation, _ body: () throws -> Any
) {
    expectWebImageError(comment, sourceLocation: sourceLocation, matching: \.isBadImageData, body)
}

/// Whether `error` is ``WebImageError/badImageData(_:underlying:)``, for `#expect(performing:throws:)`.
func isBadImageData(_ error: any Error) -> Bool {
    (error as? WebImageError)?.isBadImageData == true
}

extension Result where Failure == WebImageError {
    /// The error, or nil on success.
    var error: WebImageError? {
        if case .failure(let error) = self { return error }
        return nil
    }

    var value: Success? { try? get() }
}

extension WebImageError {
    /// The transfer failure kind, when this is one.
    var transferKind: TransferFailure.Kind? {
        transferFailure?.kind
    }

    var isBadImageData: Bool {
        code == .badImageData
    }

    var message: String { description }
}
