import Foundation

/// Loads `file:` URLs straight from disk, without an HTTP stack (Nuke's local fast path;
/// SDWebImage sends them through URLSession). The read runs on the library's file threads, the
/// decode in the calling task; progress is reported once the size is known and once the bytes are in.
public struct FileImageLoader: ImageLoading {
    /// Files larger than this fail with ``TransferFailure/Kind/responseTooLarge`` before any byte is read.
    public var maxFileSize: Int

    public init(maxFileSize: Int = ImageLoaderDecoding.defaultMaxDataSize) {
        self.maxFileSize = maxFileSize
    }

    public func canRequestImage(for url: URL, options: WebImageOptions, context: WebImageContext?) -> Bool {
        url.isFileURL
    }

    public func loadImage(
        with url: URL, options: WebImageOptions, context: WebImageContext?, events: ImageLoadEventHandler?
    ) async throws(WebImageError) -> ImageLoadResult {
        let maxFileSize = maxFileSize
        let data = try await FileIOExecutor.shared.run { () throws(WebImageError) in
            try Self.read(url, maxFileSize: maxFileSize, events: events)
        }
        guard !Task.isCancelled else { throw .cancelled }
        let image = try ImageLoaderDecoding.decode(data, url: url, options: options, context: context)
        return ImageLoadResult(image: image, data: data, isFinished: true)
    }

    private static func read(_ url: URL, maxFileSize: Int, events: ImageLoadEventHandler?) throws(WebImageError) -> Data
    {
        let path = url.path
        guard !path.isEmpty else { throw .invalidURL(url.absoluteString) }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw .transferFailed(TransferFailure(.fileNotFound, path))
        }
        guard !isDirectory.boolValue else {
            throw .transferFailed(TransferFailure(.cannotReadFile, "\(path) is a directory"))
        }
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw .transferFailed(TransferFailure(.cannotReadFile, "\(path): permission denied or unreadable"))
        }
        defer { try? handle.close() }
        let unreadable = { (error: any Error) in
            WebImageError.transferFailed(
                TransferFailure(.cannotReadFile, "\(path): \(error.localizedDescription)"), underlying: error)
        }
        let size: Int
        do {
            size = Int(try handle.seekToEnd())
        } catch {
            throw unreadable(error)
        }
        guard size <= maxFileSize else {
            throw .transferFailed(
                TransferFailure(.responseTooLarge, "\(path) is \(size) bytes; the limit is \(maxFileSize)"))
        }
        events?(.progress(receivedSize: 0, expectedSize: size))
        let data: Data
        do {
            try handle.seek(toOffset: 0)
            // Read one byte past the limit, so a file that grew since the size check is still caught.
            data = try handle.read(upToCount: maxFileSize + 1) ?? Data()
        } catch {
            throw unreadable(error)
        }
        guard data.count <= maxFileSize else {
            throw .transferFailed(
                TransferFailure(.responseTooLarge, "\(path) grew past the limit of \(maxFileSize) bytes"))
        }
        events?(.progress(receivedSize: data.count, expectedSize: data.count))
        return data
    }
}
