import Foundation
import Synchronization

// INTEGRATION POINT (http-policies): stand-ins with the agreed names and shapes, so the
// downloader compiles before branch `http-policies` lands. Delete this whole file when merging
// it; the merge then fails to compile on any use that does not match the real types.

public struct ImageDownloadHeaders: Sendable, Equatable, ExpressibleByDictionaryLiteral {
    public private(set) var fields: [(name: String, value: String)] = []

    public init() {}
    public init(dictionaryLiteral elements: (String, String)...) {
        for (name, value) in elements { self[name] = value }
    }

    public subscript(name: String) -> String? {
        get { fields.first { $0.name.lowercased() == name.lowercased() }?.value }
        set {
            fields.removeAll { $0.name.lowercased() == name.lowercased() }
            if let newValue { fields.append((name, newValue)) }
        }
    }

    public mutating func add(name: String, value: String) throws(WebImageError) { fields.append((name, value)) }

    public func values(for name: String) -> [String] {
        fields.filter { $0.name.lowercased() == name.lowercased() }.map(\.value)
    }

    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.fields.elementsEqual(rhs.fields) { $0.name == $1.name && $0.value == $1.value }
    }

    public static let defaultImageHeaders: ImageDownloadHeaders = [
        "Accept": "image/*,*/*;q=0.8", "User-Agent": WebImageUserAgent.default,
    ]
}

public enum WebImageUserAgent {
    public static let version = "0.1.0"
    public static var `default`: String { "swift-web-image/\(version) (Linux; Swift)" }
}

public final class ImageDownloadCookieStore: Sendable {
    private let jar = Mutex<[String: String]>([:])
    public init() {}
    public func store(setCookieHeaders: [String], for url: URL, now: Date = Date()) {
        for line in setCookieHeaders {
            let pair = line.split(separator: ";").first.map(String.init) ?? ""
            guard let equals = pair.firstIndex(of: "=") else { continue }
            jar.withLock { $0[String(pair[..<equals])] = String(pair[pair.index(after: equals)...]) }
        }
    }
    public func cookieHeader(for url: URL, now: Date = Date()) -> String? {
        let all = jar.withLock { $0 }
        return all.isEmpty
            ? nil : all.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: "; ")
    }
    public func removeAll() { jar.withLock { $0 = [:] } }
}

public struct ImageDownloadRetryPolicy: Sendable, Equatable {
    public var maxAttempts = 1
    public static let none = ImageDownloadRetryPolicy()
    public static func exponential(maxAttempts: Int) -> Self {
        var policy = Self()
        policy.maxAttempts = maxAttempts
        return policy
    }
    public func retryDelay(
        afterAttempt attempt: Int, error: WebImageError, retryAfter: String?, now: Date,
        random: inout some RandomNumberGenerator
    ) -> Double? {
        guard attempt < maxAttempts else { return nil }
        if case .invalidDownloadStatusCode(let code) = error, [429, 503].contains(code) {
            return retryAfter.flatMap(Double.init) ?? 0
        }
        return nil
    }
}

public enum ImageDownloadConditionalRequest {
    public static func headers(for metadata: DiskCacheMetadata?) -> [(String, String)] {
        var headers: [(String, String)] = []
        if let etag = metadata?.etag { headers.append(("If-None-Match", etag)) }
        if let date = metadata?.lastModified { headers.append(("If-Modified-Since", date)) }
        return headers
    }
}

public protocol ImageDownloadDecrypting: Sendable {
    func decryptedData(_ data: Data, url: URL, headers: [(String, String)]) -> Data?
}

public struct ImageDownloadBlockDecryptor: ImageDownloadDecrypting {
    let block: @Sendable (Data, URL, [(String, String)]) -> Data?
    public init(_ block: @escaping @Sendable (Data, URL, [(String, String)]) -> Data?) { self.block = block }
    public func decryptedData(_ data: Data, url: URL, headers: [(String, String)]) -> Data? {
        block(data, url, headers)
    }
}

extension ImageDownloadDecrypting where Self == ImageDownloadBlockDecryptor {
    public static var base64: ImageDownloadBlockDecryptor {
        ImageDownloadBlockDecryptor { data, _, _ in Data(base64Encoded: data) }
    }
}
