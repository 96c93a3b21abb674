import Foundation
import NIOCore
import NIOHTTP1
import WebImage

/// Decides what a request gets, in a fixed order: `fail`, redirects, `auth`, `requireCookie`
/// (each may answer before the resource is looked up), then the resource with conditional
/// requests, `status`, `type`, compression and the added headers.
struct ResponsePlanner {
    let core: OriginCore
    let request: OriginRequest
    let faults: FaultOptions
    let port: Int

    /// A response that answers before the resource is looked up, or `nil` to go on and serve it.
    func preflight() -> OriginResponse? {
        if let times = faults.fail, core.shouldFail(uri: request.head.uri, times: times) {
            let status = HTTPResponseStatus(statusCode: faults.failStatus)
            let retry = faults.retryAfter.map { [("Retry-After", $0)] } ?? []
            return decorated(.text(status, "injected failure", headers: retry))
        }
        if faults.redirectLoop { return redirect(to: request.head.uri) }
        if let target = faults.redirectTo { return redirect(to: target) }
        if let hops = faults.redirect, hops > 0 {
            return redirect(to: request.target(replacing: "redirect", with: String(hops - 1)))
        }
        if let credentials = faults.auth, !isAuthorized(credentials) {
            let challenge = [("WWW-Authenticate", "Basic realm=\"origin\"")]
            return decorated(.text(.unauthorized, "credentials required", headers: challenge))
        }
        if let cookie = faults.requireCookie, !hasCookie(cookie) {
            return decorated(.text(.forbidden, "cookie \(cookie.name) required"))
        }
        return nil
    }

    /// The response for `resource` (404 when `nil`) with every response-shaping parameter applied.
    func response(for resource: Resource?) throws -> OriginResponse {
        var response =
            resource.map { OriginResponse.serving($0) }
            ?? .text(.notFound, "not found: \(request.path)")
        if resource != nil, isNotModified() {
            response.status = .notModified
            response.removeBody()
        } else if let status = faults.status {
            response.status = HTTPResponseStatus(statusCode: status)
            if status == 204 || status == 304 { response.removeBody() }
        }
        if let type = faults.type {
            response.headers.remove(name: "Content-Type")
            if !type.isEmpty, response.body != nil { response.headers.add(name: "Content-Type", value: type) }
        }
        if let etag = faults.etag { response.headers.add(name: "ETag", value: "\"\(etag)\"") }
        if faults.lastModified { response.headers.add(name: "Last-Modified", value: HTTPDate.lastModified) }
        if let body = response.body, body.readableBytes > 0,
            let encoding = BodyCompression.negotiate(
                gzip: faults.gzip, deflate: faults.deflate,
                acceptEncoding: request.head.headers["Accept-Encoding"])
        {
            let compressed = try BodyCompression.compress(body, as: encoding)
            response.body = compressed
            response.headers.replaceOrAdd(name: "Content-Length", value: String(compressed.readableBytes))
            response.headers.add(name: "Content-Encoding", value: encoding.rawValue)
        }
        if faults.gzip || faults.deflate { response.headers.add(name: "Vary", value: "Accept-Encoding") }
        return decorated(response)
    }

    /// Adds the headers every response carries: `cacheControl`, `setCookie`, `header=`.
    func decorated(_ response: OriginResponse) -> OriginResponse {
        var response = response
        if let value = faults.cacheControl { response.headers.replaceOrAdd(name: "Cache-Control", value: value) }
        if let value = faults.setCookie { response.headers.add(name: "Set-Cookie", value: value) }
        for (name, value) in faults.headers { response.headers.add(name: name, value: value) }
        return response
    }

    private func redirect(to target: String) -> OriginResponse {
        let location = "http://127.0.0.1:\(port)\(target)"
        return decorated(.text(.found, "redirect to \(target)", headers: [("Location", location)]))
    }

    /// RFC 9110 §13.1: If-None-Match decides when present with an ETag; otherwise If-Modified-Since.
    private func isNotModified() -> Bool {
        let headers = request.head.headers
        if let etag = faults.etag, headers.contains(name: "If-None-Match") {
            let candidates = headers["If-None-Match"].flatMap { $0.split(separator: ",") }.map {
                $0.trimmingCharacters(in: .whitespaces)
            }
            return candidates.contains { $0 == "*" || $0 == "\"\(etag)\"" || $0 == "W/\"\(etag)\"" }
        }
        if faults.lastModified, let since = headers.first(name: "If-Modified-Since") {
            return HTTPDate.isAtOrAfterLastModified(since)
        }
        return false
    }

    private func isAuthorized(_ credentials: String) -> Bool {
        guard let field = request.head.headers.first(name: "Authorization") else { return false }
        let parts = field.split(separator: " ", maxSplits: 1)
        guard parts.count == 2, parts[0].lowercased() == "basic",
            let decoded = Data(base64Encoded: String(parts[1]).trimmingCharacters(in: .whitespaces))
        else { return false }
        return String(decoding: decoded, as: UTF8.self) == credentials
    }

    private func hasCookie(_ cookie: (name: String, value: String)) -> Bool {
        request.head.headers["Cookie"].flatMap { $0.split(separator: ";") }.contains { pair in
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            return parts.count == 2 && parts[0].trimmingCharacters(in: .whitespaces) == cookie.name
                && parts[1].trimmingCharacters(in: .whitespaces) == cookie.value
        }
    }
}
