import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// Shows how far long work got on standard error: a redrawn bar on a terminal, a plain line
/// every tenth of the way otherwise (so logs stay short).
final class ProgressDisplay: Sendable {
    private let total: Int
    private let label: String
    private let isTerminal = isatty(STDERR_FILENO) == 1
    /// The last count shown, behind a lock: updates may come from any thread.
    private let shown = Mutex(-1)

    init(total: Int, label: String) {
        self.total = max(total, 0)
        self.label = label
    }

    func update(_ done: Int) {
        let done = min(max(done, 0), total)
        let step = max(total / 10, 1)
        let line: String? = shown.withLock { shown in
            guard done > shown else { return nil }
            let crossed = done == total || done / step > max(shown, 0) / step
            shown = done
            if isTerminal { return bar(done) }
            return crossed ? "\(label): \(done)/\(total)\n" : nil
        }
        if let line { FileHandle.standardError.write(Data(line.utf8)) }
    }

    /// Ends the bar's line on a terminal.
    func finish() {
        if isTerminal { FileHandle.standardError.write(Data("\n".utf8)) }
    }

    private func bar(_ done: Int) -> String {
        let width = 30
        let filled = total == 0 ? width : done * width / total
        return "\r\(label) [" + String(repeating: "#", count: filled) + String(repeating: "-", count: width - filled)
            + "] \(done)/\(total)"
    }
}
