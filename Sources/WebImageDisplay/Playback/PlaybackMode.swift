import WebImage

/// The order an ``AnimatedImagePlayer`` shows frames in (SDWebImage's
/// `SDAnimatedImagePlaybackMode`). One loop is one pass through that order.
public enum PlaybackMode: Sendable, Equatable, CaseIterable {
    /// First frame to last.
    case normal
    /// Last frame to first.
    case reverse
    /// First to last, then back towards the first: `0 … n-1 … 1`, so the next loop starts at 0
    /// without showing it twice.
    case bounce
    /// Last to first, then back towards the last: `n-1 … 0 … n-2`.
    case reversedBounce

    /// The frame indices of one loop over `frameCount` frames.
    func frameOrder(frameCount n: Int) -> [Int] {
        guard n > 1 else { return n == 1 ? [0] : [] }
        switch self {
        case .normal: return Array(0..<n)
        case .reverse: return Array((0..<n).reversed())
        case .bounce: return Array(0..<n) + Array((1..<(n - 1)).reversed())
        case .reversedBounce: return Array((0..<n).reversed()) + Array(1..<(n - 1))
        }
    }
}
