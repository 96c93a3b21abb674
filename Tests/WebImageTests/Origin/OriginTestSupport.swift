import Foundation
import WebImageTestOrigin

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif
#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// URLSession without caches or cookie handling, so every request reaches the origin as written.
enum OriginClient {
    static func makeSession(timeout: TimeInterval = 10) -> URLSession {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.urlCache = nil
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        configuration.httpShouldSetCookies = false
        configuration.httpCookieAcceptPolicy = .never
        configuration.timeoutIntervalForRequest = timeout
        return URLSession(configuration: configuration)
    }

    static func get(
        _ url: URL, headers: [String: String] = [:], timeout: TimeInterval = 10
    ) async throws -> (Data, HTTPURLResponse) {
        var request = URLRequest(url: url)
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        let session = makeSession(timeout: timeout)
        defer { session.finishTasksAndInvalidate() }
        let (data, response) = try await session.data(for: request)
        guard let http = response as? HTTPURLResponse else { throw URLError(.badServerResponse) }
        return (data, http)
    }
}

/// What a raw socket read: everything up to EOF, or up to an error (`errno`, e.g. ECONNRESET, or
/// EAGAIN when the receive timeout expired).
struct RawResponse {
    var bytes: [UInt8]
    var error: Int32?

    private var headEnd: Int? {
        guard bytes.count >= 4 else { return nil }
        return (0...(bytes.count - 4)).first { bytes[$0..<$0 + 4].elementsEqual([13, 10, 13, 10]) }
    }

    var head: String { String(decoding: bytes[..<(headEnd ?? bytes.count)], as: UTF8.self) }

    var statusCode: Int? {
        head.split(separator: "\r\n").first?.split(separator: " ").dropFirst().first.flatMap { Int($0) }
    }

    var body: [UInt8] { headEnd.map { Array(bytes[($0 + 4)...]) } ?? [] }

    func header(_ name: String) -> String? { headers(name).first }

    /// Every value of the fields named `name`, in the order they were sent.
    func headers(_ name: String) -> [String] {
        head.split(separator: "\r\n").dropFirst().compactMap { line in
            let parts = line.split(separator: ":", maxSplits: 1)
            guard parts.count == 2, parts[0].lowercased() == name.lowercased() else { return nil }
            return parts[1].trimmingCharacters(in: .whitespaces)
        }
    }

    /// The body of a chunked response with its framing removed; `nil` if the framing is broken or
    /// the final zero-size chunk is missing.
    var dechunkedBody: [UInt8]? {
        var rest = body[...]
        var result: [UInt8] = []
        while true {
            guard let lineEnd = rest.indices.dropLast().first(where: { rest[$0] == 13 && rest[$0 + 1] == 10 }),
                let size = Int(String(decoding: rest[..<lineEnd], as: UTF8.self), radix: 16)
            else { return nil }
            rest = rest[(lineEnd + 2)...]
            if size == 0 { return result }
            guard rest.count >= size + 2 else { return nil }
            result += rest.prefix(size)
            rest = rest.dropFirst(size + 2)
        }
    }
}

/// A blocking-socket HTTP client for faults URLSession hides (resets, short bodies, framing). It
/// runs on its own thread so it never blocks the test's executor.
enum RawHTTP {
    /// Sends `GET target` with `Connection: close` and reads until EOF, error or `timeout`.
    static func get(
        port: Int, _ target: String, headers: [String] = [], timeout: TimeInterval = 10
    ) async -> RawResponse {
        let lines = ["GET \(target) HTTP/1.1", "Host: 127.0.0.1:\(port)"] + headers + ["Connection: close"]
        return await exchange(port: port, request: lines.joined(separator: "\r\n") + "\r\n\r\n", timeout: timeout)
    }

    /// Writes `request` as is and reads the reply until EOF, error or `timeout`.
    static func exchange(port: Int, request: String, timeout: TimeInterval = 10) async -> RawResponse {
        await onOwnThread {
            let socket = connectSocket(port: port, timeout: timeout)
            guard socket.fd >= 0 else { return RawResponse(bytes: [], error: socket.error) }
            defer { close(socket.fd) }
            let bytes = Array(request.utf8)
            var sent = 0
            while sent < bytes.count {
                let count = bytes[sent...].withUnsafeBytes { send(socket.fd, $0.baseAddress, $0.count, 0) }
                guard count > 0 else { return RawResponse(bytes: [], error: errno) }
                sent += count
            }
            var received: [UInt8] = []
            var buffer = [UInt8](repeating: 0, count: 64 << 10)
            while true {
                let count = buffer.withUnsafeMutableBytes { recv(socket.fd, $0.baseAddress, $0.count, 0) }
                if count == 0 { return RawResponse(bytes: received, error: nil) }
                if count < 0 { return RawResponse(bytes: received, error: errno) }
                received += buffer[..<count]
            }
        }
    }

    /// `0` if something accepts TCP connections on 127.0.0.1:`port`, else the connect `errno`.
    static func connectError(port: Int) async -> Int32 {
        await onOwnThread {
            let socket = connectSocket(port: port, timeout: 5)
            if socket.fd >= 0 { close(socket.fd) }
            return socket.fd >= 0 ? 0 : socket.error
        }
    }

    /// Opens a connection and sends `request`, without reading; the caller closes it.
    static func open(port: Int, request: String) -> Int32 {
        let socket = connectSocket(port: port, timeout: 10)
        guard socket.fd >= 0 else { return -1 }
        let bytes = Array(request.utf8)
        _ = bytes.withUnsafeBytes { send(socket.fd, $0.baseAddress, $0.count, 0) }
        return socket.fd
    }

    private static func connectSocket(port: Int, timeout: TimeInterval) -> (fd: Int32, error: Int32) {
        #if canImport(Glibc)
            let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
            let fd = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard fd >= 0 else { return (-1, errno) }
        var interval = timeval(
            tv_sec: .init(timeout.rounded(.down)), tv_usec: .init((timeout - timeout.rounded(.down)) * 1e6))
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &interval, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard result == 0 else {
            let error = errno
            close(fd)
            return (-1, error)
        }
        return (fd, 0)
    }
}

/// Milliseconds elapsed while running `body`.
func elapsedMilliseconds<T>(_ body: () async throws -> T) async rethrows -> (T, Double) {
    let clock = ContinuousClock()
    let start = clock.now
    let result = try await body()
    let elapsed = start.duration(to: clock.now)
    return (result, Double(elapsed.components.seconds) * 1000 + Double(elapsed.components.attoseconds) / 1e15)
}
