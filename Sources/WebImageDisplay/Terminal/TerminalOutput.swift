import WebImage

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// Writes escape sequences to a terminal descriptor whole, retrying short writes and interrupts.
public enum TerminalOutput {
    /// Writes every byte of `bytes` to `descriptor`; false when the descriptor fails (closed
    /// pipe, hung-up terminal).
    @discardableResult
    public static func write(_ bytes: [UInt8], to descriptor: Int32 = 1) -> Bool {
        bytes.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                #if canImport(Glibc)
                    let written = Glibc.write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
                #else
                    let written = Musl.write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
                #endif
                if written < 0 {
                    if errno == EINTR { continue }
                    if errno == EAGAIN {
                        // A non-blocking descriptor that is full: wait until it drains.
                        var ready = pollfd(fd: descriptor, events: Int16(POLLOUT), revents: 0)
                        _ = poll(&ready, 1, 100)
                        continue
                    }
                    return false
                }
                offset += written
            }
            return true
        }
    }
}
