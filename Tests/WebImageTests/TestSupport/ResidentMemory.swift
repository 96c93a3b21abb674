import Foundation

/// The resident set size of this process, from /proc (0 where there is no /proc).
func residentBytes() -> Int {
    guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
        let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") }),
        let kilobytes = Int(line.split(separator: " ").dropFirst().first ?? "")
    else { return 0 }
    return kilobytes * 1024
}

#if canImport(Glibc)
    import Glibc

    /// Bytes glibc's allocator has handed out and not taken back, over every arena and mapped
    /// chunk (`malloc_info`'s totals: the system's current bytes less the free ones, plus the
    /// mapped ones); 0 where there is no `malloc_info`. Unlike the resident size, memory freed
    /// earlier and reused does not hide growth.
    func heapBytesInUse() -> Int {
        typealias MallocInfo = @convention(c) (Int32, UnsafeMutablePointer<FILE>?) -> Int32
        guard let symbol = dlsym(nil, "malloc_info") else { return 0 }
        var buffer: UnsafeMutablePointer<CChar>?
        var size = 0
        guard let stream = open_memstream(&buffer, &size) else { return 0 }
        _ = unsafeBitCast(symbol, to: MallocInfo.self)(0, stream)
        fclose(stream)
        defer { free(buffer) }
        guard let buffer else { return 0 }
        let xml = String(cString: buffer)
        // The process-wide totals follow the last arena's section.
        let totals = xml.range(of: "</heap>", options: .backwards).map { xml[$0.upperBound...] } ?? xml[...]
        func attribute(_ element: String) -> Int {
            guard let start = totals.range(of: element),
                let sizeStart = totals[start.upperBound...].range(of: "size=\"")
            else { return 0 }
            let digits = totals[sizeStart.upperBound...].prefix { $0.isNumber }
            return Int(digits) ?? 0
        }
        return attribute("<system type=\"current\"") - attribute("<total type=\"fast\"")
            - attribute("<total type=\"rest\"") + attribute("<total type=\"mmap\"")
    }
#endif
