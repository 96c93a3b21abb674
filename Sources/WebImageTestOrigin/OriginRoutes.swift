import Foundation
import NIOCore
import WebImage

/// Where a path's body comes from: at hand, or from work too slow for the event loop
/// (reading a file, encoding an image), which runs on the thread pool.
enum Resolution {
    case ready(Resource?)
    case deferred(@Sendable () throws -> Resource?)
}

/// Maps paths to resources: registered bodies first, then the built-in routes.
struct OriginRoutes {
    let core: OriginCore

    func resolve(_ request: OriginRequest) throws(BadParameter) -> Resolution {
        let path = request.path
        if let registered = core.registered(path: path) { return .ready(registered.resource) }
        if path.hasPrefix("/fixtures/") { return fixture(String(path.dropFirst("/fixtures/".count))) }
        if path.hasPrefix("/generated/") {
            return try generated(String(path.dropFirst("/generated/".count)), seed: seed(request))
        }
        if path.hasPrefix("/bytes/") {
            let count = try byteCount(String(path.dropFirst("/bytes/".count)))
            let seed = try seed(request)
            let make: @Sendable () -> Resource? = {
                Resource(
                    body: GeneratedContent.bytes(count: count, seed: seed), contentType: "application/octet-stream")
            }
            return count <= 256 << 10 ? .ready(make()) : .deferred(make)
        }
        if path.hasPrefix("/garbage/") {
            let count = try byteCount(String(path.dropFirst("/garbage/".count)))
            return .ready(Resource(body: GeneratedContent.garbage(count: count), contentType: "image/jpeg"))
        }
        return .ready(nil)
    }

    private func seed(_ request: OriginRequest) throws(BadParameter) -> UInt64 {
        guard let text = request.value("seed") else { return 0 }
        guard let seed = UInt64(text) else {
            throw BadParameter(description: "seed must be an unsigned integer, got \(text)")
        }
        return seed
    }

    private func byteCount(_ text: String) throws(BadParameter) -> Int {
        guard let count = Int(text), (0...GeneratedContent.maximumByteCount).contains(count) else {
            throw BadParameter(
                description: "byte count must be an integer in 0...\(GeneratedContent.maximumByteCount), got \(text)")
        }
        return count
    }

    /// `WxH.ext`, e.g. `640x480.png`.
    private func generated(_ name: String, seed: UInt64) throws(BadParameter) -> Resolution {
        let dot = name.lastIndex(of: ".") ?? name.endIndex
        let size = name[..<dot].split(separator: "x", omittingEmptySubsequences: false)
        let ext = dot < name.endIndex ? String(name[name.index(after: dot)...]).lowercased() : ""
        guard let kind = GeneratedContent.imageFormats[ext] else {
            throw BadParameter(description: "generated images are png, jpeg, jpg, webp or gif, got \(name)")
        }
        let side = 1...GeneratedContent.maximumSide
        guard size.count == 2, let width = Int(size[0]), let height = Int(size[1]), side.contains(width),
            side.contains(height)
        else {
            throw BadParameter(description: "generated image size must be WxH, each in \(side), got \(name)")
        }
        let key = "\(width)x\(height).\(kind.format.name)#\(seed)"
        if let body = core.cachedGenerated(key) { return .ready(Resource(body: body, contentType: kind.contentType)) }
        let core = self.core
        return .deferred {
            let data = try GeneratedContent.image(width: width, height: height, format: kind.format, seed: seed)
            let body = ByteBuffer(bytes: data)
            core.storeGenerated(body, key: key)
            return Resource(body: body, contentType: kind.contentType)
        }
    }

    /// A file under the fixtures directory; `nil` (404) when missing or when the path would leave it.
    private func fixture(_ encodedPath: String) -> Resolution {
        guard let root = core.fixturesDirectory else { return .ready(nil) }
        let relative = percentDecoded(encodedPath)
        let components = relative.split(separator: "/", omittingEmptySubsequences: false)
        guard !components.isEmpty,
            components.allSatisfy({ !$0.isEmpty && $0 != "." && $0 != ".." && !$0.contains("\0") })
        else { return .ready(nil) }
        return .deferred {
            let file = root.appendingPathComponent(relative).resolvingSymlinksInPath()
            let rootPath = root.resolvingSymlinksInPath().path
            guard file.path.hasPrefix(rootPath + "/"),
                let data = try? Data(contentsOf: file, options: .mappedIfSafe)
            else { return nil }
            return Resource(
                body: ByteBuffer(bytes: data), contentType: Self.contentType(forExtension: file.pathExtension))
        }
    }

    static func contentType(forExtension ext: String) -> String {
        switch ext.lowercased() {
        case "png": "image/png"
        case "jpg", "jpeg": "image/jpeg"
        case "gif": "image/gif"
        case "webp": "image/webp"
        case "svg": "image/svg+xml"
        default: "application/octet-stream"
        }
    }
}
