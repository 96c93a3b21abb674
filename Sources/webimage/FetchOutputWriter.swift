import Foundation
import WebImage

/// Writes `fetch` results into a directory: the name from the URL's last path component
/// (sanitised), the extension from the written format, clashes numbered `-2`, `-3`, ...
final class FetchOutputWriter: Sendable {
    let directory: URL
    /// Names handed out in this run, behind a lock: loads finish concurrently.
    private let taken = Locked<Set<String>>([])

    init(directory path: String) throws {
        directory = URL(fileURLWithPath: path, isDirectory: true)
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        } catch {
            throw CommandFailure("--out \(path): cannot create the directory (\(error.localizedDescription))")
        }
    }

    /// Writes `result` and returns the file's path. Unaltered results keep their downloaded bytes;
    /// transformed or thumbnailed ones are encoded in their format if it can be written, else PNG.
    func write(_ result: ImageManagerResult, altered: Bool) throws -> String {
        let bytes: Data
        let format: ImageFormat
        if !altered, let data = result.data, ImageFormat(detecting: data) != .undefined {
            bytes = data
            format = ImageFormat(detecting: data)
        } else {
            let writable: [ImageFormat] = [.png, .jpeg, .gif, .webp, .avif, .heic, .heif, .jpegXL, .tiff, .bmp, .ico]
            format = writable.contains(result.image.format) ? result.image.format : .png
            bytes = try ImageCodersManager.shared.encode(result.image, as: format, options: ImageEncodeOptions())
        }
        let file = reserve(base: Self.baseName(for: result.url), extension: Self.fileExtension(format))
        do {
            try bytes.write(to: file, options: .atomic)
        } catch {
            throw CommandFailure("\(file.path): cannot write (\(error.localizedDescription))")
        }
        return file.path
    }

    /// The URL's last path component without its extension, reduced to letters, digits, `-`,
    /// `_` and `.`, at most 100 characters; `image` when nothing is left.
    static func baseName(for url: URL) -> String {
        let last = url.lastPathComponent
        let stem = (last as NSString).deletingPathExtension
        let cleaned = String(
            stem.unicodeScalars.map { scalar -> Character in
                let allowed =
                    scalar.isASCII
                    && (CharacterSet.alphanumerics.contains(scalar) || "-_.".unicodeScalars.contains(scalar))
                return allowed ? Character(scalar) : "_"
            }
        ).trimmingCharacters(in: CharacterSet(charactersIn: "._"))
        return cleaned.isEmpty ? "image" : String(cleaned.prefix(100))
    }

    static func fileExtension(_ format: ImageFormat) -> String {
        switch format {
        case .jpeg: "jpg"
        case .gif: "gif"
        case .webp: "webp"
        case .avif: "avif"
        case .heic: "heic"
        case .heif: "heif"
        case .jpegXL: "jxl"
        case .tiff: "tif"
        case .bmp: "bmp"
        case .ico: "ico"
        default: "png"
        }
    }

    /// The first `base.ext`, `base-2.ext`, ... not taken in this run (files from earlier runs are
    /// replaced, so fetching again into the same directory does not pile up copies).
    private func reserve(base: String, extension ext: String) -> URL {
        taken.withLock { taken in
            var index = 1
            while true {
                let name = index == 1 ? "\(base).\(ext)" : "\(base)-\(index).\(ext)"
                let file = directory.appendingPathComponent(name)
                if !taken.contains(name) {
                    taken.insert(name)
                    return file
                }
                index += 1
            }
        }
    }
}
