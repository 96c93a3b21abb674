import WebImage

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

extension TerminalGraphics {
    /// Asks the terminal on `input` and `output` what it can show (``querySequence``), waiting at
    /// most `timeoutMilliseconds` for the answer (``parse(queryReply:)``).
    ///
    /// Returns nil without writing anything unless both descriptors are terminals, and nil when
    /// no device attributes reply arrives in time (a terminal that ignores the request, or a slow
    /// link). While it waits, the input terminal is switched out of canonical mode and echo, so
    /// the reply is neither shown nor held back for a line end; its settings are put back before
    /// it returns.
    public static func query(input: Int32 = 0, output: Int32 = 1, timeoutMilliseconds: Int = 100)
        -> TerminalGraphics?
    {
        guard isatty(input) == 1, isatty(output) == 1 else { return nil }
        var saved = termios()
        guard tcgetattr(input, &saved) == 0 else { return nil }
        var quiet = saved
        quiet.c_lflag &= ~tcflag_t(ICANON | ECHO)
        withUnsafeMutableBytes(of: &quiet.c_cc) { cc in
            cc[Int(VMIN)] = 0
            cc[Int(VTIME)] = 0
        }
        guard tcsetattr(input, TCSANOW, &quiet) == 0 else { return nil }
        defer { _ = tcsetattr(input, TCSANOW, &saved) }

        let query = querySequence
        guard TerminalOutput.write(query, to: output) else { return nil }
        var reply = [UInt8]()
        let deadline = monotonicMilliseconds() + timeoutMilliseconds
        var buffer = [UInt8](repeating: 0, count: 256)
        while reply.count < 4096 {
            let remaining = deadline - monotonicMilliseconds()
            guard remaining > 0 else { return nil }
            var descriptor = pollfd(fd: input, events: Int16(POLLIN), revents: 0)
            let ready = poll(&descriptor, 1, Int32(remaining))
            if ready < 0 && errno == EINTR { continue }
            guard ready > 0 else { return nil }
            let count = buffer.withUnsafeMutableBytes { read(input, $0.baseAddress, $0.count) }
            if count < 0 && (errno == EINTR || errno == EAGAIN) { continue }
            guard count > 0 else { return nil }
            reply += buffer[0..<count]
            if let answer = parse(queryReply: reply) { return answer }
        }
        return nil
    }

    private static func monotonicMilliseconds() -> Int {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return Int(now.tv_sec) * 1000 + Int(now.tv_nsec) / 1_000_000
    }
}
