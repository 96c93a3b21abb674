import WebImage

/// What one fuzz body did with one input.
///
/// Hostile bytes are expected to fail, so a typed ``WebImageError`` is a normal outcome and is
/// only counted. A ``violations`` entry is a broken promise of the library (an untyped error, an
/// image past the pixel limit, a cache entry that does not survive a round trip): a finding.
public struct FuzzReport: Sendable {
    /// Steps that produced a value (an image, a frame, a header, a cache entry).
    public private(set) var successCount = 0
    /// Steps that ended in a ``WebImageError``.
    public private(set) var typedErrorCount = 0
    /// Broken promises, one line each. Must stay empty for every input.
    public private(set) var violations: [String] = []

    init() {}

    /// Runs one step of a body and records how it ended.
    mutating func step<T>(_ name: String, _ body: () throws -> T?) -> T? {
        do {
            let value = try body()
            if value != nil { successCount += 1 }
            return value
        } catch is WebImageError {
            typedErrorCount += 1
            return nil
        } catch {
            violations.append("\(name): untyped error \(type(of: error)): \(error)")
            return nil
        }
    }

    /// Counts a step that produced a value without going through ``step(_:_:)``.
    mutating func countSuccess() { successCount += 1 }

    /// Records a violation unless `condition` holds.
    mutating func expect(_ condition: Bool, _ message: @autoclosure () -> String) {
        if !condition { violations.append(message()) }
    }

    /// Adds the outcomes of another run of a body.
    mutating func merge(_ other: FuzzReport) {
        successCount += other.successCount
        typedErrorCount += other.typedErrorCount
        violations += other.violations
    }

    /// Crashes with every violation, which is how a fuzz target reports a finding to libFuzzer.
    public func trapOnViolations(target: String) {
        guard violations.isEmpty else {
            fatalError("fuzz-\(target): " + violations.joined(separator: "; "))
        }
    }
}
