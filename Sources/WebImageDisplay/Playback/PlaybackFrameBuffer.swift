import WebImage

/// The decoded frames an ``AnimatedImagePlayer`` keeps: at most `capacity` of them, chosen as the
/// frames playback needs next. Decodes under way are the player's ``InFlightTable``'s, so a frame
/// is never decoded twice at once; this buffer keeps what they produce.
struct PlaybackFrameBuffer {
    let capacity: Int
    let frameByteCount: Int
    private(set) var frames: [Int: ImageBitmap] = [:]
    /// Frames whose last decode failed: not decoded ahead again, only when due.
    private var failed: Set<Int> = []
    /// The most bytes the buffer held at once.
    private(set) var peakByteCount = 0

    init(capacity: Int, frameByteCount: Int) {
        self.capacity = max(1, capacity)
        self.frameByteCount = frameByteCount
    }

    var byteCount: Int { frames.values.reduce(0) { $0 + $1.byteCount } }

    /// Records the decode of `index`, keeping `bitmap` if it is given and `window` (the frames
    /// playback needs next, soonest first) wants it. Frames outside the window make room.
    mutating func land(_ index: Int, bitmap: ImageBitmap?, window: [Int]) {
        if bitmap == nil { failed.insert(index) } else { failed.remove(index) }
        guard let bitmap, window.contains(index) else { return }
        let wanted = Set(window)
        for buffered in frames.keys where frames.count >= capacity && !wanted.contains(buffered) {
            frames[buffered] = nil
        }
        if frames.count < capacity {
            frames[index] = bitmap
            peakByteCount = max(peakByteCount, byteCount)
        }
    }

    /// Drops every frame outside `window`.
    mutating func keepOnly(_ window: [Int]) {
        let wanted = Set(window)
        frames = frames.filter { wanted.contains($0.key) }
    }

    /// The first frame of `window` neither buffered, being decoded nor failed.
    func nextToDecode(in window: [Int], isDecoding: (Int) -> Bool) -> Int? {
        window.first { frames[$0] == nil && !failed.contains($0) && !isDecoding($0) }
    }

    /// Drops every frame.
    mutating func removeAll() {
        frames = [:]
        failed = []
    }
}
