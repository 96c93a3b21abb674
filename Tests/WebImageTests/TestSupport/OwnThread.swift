import Foundation

/// Runs `work` on a thread of its own and returns what it returns or throws: blocking work
/// (waiting for a child process, a blocking socket) must not hold one of the few cooperative
/// threads other async tests need.
func onOwnThread<T: Sendable, E: Error>(_ work: @escaping @Sendable () throws(E) -> T) async throws(E) -> T {
    let result: Result<T, E> = await withCheckedContinuation { continuation in
        Thread { continuation.resume(returning: Result { () throws(E) -> T in try work() }) }.start()
    }
    return try result.get()
}
