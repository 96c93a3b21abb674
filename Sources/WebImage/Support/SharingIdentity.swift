extension ObjectIdentifier {
    /// The identity of `value` when it is a class instance; nil for a value, whose identity
    /// cannot be compared. Work keyed by what it was handed shares only when this is non-nil.
    init?(instance value: Any) {
        guard type(of: value) is AnyClass else { return nil }
        self.init(value as AnyObject)
    }
}

/// A key part for work that must not be shared: each one is equal only to itself.
struct UnsharedID: Hashable, Sendable {
    private let number: UInt64
    private static let counter = Locked<UInt64>(0)

    /// A new identity, never handed out before.
    static func next() -> UnsharedID {
        UnsharedID(
            number: counter.withLock { count in
                count += 1
                return count
            })
    }
}
