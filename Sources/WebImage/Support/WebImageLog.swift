import Foundation
import Logging

/// The library's loggers, one per layer, so an application can raise one layer's level
/// (through its `LoggingSystem` handler) without drowning in the others.
enum WebImageLog {
    static let managerLabel = "swift-web-image.manager"
    static let downloaderLabel = "swift-web-image.downloader"
    static let cacheLabel = "swift-web-image.cache"

    static let manager = Logger(label: managerLabel)
    static let downloader = Logger(label: downloaderLabel)
    static let cache = Logger(label: cacheLabel)

    /// `url` as it may appear in a log: without user name and password, which URLs can carry
    /// and logs must never.
    static func redacted(_ url: URL?) -> String {
        URLCredentialRedaction.redacted(url?.absoluteString ?? "")
    }

    /// A cache key as it may appear in a log: keys are usually URLs, so the same redaction applies.
    static func redacted(key: String) -> String {
        URLCredentialRedaction.redacted(key)
    }
}
