import Foundation
import WebImage

#if canImport(Glibc)
    import Glibc
#endif

/// Shows how far long work got on standard error: a redrawn bar on a terminal (count, bytes,
/// rate, ETA), a plain line every tenth of the way otherwise (so logs stay short).
final class ProgressDisplay: Sendable {
    private let total: Int
    private let label: String
    private let isTerminal = isatty(STDERR_FILENO) == 1
    private let start = ContinuousClock.now
    /// The last count shown, behind a lock: updates may come from any thread.
    private let shown = Locked(-1)

    init(total: Int, label: String) {
        self.total = max(total, 0)
        self.label = label
    }

    /// Shows `done` items finished; `bytes` (when known) is what has been downloaded so far.
    func update(_ done: Int, bytes: Int? = nil) {
        let done = min(max(done, 0), total)
        let step = max(total / 10, 1)
        let line: String? = shown.withLock { shown in
            guard done > shown else { return nil }
            let crossed = done == total || done / step > max(shown, 0) / step
            shown = done
            if isTerminal { return bar(done, bytes: bytes) }
            guard crossed else { return nil }
            return "\(label): \(done)/\(total)" + (bytes.map { " \(Self.byteText($0))" } ?? "") + "\n"
        }
        if let line { FileHandle.standardError.write(Data(line.utf8)) }
    }

    /// Ends the bar's line on a terminal.
    func finish() {
        if isTerminal { FileHandle.standardError.write(Data("\n".utf8)) }
    }

    private func bar(_ done: Int, bytes: Int?) -> String {
        let width = 30
        let filled = total == 0 ? width : done * width / total
        var text =
            "\r\(label) [" + String(repeating: "#", count: filled) + String(repeating: "-", count: width - filled)
            + "] \(done)/\(total)"
        let elapsed = Self.seconds(ContinuousClock.now - start)
        if let bytes {
            text += " \(Self.byteText(bytes))"
            if elapsed > 0.05 { text += " \(Self.byteText(Int(clamping: Double(bytes) / elapsed)))/s" }
        }
        if done > 0, done < total, elapsed > 0.05 {
            let remaining = elapsed / Double(done) * Double(total - done)
            text += " ETA \(Int(clamping: remaining, rounding: .up))s"
        }
        return text + "\u{1B}[K"
    }

    static func seconds(_ duration: Duration) -> Double {
        let parts = duration.components
        return Double(parts.seconds) + Double(parts.attoseconds) / 1e18
    }

    /// Bytes in B, KB, MB or GB (powers of 1024), one decimal above bytes.
    static func byteText(_ bytes: Int) -> String {
        let units = ["B", "KB", "MB", "GB"]
        var value = Double(max(bytes, 0))
        var unit = 0
        while value >= 1024, unit < units.count - 1 {
            value /= 1024
            unit += 1
        }
        return unit == 0 ? "\(Int(clamping: value)) B" : String(format: "%.1f", value) + " " + units[unit]
    }
}
