// Shadows the standard library's trapping floating-point-to-integer initialisers inside this
// package (these are `package`, so users of the library see the standard ones). A raw
// `Int(someDouble)` in any of the package's modules resolves here and is a deprecation warning,
// which the zero-warning build refuses; if one slipped through, it would saturate instead of
// trapping. Write `Int(clamping:rounding:)` or `Int(checking:rounding:_:)` instead
// (Support/Primitives.swift). `FloatingPointConversionTests` checks that every integer type
// is listed here and scans `Sources` for the conversions the compiler cannot see.

extension Int {
    @available(*, deprecated, message: "traps on NaN and out-of-range values: use init(clamping:) or init(checking:_:)")
    package init(_ value: Double) { self.init(clamping: value) }
    @available(*, deprecated, message: "traps on NaN and out-of-range values: use init(clamping:) or init(checking:_:)")
    package init(_ value: Float) { self.init(clamping: value) }
}

extension Int8 {
    @available(*, deprecated, message: "traps on NaN and out-of-range values: use init(clamping:) or init(checking:_:)")
    package init(_ value: Double) { self.init(clamping: value) }
    @available(*, deprecated, message: "traps on NaN and out-of-range values: use init(clamping:) or init(checking:_:)")
    package init(_ value: Float) { self.init(clamping: value) }
}

extension Int16 {
    @available(*, deprecated, message: "traps on NaN and out-of-range values: use init(clamping:) or init(checking:_:)")
    package init(_ value: Double) { self.init(clamping: value) }
    @available(*, deprecated, message: "traps on NaN and out-of-range values: use init(clamping:) or init(checking:_:)")
    package init(_ value: Float) { self.init(clamping: value) }
}

extension Int32 {
    @available(*, deprecated, message: "traps on NaN and out-of-range values: use init(clamping:) or init(checking:_:)")
    package init(_ value: Double) { self.init(clamping: value) }
    @available(*, deprecated, message: "traps on NaN and out-of-range values: use init(clamping:) or init(checking:_:)")
    package init(_ value: Float) { self.init(clamping: value) }
}

extension Int64 {
    @available(*, deprecated, message: "traps on NaN and out-of-range values: use init(clamping:) or init(checking:_:)")
    package init(_ value: Double) { self.init(clamping: value) }
    @available(*, deprecated, message: "traps on NaN and out-of-range values: use init(clamping:) or init(checking:_:)")
    package init(_ value: Float) { self.init(clamping: value) }
}

extension UInt {
    @available(*, deprecated, message: "traps on NaN and out-of-range values: use init(clamping:) or init(checking:_:)")
    package init(_ value: Double) { self.init(clamping: value) }
    @available(*, deprecated, message: "traps on NaN and out-of-range values: use init(clamping:) or init(checking:_:)")
    package init(_ value: Float) { self.init(clamping: value) }
}

extension UInt8 {
    @available(*, deprecated, message: "traps on NaN and out-of-range values: use init(clamping:) or init(checking:_:)")
    package init(_ value: Double) { self.init(clamping: value) }
    @available(*, deprecated, message: "traps on NaN and out-of-range values: use init(clamping:) or init(checking:_:)")
    package init(_ value: Float) { self.init(clamping: value) }
}

extension UInt16 {
    @available(*, deprecated, message: "traps on NaN and out-of-range values: use init(clamping:) or init(checking:_:)")
    package init(_ value: Double) { self.init(clamping: value) }
    @available(*, deprecated, message: "traps on NaN and out-of-range values: use init(clamping:) or init(checking:_:)")
    package init(_ value: Float) { self.init(clamping: value) }
}

extension UInt32 {
    @available(*, deprecated, message: "traps on NaN and out-of-range values: use init(clamping:) or init(checking:_:)")
    package init(_ value: Double) { self.init(clamping: value) }
    @available(*, deprecated, message: "traps on NaN and out-of-range values: use init(clamping:) or init(checking:_:)")
    package init(_ value: Float) { self.init(clamping: value) }
}

extension UInt64 {
    @available(*, deprecated, message: "traps on NaN and out-of-range values: use init(clamping:) or init(checking:_:)")
    package init(_ value: Double) { self.init(clamping: value) }
    @available(*, deprecated, message: "traps on NaN and out-of-range values: use init(clamping:) or init(checking:_:)")
    package init(_ value: Float) { self.init(clamping: value) }
}

extension Duration {
    @available(*, deprecated, message: "traps on NaN and huge values: use Duration(clampingSeconds:)")
    package static func seconds(_ value: Double) -> Duration { Duration(clampingSeconds: value) }
    @available(*, deprecated, message: "traps on NaN and huge values: use Duration(clampingSeconds:)")
    package static func milliseconds(_ value: Double) -> Duration { Duration(clampingSeconds: value / 1e3) }
    @available(*, deprecated, message: "traps on NaN and huge values: use Duration(clampingSeconds:)")
    package static func microseconds(_ value: Double) -> Duration { Duration(clampingSeconds: value / 1e6) }
    @available(*, deprecated, message: "traps on NaN and huge values: use Duration(clampingSeconds:)")
    package static func * (lhs: Duration, rhs: Double) -> Duration {
        Duration(
            clampingSeconds: Double(lhs.components.seconds) * rhs + Double(lhs.components.attoseconds) * 1e-18 * rhs)
    }
}
