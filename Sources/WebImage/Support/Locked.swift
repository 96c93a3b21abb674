#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A value that is only read and written while holding a `pthread_mutex_t`: the lock behind
/// every piece of shared mutable state in this package.
///
/// Its API is `Synchronization.Mutex`'s. It exists because ThreadSanitizer on Linux does not see
/// the ordering that Swift 6.3's `Mutex` provides (its lock word is handled inside the
/// uninstrumented standard library), so a TSan run reports every two accesses under one `Mutex`
/// as a race, which would drown real ones; TSan does intercept pthread mutexes. CI runs the whole
/// test suite under TSan. The price is one call into the C library per lock and unlock.
package final class Locked<Value: ~Copyable>: @unchecked Sendable {
    // @unchecked: `value` is touched only between pthread_mutex_lock and unlock on `mutex`, and
    // `mutex` itself never changes after init.
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private var value: Value

    package init(_ initialValue: consuming sending Value) {
        value = initialValue
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        pthread_mutex_init(mutex, nil)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    /// Runs `body` with exclusive access to the value.
    package func withLock<Result, Failure: Error>(
        _ body: (inout sending Value) throws(Failure) -> sending Result
    ) throws(Failure) -> sending Result {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body(&value)
    }

    /// Runs `body` with exclusive access if the lock is free now; nil if another thread holds it.
    package func withLockIfAvailable<Result, Failure: Error>(
        _ body: (inout sending Value) throws(Failure) -> sending Result
    ) throws(Failure) -> sending Result? {
        guard pthread_mutex_trylock(mutex) == 0 else { return nil }
        defer { pthread_mutex_unlock(mutex) }
        return try body(&value)
    }
}
