import Foundation
import WebImage

/// Reads the bytes of a command's input: a file path, a `file:` URL, a `data:` URL, or an
/// `http(s):` URL fetched by an ``ImageDownloader`` with the default configuration (15 s timeout,
/// the default headers) and the input size limit.
enum InputReader {
    /// Largest input read into memory (256 MiB): bigger files are refused, not slurped.
    static let maxInputBytes = 256 << 20

    static func read(_ input: String) async throws -> Data {
        let path: String
        if let url = URL(string: input), let scheme = url.scheme?.lowercased(), scheme.count > 1 {
            switch scheme {
            case "file":
                path = url.path
            case "data":
                return try DataURL(parsing: input, maxDataSize: maxInputBytes).data
            case "http", "https":
                var config = ImageDownloaderConfig.default
                config.maxResponseSize = min(config.maxResponseSize, maxInputBytes)
                let downloader = ImageDownloader(config: config)
                do {
                    let data = try await downloader.downloadData(with: url)
                    await downloader.shutdown()
                    return data
                } catch {
                    await downloader.shutdown()
                    throw error
                }
            default:
                throw WebImageError.invalidURL(input)
            }
        } else {
            path = input
        }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw CommandFailure("'\(path)': no such file")
        }
        guard !isDirectory.boolValue else { throw CommandFailure("'\(path)' is a directory") }
        let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
        guard size <= maxInputBytes else {
            throw CommandFailure("'\(path)' is \(size) bytes; inputs are limited to \(maxInputBytes) bytes")
        }
        do {
            return try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw CommandFailure("'\(path)': cannot read (\(error.localizedDescription))")
        }
    }
}
