import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import NIOSSL

extension HTTPTransfer {
    /// Sends the request, following redirects and one basic-auth challenge, and receives the body.
    func exchange(_ request: ImageDownloadRequest, activity: IdleActivity) async throws -> (Data, ImageDownloadResponse)
    {
        var url = request.url
        var method = request.method.uppercased()
        var body = request.body
        var headers = request.headers
        var redirects = 0
        var sendsCredentials = false
        var knownTarget = request.knownAbsoluteString
        while true {
            let target = knownTarget ?? url.absoluteString
            guard Self.isFetchable(url, absoluteString: target) else { throw WebImageError.invalidURL(target) }
            let (outgoing, validatorsSent) = makeClientRequest(
                url: url, target: target, method: method, headers: headers, body: body,
                sendsCredentials: sendsCredentials)
            record.withLock { $0.metrics.requestCount += 1 }
            environment.statistics.countRequest()
            let response = try await environment.client.execute(outgoing, deadline: .distantFuture)
            activity.touch()
            if options.contains(.handleCookies) {
                let lines = response.headers["Set-Cookie"]
                if !lines.isEmpty { environment.cookieStore.store(setCookieHeaders: lines, for: url) }
            }
            let status = Int(response.status.code)
            if [301, 302, 303, 307, 308].contains(status), let location = response.headers.first(name: "Location") {
                redirects += 1
                guard redirects <= config.effectiveMaxRedirects else {
                    throw WebImageError.transferFailed(
                        TransferFailure(
                            .tooManyRedirects,
                            "\(request.url.absoluteString): more than \(config.effectiveMaxRedirects) redirects"))
                }
                guard let next = URL(string: location, relativeTo: url)?.absoluteURL else {
                    throw WebImageError.transferFailed(
                        TransferFailure(.badServerResponse, "\(url.absoluteString): bad Location '\(location)'"))
                }
                await Self.discard(response.body)
                if status == 303 || ((status == 301 || status == 302) && method != "GET" && method != "HEAD") {
                    method = "GET"
                    body = nil
                }
                if !Self.isSameOrigin(url, next) {
                    // Credentials meant for one origin never travel to another.
                    headers["Authorization"] = nil
                    headers["Cookie"] = nil
                }
                url = next
                knownTarget = nil
                sendsCredentials = false
                record.withLock { $0.metrics.redirectCount = redirects }
                continue
            }
            if status == 401, !sendsCredentials, config.username != nil, config.password != nil,
                response.headers["WWW-Authenticate"].contains(where: Self.isBasicChallenge)
            {
                await Self.discard(response.body)
                sendsCredentials = true
                continue
            }
            return try await receive(response, from: url, validatorsSent: validatorsSent, activity: activity)
        }
    }

    private func makeClientRequest(
        url: URL, target: String, method: String, headers: ImageDownloadHeaders, body: Data?, sendsCredentials: Bool
    ) -> (HTTPClientRequest, validatorsSent: Bool) {
        var outgoing = HTTPClientRequest(url: target)
        outgoing.method = HTTPMethod(rawValue: method)
        for (name, value) in headers.fields { outgoing.headers.add(name: name, value: value) }
        // As URLSession does; `receive` inflates what comes back (a caller's own value wins).
        if !outgoing.headers.contains(name: "Accept-Encoding") {
            outgoing.headers.add(name: "Accept-Encoding", value: "gzip, deflate")
        }
        if options.contains(.handleCookies), let cookies = environment.cookieStore.cookieHeader(for: url) {
            let own = outgoing.headers.first(name: "Cookie")
            outgoing.headers.replaceOrAdd(name: "Cookie", value: own.map { "\($0); \(cookies)" } ?? cookies)
        }
        var validatorsSent = false
        if options.contains(.ignoreCachedResponse) {
            for (name, value) in ImageDownloadConditionalRequest.headers(for: context?.loaderCachedMetadata) {
                outgoing.headers.replaceOrAdd(name: name, value: value)
                validatorsSent = true
            }
        }
        if sendsCredentials, let username = config.username, let password = config.password {
            let credentials = Data("\(username):\(password)".utf8).base64EncodedString()
            outgoing.headers.replaceOrAdd(name: "Authorization", value: "Basic \(credentials)")
        }
        if let body { outgoing.body = .bytes(ByteBuffer(bytes: body)) }
        if options.contains(.allowInvalidSSLCertificates) { outgoing.tlsConfiguration = Self.insecureTLS }
        return (outgoing, validatorsSent)
    }

    /// Certificates are not verified (``ImageDownloaderOptions/allowInvalidSSLCertificates``);
    /// the pool keys connections by TLS configuration, so these never serve other requests.
    private static let insecureTLS: TLSConfiguration = {
        var tls = TLSConfiguration.makeClientConfiguration()
        tls.certificateVerification = .none
        return tls
    }()

    /// Whether `url` (whose `absoluteString` is given) is http or https with a host: the only
    /// URLs sent (AsyncHTTPClient would also reach Unix sockets). A plain
    /// `http[s]://host[:port]` start is recognised on the string; anything else is asked of
    /// Foundation's parser, whose scheme and host getters cost more than the rest of this check.
    static func isFetchable(_ url: URL, absoluteString: String) -> Bool {
        if hasPlainHTTPStart(absoluteString) { return true }
        guard let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https" else { return false }
        return url.host?.isEmpty == false
    }

    /// `http://` or `https://` (any case), then a non-empty host of letters, digits, `-` and
    /// `.`, an optional `:` and digits, and the end or `/`, `?` or `#`. False means "not
    /// recognised", not "invalid".
    private static func hasPlainHTTPStart(_ string: String) -> Bool {
        var bytes = string.utf8.makeIterator()
        for expected in "http".utf8 {
            // `| 0x20` lowercases an ASCII letter; no other byte lands on a lowercase letter.
            guard let byte = bytes.next(), byte | 0x20 == expected else { return false }
        }
        var next = bytes.next()
        if let byte = next, byte | 0x20 == UInt8(ascii: "s") { next = bytes.next() }
        guard next == UInt8(ascii: ":"), bytes.next() == UInt8(ascii: "/"), bytes.next() == UInt8(ascii: "/") else {
            return false
        }
        var hostLength = 0
        var inPort = false
        while let byte = bytes.next() {
            switch byte {
            case UInt8(ascii: "/"), UInt8(ascii: "?"), UInt8(ascii: "#"):
                return hostLength > 0
            case UInt8(ascii: ":") where !inPort:
                inPort = true
            case UInt8(ascii: "0")...UInt8(ascii: "9"):
                if !inPort { hostLength += 1 }
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "-"),
                UInt8(ascii: "."):
                guard !inPort else { return false }
                hostLength += 1
            default:
                return false
            }
        }
        return hostLength > 0
    }

    private static func isBasicChallenge(_ value: String) -> Bool {
        value.trimmingCharacters(in: .whitespaces).lowercased().hasPrefix("basic")
    }

    private static func isSameOrigin(_ a: URL, _ b: URL) -> Bool {
        a.scheme?.lowercased() == b.scheme?.lowercased() && a.host?.lowercased() == b.host?.lowercased()
            && a.port == b.port
    }

    /// Reads and drops a small body (a redirect's or a challenge's) so the connection can be
    /// reused; a large one is abandoned, which closes the connection.
    static func discard(_ body: HTTPClientResponse.Body) async {
        var remaining = 64 * 1024
        do {
            for try await chunk in body {
                remaining -= chunk.readableBytes
                if remaining < 0 { return }
            }
        } catch {}
    }
}
