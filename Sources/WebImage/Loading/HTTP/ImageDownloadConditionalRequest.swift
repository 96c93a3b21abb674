import Foundation

/// Validator headers for revalidating a cached image (RFC 9110 13.1): the stored `ETag` goes in
/// `If-None-Match` and the stored `Last-Modified` in `If-Modified-Since`, both when both are
/// known (a server that understands `If-None-Match` then ignores the date). A 304 answer means
/// the cached copy is current.
enum ImageDownloadConditionalRequest {
    /// The request headers for `metadata`, `If-None-Match` first; empty without metadata or
    /// validators. Values are sent verbatim, as the server gave them, except that a value with a
    /// control character (a tampered cache entry could hold a CR/LF) or no content is left out.
    static func headers(for metadata: DiskCacheMetadata?) -> [(String, String)] {
        guard let metadata else { return [] }
        var headers: [(String, String)] = []
        if let etag = usable(metadata.etag) { headers.append(("If-None-Match", etag)) }
        if let lastModified = usable(metadata.lastModified) { headers.append(("If-Modified-Since", lastModified)) }
        return headers
    }

    private static func usable(_ value: String?) -> String? {
        guard let trimmed = value?.trimmingCharacters(in: CharacterSet(charactersIn: " \t")), !trimmed.isEmpty,
            !trimmed.utf8.contains(where: { ($0 < 0x20 && $0 != 0x09) || $0 == 0x7F })
        else { return nil }
        return trimmed
    }
}
