import Foundation

/// The one bisection every lossy encoder's ``ImageEncodeOptions/maxFileSize`` uses
/// (SDWebImage's `encodeMaxFileSize`): over an encoder's settings ordered from best quality to
/// worst, whose files shrink (or stay) along the way, the best-quality file within the limit.
/// About log₂(count) encodes; the smallest file seen when none fits.
enum FileSizeSearch {
    /// `encode(step)` writes the file for setting `step` of `0..<steps`, 0 being the best quality.
    /// `smallest` is a file already made (usually at the quality asked for), returned if no step
    /// fits and it is smaller than every step tried.
    static func bestWithin(
        _ limit: Int, steps: Int, smallest: Data, encode: (Int) throws(WebImageError) -> Data
    ) throws(WebImageError) -> Data {
        var best: Data?
        var smallest = smallest
        var low = 0
        var high = steps - 1
        while low <= high {
            let step = (low + high) / 2
            let data = try encode(step)
            if data.count < smallest.count { smallest = data }
            if data.count <= limit {
                best = data
                high = step - 1
            } else {
                low = step + 1
            }
        }
        return best ?? smallest
    }
}
