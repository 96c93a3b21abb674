import Foundation

/// A codec library's decoder that hands out the frames of one animation, in any order (AVIF's
/// libavif and JPEG XL's libjxl sessions). Not thread-safe: a provider locks it.
protocol AnimationDecoderSession: AnyObject {
    var frameCount: Int { get }
    /// 0 means forever.
    var loopCount: Int { get }
    var durations: [Double] { get }
    /// Bytes of decoded pixels the library keeps between calls.
    var heldByteCount: Int { get }
    func frame(at index: Int) throws(WebImageError) -> ImageBitmap
}

/// Decodes an animation's frames on demand through a decoder session that sits behind a lock.
final class DecoderSessionAnimationProvider<Session: AnimationDecoderSession>: AnimatedImageProvider {
    let animatedImageData: Data
    let frameCount: Int
    let loopCount: Int
    private let durations: [Double]
    private let session: Locked<Session>

    init(data: Data, session: sending Session) {
        animatedImageData = data
        frameCount = session.frameCount
        loopCount = session.loopCount
        durations = session.durations
        self.session = Locked(session)
    }

    func duration(at index: Int) -> Double {
        durations.indices.contains(index) ? durations[index] : 0
    }

    func frame(at index: Int) throws(WebImageError) -> ImageBitmap {
        try session.withLock { session throws(WebImageError) in try session.frame(at: index) }
    }

    var heldByteCount: Int { session.withLock { $0.heldByteCount } }
}
