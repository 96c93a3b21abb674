import Foundation

/// The `User-Agent` the downloader sends by default. SDWebImage builds one from the app's name,
/// version and device; a library on a server has neither, so ours names the library and the OS.
enum WebImageUserAgent {
    /// The library version the user agent reports.
    static var version: String { WebImageVersion.current }

    /// `swift-web-image/<version> (<OS>; Swift)`, for example `swift-web-image/0.1.0 (Linux; Swift)`.
    static var `default`: String {
        asciiOnly("swift-web-image/\(version) (\(operatingSystem); Swift)")
    }

    static var operatingSystem: String {
        #if os(Linux)
            "Linux"
        #elseif os(macOS)
            "macOS"
        #elseif os(iOS)
            "iOS"
        #elseif os(tvOS)
            "tvOS"
        #elseif os(watchOS)
            "watchOS"
        #elseif os(visionOS)
            "visionOS"
        #elseif os(Windows)
            "Windows"
        #elseif os(Android)
            "Android"
        #elseif os(FreeBSD)
            "FreeBSD"
        #elseif os(OpenBSD)
            "OpenBSD"
        #elseif os(WASI)
            "WASI"
        #else
            "Unknown"
        #endif
    }

    /// Header values must be ASCII to be read the same everywhere. Like SDWebImage, accented
    /// letters lose their accents (`é` → `e`); what still is not printable ASCII is removed.
    static func asciiOnly(_ text: String) -> String {
        let folded = text.folding(
            options: [.diacriticInsensitive, .widthInsensitive], locale: Locale(identifier: "en_US_POSIX"))
        return String(decoding: folded.utf8.filter { $0 >= 0x20 && $0 < 0x7F }, as: UTF8.self)
    }
}
