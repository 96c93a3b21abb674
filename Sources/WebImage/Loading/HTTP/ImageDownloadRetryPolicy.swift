import Foundation

/// When and after how long the downloader tries a failed download again: exponential backoff
/// with jitter for transient failures, honouring `Retry-After` on 429 and 503.
///
/// SDWebImage has no retry; ``none`` (the downloader's default) keeps that behaviour. Only
/// failures that may well go away are retried: transient transfer failures
/// (``TransferFailure/isTransient``) and status codes in ``retryableStatusCodes``. Cancellation,
/// bad data and every other error are final.
public struct ImageDownloadRetryPolicy: Sendable, Equatable {
    /// Total attempts, the first included: 1 means no retry.
    public var maxAttempts: Int
    /// The delay before the first retry, in seconds.
    public var baseDelay: Double
    /// How much each further retry's delay grows.
    public var multiplier: Double
    /// The cap on a backoff delay, and the longest `Retry-After` that is waited for.
    public var maxDelay: Double
    /// The fraction of each delay that is random, 0...1: the delay is drawn from
    /// `[computed × (1 − jitter), computed]`. 1 is "full jitter" (`[0, computed]`), which
    /// spreads out clients that failed together; 0 is plain exponential backoff.
    public var jitter: Double
    /// HTTP status codes worth retrying.
    public var retryableStatusCodes: Set<Int>
    /// Whether a 429 or 503 response's `Retry-After` replaces the backoff delay. A `Retry-After`
    /// longer than ``maxDelay`` ends the retries: the caller gets the error at once.
    public var honorsRetryAfter: Bool

    public static let defaultRetryableStatusCodes: Set<Int> = [408, 429, 500, 502, 503, 504]

    public init(
        maxAttempts: Int, baseDelay: Double = 0.5, multiplier: Double = 2, maxDelay: Double = 30, jitter: Double = 1,
        retryableStatusCodes: Set<Int> = defaultRetryableStatusCodes, honorsRetryAfter: Bool = true
    ) {
        self.maxAttempts = maxAttempts
        self.baseDelay = baseDelay
        self.multiplier = multiplier
        self.maxDelay = maxDelay
        self.jitter = jitter
        self.retryableStatusCodes = retryableStatusCodes
        self.honorsRetryAfter = honorsRetryAfter
    }

    /// No retry: every failure is final. The downloader's default.
    public static let none = ImageDownloadRetryPolicy(maxAttempts: 1)

    /// Exponential backoff with full jitter and the default delays, for `maxAttempts` attempts in all.
    public static func exponential(maxAttempts: Int) -> ImageDownloadRetryPolicy {
        ImageDownloadRetryPolicy(maxAttempts: maxAttempts)
    }

    /// Throws ``WebImageError/invalidArgument(_:underlying:)`` naming the first field out of range, so a
    /// configuration can be rejected when it is set. ``retryDelay(afterAttempt:error:retryAfter:now:random:)``
    /// never traps on an invalid policy either; it clamps.
    public func validate() throws(WebImageError) {
        if maxAttempts < 1 { throw .invalidArgument("retry maxAttempts must be at least 1 (got \(maxAttempts))") }
        if !(baseDelay >= 0 && baseDelay.isFinite) {
            throw .invalidArgument("retry baseDelay must be a finite number ≥ 0 (got \(baseDelay))")
        }
        if !(multiplier >= 1 && multiplier.isFinite) {
            throw .invalidArgument("retry multiplier must be a finite number ≥ 1 (got \(multiplier))")
        }
        if !(maxDelay >= 0 && maxDelay.isFinite) {
            throw .invalidArgument("retry maxDelay must be a finite number ≥ 0 (got \(maxDelay))")
        }
        if !(0...1).contains(jitter) { throw .invalidArgument("retry jitter must be within 0...1 (got \(jitter))") }
    }

    /// The delay in seconds before the next attempt, or nil to give up and report `error`.
    ///
    /// - Parameters:
    ///   - attempt: the attempt that just failed, counting from 1; nil once it reaches
    ///     ``maxAttempts`` (and for a count below 1).
    ///   - error: the failure of that attempt; only transient failures are retried.
    ///   - retryAfter: the response's `Retry-After` value (delta-seconds or an HTTP-date,
    ///     relative to `now`), used only on 429 and 503 when ``honorsRetryAfter`` is set.
    ///   - now: the current date, against which an HTTP-date `Retry-After` is measured.
    ///   - random: the source of the jitter, injectable for tests.
    public func retryDelay(
        afterAttempt attempt: Int, error: WebImageError, retryAfter: String?, now: Date,
        random: inout some RandomNumberGenerator
    ) -> Double? {
        guard attempt >= 1, attempt < maxAttempts, isRetryable(error) else { return nil }
        let cap = Self.finiteOrZero(maxDelay)
        if honorsRetryAfter, let status = error.statusCode, status == 429 || status == 503,
            let retryAfter, let seconds = Self.retryAfterSeconds(retryAfter, now: now)
        {
            return seconds <= cap ? seconds : nil
        }
        let computed = backoff(afterAttempt: attempt, cap: cap)
        let fraction = jitter.isNaN ? 1 : min(max(jitter, 0), 1)
        let lower = computed * (1 - fraction)
        return lower < computed ? Double.random(in: lower...computed, using: &random) : computed
    }

    /// Whether `error` is one a retry may cure.
    public func isRetryable(_ error: WebImageError) -> Bool {
        if let failure = error.transferFailure { return failure.isTransient }
        if let status = error.statusCode { return retryableStatusCodes.contains(status) }
        return false
    }

    /// `baseDelay × multiplier^(attempt − 1)`, capped, computed so that no input gives NaN or infinity.
    private func backoff(afterAttempt attempt: Int, cap: Double) -> Double {
        let base = Self.finiteOrZero(baseDelay)
        let growth = multiplier.isFinite ? max(multiplier, 1) : 1
        guard base > 0 else { return 0 }
        let delay = base * pow(growth, Double(attempt - 1))
        return delay.isFinite ? min(delay, cap) : cap
    }

    private static func finiteOrZero(_ value: Double) -> Double {
        value.isFinite ? max(value, 0) : 0
    }

    /// RFC 9110 10.2.3: delta-seconds (digits only) or an HTTP-date; nil when it is neither. A
    /// date in the past means "now".
    static func retryAfterSeconds(_ value: String, now: Date) -> Double? {
        let trimmed = value.trimmingCharacters(in: .whitespaces)
        if !trimmed.isEmpty, trimmed.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) {
            return Double(trimmed)
        }
        return HTTPDate.parse(trimmed).map { max(0, $0.timeIntervalSince(now)) }
    }
}
