import Foundation

/// What identifies a transfer: the URL, and for a revalidation the validators and cached bytes
/// it sends. A plain caller that joined a revalidation could get `cacheNotModified` for an image
/// it does not have; a revalidating caller that joined a plain transfer would never hear that
/// nothing changed.
struct TransferKey: Hashable, Sendable {
    let url: String
    let validators: [String]?
    let cachedData: Data?

    init(_ url: URL, options: ImageDownloaderOptions, context: WebImageContext?) {
        self.url = url.absoluteString
        if options.contains(.ignoreCachedResponse) {
            validators = ImageDownloadConditionalRequest.headers(for: context?.loaderCachedMetadata).flatMap {
                [$0.0, $0.1]
            }
            cachedData = context?.loaderCachedData
        } else {
            validators = nil
            cachedData = nil
        }
    }
}

/// What identifies a decode: its transfer, the decode options and the coder object. A coder
/// that is a value (whose identity cannot be compared) never shares a decode.
struct DecodeKey: Hashable, Sendable {
    let transfer: TransferKey
    let options: ImageDecodeOptions
    let coder: CoderIdentity

    enum CoderIdentity: Hashable, Sendable {
        case registry
        case object(ObjectIdentifier)
        case unshared(UnsharedID)
    }

    init(transfer: TransferKey, options: ImageDecodeOptions, coder: (any ImageCoding)?) {
        self.transfer = transfer
        self.options = options
        if let coder {
            self.coder = ObjectIdentifier(instance: coder).map { .object($0) } ?? .unshared(.next())
        } else {
            self.coder = .registry
        }
    }

    static func == (lhs: DecodeKey, rhs: DecodeKey) -> Bool {
        lhs.coder == rhs.coder && lhs.transfer == rhs.transfer && lhs.options == rhs.options
    }

    func hash(into hasher: inout Hasher) {
        hasher.combine(transfer)
        hasher.combine(coder)
    }
}

/// A finished transfer: the body (after the decryptor) and what it reports.
struct DownloadedBody: Sendable {
    var data: Data
    var report: TransferReport

    /// What a cache keeps of the response's headers (worked out only for decodes: callers that
    /// want the bytes alone never pay for it).
    var metadata: DiskCacheMetadata {
        var fields: [String: String] = [:]
        for (name, value) in report.response?.headers.fields ?? [] { fields[name] = value }
        return DiskCacheMetadata(httpHeaders: fields)
    }
}

/// The request, the response and the metrics of a finished transfer.
struct TransferReport: Sendable {
    var request: ImageDownloadRequest?
    var response: ImageDownloadResponse?
    var metrics = ImageDownloadMetrics()
}

/// A finished decode: the caller's result and its transfer's report.
struct DecodedDownload: Sendable {
    var result: ImageLoadResult
    var report: TransferReport
}
