import Foundation

/// Loads `file:` URLs straight from disk, without an HTTP stack (Nuke's local fast path;
/// SDWebImage sends them through URLSession). The read and the decode run off the caller's
/// thread; progress is reported once the size is known and once the bytes are in.
public struct FileImageLoader: ImageLoading {
    /// Files larger than this fail with ``TransferFailure/Kind/responseTooLarge`` before any byte is read.
    public var maxFileSize: Int

    public init(maxFileSize: Int = ImageLoaderDecoding.defaultMaxDataSize) {
        self.maxFileSize = maxFileSize
    }

    public func canRequestImage(for url: URL, options: WebImageOptions, context: WebImageContext?) -> Bool {
        url.isFileURL
    }

    @discardableResult
    public func requestImage(
        with url: URL, options: WebImageOptions, context: WebImageContext?,
        progress: ImageLoaderProgress?, completion: @escaping ImageLoaderCompletion
    ) -> any ImageLoadingOperation {
        let maxFileSize = maxFileSize
        return ImageLoaderToken.run(url: url, options: options, progress: progress, completion: completion) {
            token throws(WebImageError) in
            let data = try Self.read(url, maxFileSize: maxFileSize, token: token)
            guard !Task.isCancelled else { throw .cancelled }
            let image = try ImageLoaderDecoding.decode(data, url: url, options: options, context: context)
            return ImageLoadResult(image: image, data: data, isFinished: true)
        }
    }

    private static func read(_ url: URL, maxFileSize: Int, token: ImageLoaderToken) throws(WebImageError) -> Data {
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
        do {
            let size = Int(try handle.seekToEnd())
            guard size <= maxFileSize else {
                throw WebImageError.transferFailed(
                    TransferFailure(.responseTooLarge, "\(path) is \(size) bytes; the limit is \(maxFileSize)"))
            }
            token.reportProgress(received: 0, expected: size)
            try handle.seek(toOffset: 0)
            // Read one byte past the limit, so a file that grew since the size check is still caught.
            let data = try handle.read(upToCount: maxFileSize + 1) ?? Data()
            guard data.count <= maxFileSize else {
                throw WebImageError.transferFailed(
                    TransferFailure(.responseTooLarge, "\(path) grew past the limit of \(maxFileSize) bytes"))
            }
            token.reportProgress(received: data.count, expected: data.count)
            return data
        } catch let error as WebImageError {
            throw error
        } catch {
            throw .transferFailed(TransferFailure(.cannotReadFile, "\(path): \(error.localizedDescription)"))
        }
    }
}
