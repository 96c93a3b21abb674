import Foundation
import Testing

@testable import WebImage

@Suite("Retry policy and Retry-After")
struct RetryAfterTests {
    let now = Date(timeIntervalSince1970: 1_700_000_000)  // Tue, 14 Nov 2023 22:13:20 GMT
    let policy = ImageDownloadRetryPolicy.exponential(maxAttempts: 3)

    private func delay(
        _ policy: ImageDownloadRetryPolicy, status: Int, retryAfter: String?, attempt: Int = 1
    ) -> Double? {
        var random = SplitMix64(seed: 1)
        return policy.retryDelay(
            afterAttempt: attempt, error: .invalidDownloadStatusCode(status), retryAfter: retryAfter, now: now,
            random: &random)
    }

    @Test("Delta-seconds on 429 and 503 replace the backoff, without jitter", arguments: [429, 503])
    func deltaSeconds(status: Int) {
        #expect(delay(policy, status: status, retryAfter: "7") == 7)
        #expect(delay(policy, status: status, retryAfter: " 12 ") == 12)
        #expect(delay(policy, status: status, retryAfter: "0") == 0)
        #expect(delay(policy, status: status, retryAfter: "30") == 30)
    }

    @Test("An HTTP date counts from now; a past date means at once")
    func httpDate() {
        #expect(delay(policy, status: 503, retryAfter: "Tue, 14 Nov 2023 22:13:25 GMT") == 5)
        #expect(delay(policy, status: 429, retryAfter: "Tuesday, 14-Nov-23 22:13:40 GMT") == 20)
        #expect(delay(policy, status: 503, retryAfter: "Tue, 14 Nov 2023 22:00:00 GMT") == 0)
    }

    @Test("A Retry-After beyond maxDelay gives up instead of waiting")
    func overMaximum() {
        #expect(delay(policy, status: 503, retryAfter: "31") == nil)
        #expect(delay(policy, status: 429, retryAfter: "Tue, 14 Nov 2023 23:13:20 GMT") == nil)
        #expect(delay(policy, status: 503, retryAfter: String(repeating: "9", count: 500)) == nil)
    }

    @Test("An unparsable Retry-After falls back to the backoff")
    func unparsable() {
        for value in ["soon", "-5", "1.5", "", "5 s"] {
            let result = delay(policy, status: 503, retryAfter: value)
            #expect(result.map { (0...0.5).contains($0) } == true, "\(value)")
        }
    }

    @Test("Retry-After is ignored on other statuses and when not honoured")
    func ignored() {
        #expect(delay(policy, status: 500, retryAfter: "25").map { $0 <= 0.5 } == true)
        #expect(delay(policy, status: 500, retryAfter: "3600") != nil)
        var ignoring = policy
        ignoring.honorsRetryAfter = false
        #expect(delay(ignoring, status: 503, retryAfter: "25").map { $0 <= 0.5 } == true)
        #expect(delay(ignoring, status: 503, retryAfter: "3600") != nil)
    }

    @Test("Retry-After does not extend the attempt limit")
    func attemptLimit() {
        #expect(delay(policy, status: 503, retryAfter: "1", attempt: 3) == nil)
    }
}

@Suite("Retry policy validation")
struct RetryPolicyValidationTests {
    @Test("Out-of-range fields are reported by validate()")
    func invalidFields() {
        let base = ImageDownloadRetryPolicy.exponential(maxAttempts: 3)
        var cases: [ImageDownloadRetryPolicy] = []
        for mutate: (inout ImageDownloadRetryPolicy) -> Void in [
            { $0.maxAttempts = 0 }, { $0.baseDelay = -1 }, { $0.baseDelay = .nan }, { $0.multiplier = 0.5 },
            { $0.multiplier = .infinity }, { $0.maxDelay = .nan }, { $0.jitter = 1.5 }, { $0.jitter = -0.1 },
            { $0.jitter = .nan },
        ] {
            var policy = base
            mutate(&policy)
            cases.append(policy)
        }
        for policy in cases {
            #expect(throws: WebImageError.self) { try policy.validate() }
        }
    }

    @Test("An invalid policy never traps: delays stay finite and non-negative")
    func invalidNeverTraps() {
        let values: [Double] = [.nan, .infinity, -.infinity, -1, 0, 1e308]
        var random = SplitMix64(seed: 3)
        let error = WebImageError.transferFailed(TransferFailure(.connectionLost, ""))
        for value in values {
            let policy = ImageDownloadRetryPolicy(
                maxAttempts: Int.max, baseDelay: value, multiplier: value, maxDelay: value, jitter: value)
            for attempt in [1, 2, 64, 5000, Int.max - 1] {
                let result = policy.retryDelay(
                    afterAttempt: attempt, error: error, retryAfter: nil, now: Date(), random: &random)
                #expect(result.map { $0.isFinite && $0 >= 0 } == true, "\(value) \(attempt)")
            }
        }
    }
}
