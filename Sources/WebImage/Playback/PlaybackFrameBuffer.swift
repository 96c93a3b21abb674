/// The decoded frames an ``AnimatedImagePlayer`` keeps: at most `capacity` of them, chosen as the
/// frames playback needs next. Frames another task is decoding are marked in flight, so a frame is
/// never decoded twice at once.
struct PlaybackFrameBuffer {
    let capacity: Int
    let frameByteCount: Int
    private(set) var frames: [Int: ImageBitmap] = [:]
    private(set) var inFlight: Set<Int> = []
    /// Frames whose last decode failed: not decoded ahead again, only when due.
    private var failed: Set<Int> = []
    private var waiters: [Int: [CheckedContinuation<Void, Never>]] = [:]
    /// The most bytes the buffer held at once.
    private(set) var peakByteCount = 0

    init(capacity: Int, frameByteCount: Int) {
        self.capacity = max(1, capacity)
        self.frameByteCount = frameByteCount
    }

    var byteCount: Int { frames.values.reduce(0) { $0 + $1.byteCount } }

    /// Marks `index` as being decoded by the caller; false if it is buffered or already in flight.
    mutating func claim(_ index: Int) -> Bool {
        guard frames[index] == nil, !inFlight.contains(index) else { return false }
        inFlight.insert(index)
        return true
    }

    /// Waits for `index` to leave flight: returns false (and keeps `continuation` to resume
    /// later) if it is in flight, true if the caller may go on now.
    mutating func wait(for index: Int, _ continuation: CheckedContinuation<Void, Never>) -> Bool {
        guard inFlight.contains(index) else { return true }
        waiters[index, default: []].append(continuation)
        return false
    }

    /// Ends the flight of `index`, keeping `bitmap` if it is given and `window` (the frames
    /// playback needs next, soonest first) wants it. Frames outside the window make room.
    /// Returns the continuations to resume.
    mutating func land(_ index: Int, bitmap: ImageBitmap?, window: [Int]) -> [CheckedContinuation<Void, Never>] {
        inFlight.remove(index)
        if bitmap == nil { failed.insert(index) } else { failed.remove(index) }
        if let bitmap, window.contains(index) {
            let wanted = Set(window)
            for buffered in frames.keys where frames.count >= capacity && !wanted.contains(buffered) {
                frames[buffered] = nil
            }
            if frames.count < capacity {
                frames[index] = bitmap
                peakByteCount = max(peakByteCount, byteCount)
            }
        }
        return waiters.removeValue(forKey: index) ?? []
    }

    /// Drops every frame outside `window`.
    mutating func keepOnly(_ window: [Int]) {
        let wanted = Set(window)
        frames = frames.filter { wanted.contains($0.key) }
    }

    /// The first frame of `window` neither buffered nor in flight.
    func nextToDecode(in window: [Int]) -> Int? {
        window.first { frames[$0] == nil && !inFlight.contains($0) && !failed.contains($0) }
    }

    /// Drops every frame and returns every waiter.
    mutating func removeAll() -> [CheckedContinuation<Void, Never>] {
        frames = [:]
        failed = []
        let all = waiters.values.flatMap { $0 }
        waiters = [:]
        return all
    }
}
