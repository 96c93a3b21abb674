#if canImport(Glibc)
    import Glibc
#endif

/// Asks the kernel to back a large, not-yet-touched pixel buffer with transparent huge pages.
///
/// A 12 MP RGBA decode writes 48 MB into memory fresh from the kernel; with 4 KiB pages that is
/// about 12,000 page faults, a large share of the decode (see Benchmarks/README.md). Linux's
/// default transparent-huge-page mode (`madvise`) only uses 2 MiB pages where asked, so this asks
/// for the page-aligned interior of buffers of 4 MiB and more. A no-op elsewhere or on failure.
enum HugePageAdvice {
    static let minimumByteCount = 4 << 20

    static func advise(_ buffer: UnsafeMutableBufferPointer<UInt8>) {
        #if os(Linux)
            guard buffer.count >= minimumByteCount, let base = buffer.baseAddress else { return }
            let pageSize = UInt(sysconf(Int32(_SC_PAGESIZE)))
            let address = UInt(bitPattern: base)
            let start = (address + pageSize - 1) & ~(pageSize - 1)
            let end = (address + UInt(buffer.count)) & ~(pageSize - 1)
            guard end > start, let pointer = UnsafeMutableRawPointer(bitPattern: start) else { return }
            _ = madvise(pointer, Int(end - start), MADV_HUGEPAGE)
        #endif
    }
}
