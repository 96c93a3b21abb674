import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

// The small primitives every layer uses: `Locked` (the mutex), the checked conversions from
// floating point to integers, and a typed view of a `Data`'s bytes for C calls.

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
    // The mutex makes every access exclusive, so the runtime's dynamic exclusivity check on each
    // `withLock` (swift_beginAccess/endAccess, about 6 % of a memory-cache hit) is skipped.
    @exclusivity(unchecked) private var value: Value

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

/// The one way this package turns a floating-point number into an integer.
///
/// Swift's `Int(someDouble)` traps on NaN, on the infinities and on any value outside the
/// integer's range, and a trap ends the whole process: in a server, one request with
/// `blur:1e308` would end every request in flight. Every conversion goes through one of these
/// two, chosen by name:
///
/// - ``Swift/FixedWidthInteger/init(clamping:rounding:)`` never fails: NaN becomes 0, values
///   below or above the type's range become its minimum or maximum. Use it where the value was
///   already checked, or where saturating is the documented behaviour (pixel arithmetic).
/// - ``Swift/FixedWidthInteger/init(checking:rounding:_:)`` throws
///   ``WebImageError/invalidArgument(_:underlying:)`` naming the value, for numbers from outside.
///
/// `FloatingPointConversionGuard.swift` makes a raw `Int(someDouble)` anywhere in the package a
/// deprecation warning (and the build has zero warnings), and a test scans `Sources` for the
/// forms the compiler cannot see.
extension FixedWidthInteger {
    /// `value` rounded by `rule` and saturated to this type's range; NaN is 0.
    ///
    /// Even specialised, this converts through the standard library's generic path and reads
    /// `rule` through its value witnesses (the enum is resilient): a few nanoseconds a call. Loops
    /// over pixels use ``Swift/UInt8/init(channel:)`` and ``Swift/UInt8/init(truncatingChannel:)``.
    @inlinable
    package init<Source: BinaryFloatingPoint>(
        clamping value: Source, rounding rule: FloatingPointRoundingRule = .towardZero
    ) {
        let rounded = rule == .towardZero ? value : value.rounded(rule)
        // `Source(Self.max)` is exact or rounds up to the next power of two, and `Source(Self.min)`
        // is exact (0 or a power of two), so these comparisons saturate exactly.
        if rounded >= Source(Self.max) {
            self = .max
        } else if rounded <= Source(Self.min) {
            self = .min
        } else if rounded.isNaN {
            self = 0
        } else {
            // Generic context: the standard library's conversion, which cannot trap here.
            self = Self(rounded)
        }
    }

    /// `value` rounded by `rule`, or ``WebImageError/invalidArgument(_:underlying:)`` naming
    /// `what` when it is NaN, infinite or outside this type's range.
    @inlinable
    package init<Source: BinaryFloatingPoint>(
        checking value: Source, rounding rule: FloatingPointRoundingRule = .towardZero,
        _ what: @autoclosure () -> String
    ) throws(WebImageError) {
        guard let exact = Self(exactly: value.rounded(rule)) else {
            throw .invalidArgument("\(what()) must be a finite number within \(Self.min)...\(Self.max), got \(value)")
        }
        self = exact
    }
}

extension UInt8 {
    /// A colour channel: `value` rounded to the nearest integer (halves up) and saturated to
    /// 0...255; NaN is 0. The per-pixel form of `init(clamping:rounding:)`.
    @inlinable @inline(__always)
    package init(channel value: Float) {
        self.init(truncatingChannel: value + 0.5)
    }

    /// `value` rounded toward zero and saturated to 0...255; NaN is 0.
    ///
    /// The integer part is read from the number's bits (implicit bit and mantissa, shifted by
    /// the exponent): no libm call, no conversion instruction, no generic code. A resampler
    /// calling the generic `init(clamping:rounding:)` spent 30 % of a cold thumbnail's CPU in it.
    @inlinable @inline(__always)
    package init(truncatingChannel value: Float) {
        guard value >= 1 else {  // below 1, negative or NaN
            self = 0
            return
        }
        guard value < 256 else {
            self = 255
            return
        }
        // 1 <= value < 256: biased exponent 127...134, so the shift is 23...16.
        let bits = value.bitPattern
        let shift = 150 &- (bits &>> 23)
        self = UInt8(truncatingIfNeeded: ((bits & 0x7F_FFFF) | 0x80_0000) &>> shift)
    }
}

extension BinaryFloatingPoint {
    /// This value limited to `range`; NaN becomes the range's lower bound.
    @inlinable
    package func clamped(to range: ClosedRange<Self>) -> Self {
        guard !isNaN else { return range.lowerBound }
        return Swift.min(Swift.max(self, range.lowerBound), range.upperBound)
    }
}

extension Duration {
    /// `seconds` as a duration, whole nanoseconds, saturated at ±9×10¹⁵ s (285 million years);
    /// NaN is zero. `Duration.seconds(_: Double)` traps on NaN and on values that large.
    @inlinable
    package init(clampingSeconds seconds: Double) {
        guard !seconds.isNaN else {
            self = .zero
            return
        }
        let bounded = seconds.clamped(to: -9e15...9e15)
        let whole = bounded.rounded(.towardZero)
        self = .seconds(Int64(clamping: whole)) + .nanoseconds(Int64(clamping: (bounded - whole) * 1e9))
    }
}

extension ContiguousBytes {
    /// `withUnsafeBytes` for a body that throws ``WebImageError``, keeping that type (for `Data`
    /// and byte arrays alike): the protocol's is `rethrows`, which widens every error to `any Error`.
    func withUnsafeBytesTyped<Result>(
        _ body: (UnsafeRawBufferPointer) throws(WebImageError) -> Result
    ) throws(WebImageError) -> Result {
        let outcome: Swift.Result<Result, WebImageError> = withUnsafeBytes { bytes in
            Swift.Result { () throws(WebImageError) -> Result in try body(bytes) }
        }
        return try outcome.get()
    }
}
