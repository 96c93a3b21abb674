import Foundation

/// The bisection behind every lossy encoder's ``ImageEncodeOptions/maxFileSize`` and the
/// service's autoquality: over settings `0..<steps` ordered so that once one fits every later one
/// fits too, the first that fits, in about log₂(steps) probes, within an optional budget.
package enum QualitySearch {
    /// What one probe's result says.
    package enum Verdict: Sendable {
        /// Not good enough: the answer is further along.
        case misses
        /// Good enough: the answer is this step or an earlier one.
        case fits
        /// Good enough and close enough to the goal: the search ends here.
        case fitsClosely
    }

    /// When the search stops before the bisection ends: after `probes` probes, or at `deadline`.
    package struct Budget: Sendable {
        package var probes: Int
        package var deadline: ContinuousClock.Instant?

        package init(probes: Int, deadline: ContinuousClock.Instant?) {
            self.probes = probes
            self.deadline = deadline
        }

        /// No limit but the bisection's own.
        package static let unbounded = Budget(probes: .max, deadline: nil)
    }

    /// Where a search ended.
    package struct Outcome<Value> {
        /// The earliest step found to fit, and its value; nil when no probe fit.
        package var fitting: (step: Int, value: Value)?
        /// How many probes ran.
        package var probes = 0
        /// Whether the budget ended the search before the bisection did.
        package var stoppedEarly = false
    }

    /// Bisects `0..<steps` with `probe`, which makes a step's value and judges it.
    package static func firstFitting<Value>(
        steps: Int, budget: Budget = .unbounded, probe: (Int) throws(WebImageError) -> (Value, Verdict)
    ) throws(WebImageError) -> Outcome<Value> {
        var outcome = Outcome<Value>()
        let clock = ContinuousClock()
        var low = 0
        var high = steps - 1
        while low <= high {
            // The first probe always runs: a search that makes nothing has nothing to settle for.
            if outcome.probes > 0, outcome.probes >= budget.probes || budget.deadline.map({ clock.now >= $0 }) == true {
                outcome.stoppedEarly = true
                break
            }
            let step = low + (high - low) / 2
            let (value, verdict) = try probe(step)
            outcome.probes += 1
            switch verdict {
            case .misses:
                low = step + 1
            case .fits:
                outcome.fitting = (step, value)
                high = step - 1
            case .fitsClosely:
                outcome.fitting = (step, value)
                return outcome
            }
        }
        return outcome
    }
}

/// The one search every lossy encoder's ``ImageEncodeOptions/maxFileSize`` uses (SDWebImage's
/// `encodeMaxFileSize`): over an encoder's settings ordered from best quality to worst, whose
/// files shrink (or stay) along the way, the best-quality file within the limit. About
/// log₂(count) encodes; the smallest file seen when none fits.
enum FileSizeSearch {
    /// `encode(step)` writes the file for setting `step` of `0..<steps`, 0 being the best quality.
    /// `smallest` is a file already made (usually at the quality asked for), returned if no step
    /// fits and it is smaller than every step tried.
    static func bestWithin(
        _ limit: Int, steps: Int, smallest: Data, encode: (Int) throws(WebImageError) -> Data
    ) throws(WebImageError) -> Data {
        var smallest = smallest
        let outcome = try QualitySearch.firstFitting(steps: steps) { step throws(WebImageError) in
            let data = try encode(step)
            if data.count < smallest.count { smallest = data }
            return (data, data.count <= limit ? QualitySearch.Verdict.fits : .misses)
        }
        return outcome.fitting?.value ?? smallest
    }
}
