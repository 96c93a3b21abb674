import Foundation
import Testing

@testable import WebImage

/// A generator that always returns the same word: 1 draws the bottom of a range, `.max` the top.
/// (Not 0: the standard library's unbiased bounded draw rejects 0 and would ask again forever.)
private struct ConstantRandom: RandomNumberGenerator {
    var word: UInt64
    mutating func next() -> UInt64 { word }
}

@Suite("Retry policy decisions")
struct RetryPolicyTests {
    let now = Date(timeIntervalSince1970: 1_700_000_000)
    let timedOut = WebImageError.transferFailed(TransferFailure(.timedOut, "15 s"))

    private func delay(
        _ policy: ImageDownloadRetryPolicy, attempt: Int, error: WebImageError, retryAfter: String? = nil,
        word: UInt64 = .max
    ) -> Double? {
        var random = ConstantRandom(word: word)
        return policy.retryDelay(afterAttempt: attempt, error: error, retryAfter: retryAfter, now: now, random: &random)
    }

    @Test("Defaults: off, and exponential(maxAttempts:) uses 0.5 s × 2ⁿ up to 30 s with full jitter")
    func defaults() {
        #expect(ImageDownloadRetryPolicy.none.maxAttempts == 1)
        let policy = ImageDownloadRetryPolicy.exponential(maxAttempts: 4)
        #expect(policy.maxAttempts == 4)
        #expect(policy.baseDelay == 0.5 && policy.multiplier == 2 && policy.maxDelay == 30 && policy.jitter == 1)
        #expect(policy.retryableStatusCodes == [408, 429, 500, 502, 503, 504])
        #expect(policy.honorsRetryAfter)
        #expect(throws: Never.self) { try policy.validate() }
    }

    @Test("The none policy never retries")
    func noneNeverRetries() {
        #expect(delay(.none, attempt: 1, error: timedOut) == nil)
        #expect(delay(.none, attempt: 1, error: .invalidDownloadStatusCode(503), retryAfter: "1") == nil)
    }

    @Test("Without jitter the delays double from the base delay and stop at maxDelay")
    func backoffSequence() {
        var policy = ImageDownloadRetryPolicy.exponential(maxAttempts: 10)
        policy.jitter = 0
        let delays = (1..<10).map { delay(policy, attempt: $0, error: timedOut) }
        #expect(delays == [0.5, 1, 2, 4, 8, 16, 30, 30, 30])
        #expect(delay(policy, attempt: 10, error: timedOut) == nil)
    }

    @Test("The attempt count bounds the retries; counts below 1 never retry")
    func attemptBound() {
        let policy = ImageDownloadRetryPolicy.exponential(maxAttempts: 3)
        #expect(delay(policy, attempt: 1, error: timedOut) != nil)
        #expect(delay(policy, attempt: 2, error: timedOut) != nil)
        #expect(delay(policy, attempt: 3, error: timedOut) == nil)
        #expect(delay(policy, attempt: 0, error: timedOut) == nil)
        #expect(delay(policy, attempt: -5, error: timedOut) == nil)
    }

    @Test("Full jitter draws from [0, computed]; the source decides where")
    func fullJitterRange() {
        let policy = ImageDownloadRetryPolicy.exponential(maxAttempts: 5)
        let low = delay(policy, attempt: 3, error: timedOut, word: 1) ?? -1
        let high = delay(policy, attempt: 3, error: timedOut, word: .max) ?? -1
        #expect(low >= 0 && low < 0.01)
        #expect(high > 1.99 && high <= 2)
        var random = SplitMix64(seed: 42)
        let samples = (0..<2000).compactMap { _ in
            policy.retryDelay(afterAttempt: 3, error: timedOut, retryAfter: nil, now: now, random: &random)
        }
        #expect(samples.count == 2000)
        #expect(samples.allSatisfy { (0...2).contains($0) })
        #expect(samples.min()! < 0.1 && samples.max()! > 1.9)
    }

    @Test("Partial jitter keeps the delay within [computed × (1 − jitter), computed]")
    func partialJitterRange() {
        var policy = ImageDownloadRetryPolicy.exponential(maxAttempts: 5)
        policy.jitter = 0.25
        var random = SplitMix64(seed: 7)
        for _ in 0..<500 {
            let value = policy.retryDelay(afterAttempt: 4, error: timedOut, retryAfter: nil, now: now, random: &random)
            #expect(value.map { (3...4).contains($0) } == true)
        }
    }

    @Test("The same seed gives the same delays")
    func deterministicWithSeed() {
        let policy = ImageDownloadRetryPolicy.exponential(maxAttempts: 8)
        func run() -> [Double?] {
            var random = SplitMix64(seed: 2024)
            return (1..<8).map {
                policy.retryDelay(afterAttempt: $0, error: timedOut, retryAfter: nil, now: now, random: &random)
            }
        }
        #expect(run() == run())
        #expect(run().allSatisfy { $0 != nil })
    }

    @Test("Transient transfer failures are retried; the others are not")
    func transferFailures() {
        let policy = ImageDownloadRetryPolicy.exponential(maxAttempts: 3)
        for kind in TransferFailure.Kind.allCases {
            let failure = TransferFailure(kind, "")
            #expect(
                (delay(policy, attempt: 1, error: .transferFailed(failure)) != nil) == failure.isTransient, "\(kind)")
        }
    }

    @Test("Retryable status codes are retried, other codes are not", arguments: [408, 429, 500, 502, 503, 504])
    func retryableCodes(code: Int) {
        let policy = ImageDownloadRetryPolicy.exponential(maxAttempts: 2)
        #expect(delay(policy, attempt: 1, error: .invalidDownloadStatusCode(code)) != nil)
    }

    @Test("Other status codes are final", arguments: [304, 400, 401, 403, 404, 410, 501, 505])
    func finalCodes(code: Int) {
        let policy = ImageDownloadRetryPolicy.exponential(maxAttempts: 2)
        #expect(delay(policy, attempt: 1, error: .invalidDownloadStatusCode(code)) == nil)
    }

    @Test("Cancellation, bad data and the other errors are never retried")
    func nonRetryableErrors() {
        let policy = ImageDownloadRetryPolicy.exponential(maxAttempts: 5)
        let errors: [WebImageError] = [
            .cancelled, .badImageData("garbage"), .invalidURL("x"), .cacheNotModified, .blackListed("x"),
            .invalidDownloadOperation("x"), .invalidDownloadResponse, .invalidDownloadContentType("text/html"),
            .imageTooLarge(width: 1, height: 1, limit: 0), .invalidArgument("x"), .diskCacheFailure("x"),
        ]
        for error in errors { #expect(delay(policy, attempt: 1, error: error) == nil, "\(error)") }
    }

    @Test("A custom status set replaces the default one")
    func customStatusCodes() {
        var policy = ImageDownloadRetryPolicy.exponential(maxAttempts: 2)
        policy.retryableStatusCodes = [404]
        #expect(delay(policy, attempt: 1, error: .invalidDownloadStatusCode(404)) != nil)
        #expect(delay(policy, attempt: 1, error: .invalidDownloadStatusCode(503), retryAfter: "1") == nil)
    }
}
