import Foundation

/// SDWebImage's cache-key formats, so keys match its documented examples.
public enum CacheKeys {
    /// The transformer key of a thumbnail decode: `Thumbnail({%f,%f},%d)`, for example
    /// `Thumbnail({100.000000,100.000000},1)` (`SDThumbnailedKeyForKey`).
    public static func thumbnailTransformerKey(_ size: PixelSize, preserveAspectRatio: Bool) -> String {
        String(
            format: "Thumbnail({%f,%f},%d)", Double(size.width), Double(size.height), preserveAspectRatio ? 1 : 0)
    }

    /// `key` for a thumbnail of `size` (`SDThumbnailedKeyForKey`).
    public static func thumbnailed(_ key: String, size: PixelSize, preserveAspectRatio: Bool) -> String {
        transformed(key, transformerKey: thumbnailTransformerKey(size, preserveAspectRatio: preserveAspectRatio))
    }

    /// `key` with a transformer key inserted before its path extension (`SDTransformedKeyForKey`):
    /// `image.png` → `image-T.png`, `image` → `image-T`,
    /// `http://foo/image.png?foo=bar#mark` → `http://foo/image-T.png?foo=bar#mark`.
    public static func transformed(_ key: String, transformerKey: String) -> String {
        if let url = URL(string: key), let scheme = url.scheme, scheme.lowercased() != "file", url.host != nil {
            // Rewrite only the path; the query and fragment stay as they are. (Plain string work:
            // transformer keys hold characters such as `{` that URL components refuse.)
            let ext = url.pathExtension
            let cut = key.firstIndex { $0 == "?" || $0 == "#" } ?? key.endIndex
            let head = key[..<cut]
            guard !ext.isEmpty, head.hasSuffix("." + ext) else { return "\(key)-\(transformerKey)" }
            return "\(head.dropLast(ext.count + 1))-\(transformerKey).\(ext)\(key[cut...])"
        }
        let ext = (key as NSString).pathExtension
        guard !ext.isEmpty else { return "\(key)-\(transformerKey)" }
        return "\(key.dropLast(ext.count + 1))-\(transformerKey).\(ext)"
    }

    /// The scale SDWebImage reads from a key: `@2x.`/`@3x.` (and `%402x.`/`%403x.` in http keys)
    /// give 2 or 3; keys shorter than 8 characters and all others give 1.
    public static func scaleFactor(forKey key: String) -> Double {
        let bytes = key.utf8
        guard key.count >= 8 else { return 1 }
        // Byte scans: this runs for every request, and Foundation's `contains` goes through NSString.
        if bytes.containsASCII("@2x.") { return 2 }
        if bytes.containsASCII("@3x.") { return 3 }
        if bytes.startsWithASCIICaseInsensitive("http") {
            if bytes.containsASCII("%402x.", caseInsensitive: true) { return 2 }
            if bytes.containsASCII("%403x.", caseInsensitive: true) { return 3 }
        }
        return 1
    }

    /// The path extension SDWebImage uses as a type hint: the URL's path extension (query and
    /// fragment ignored), else the string's.
    public static func pathExtension(forKey key: String) -> String {
        if let url = URL(string: key), url.scheme != nil {
            return url.pathExtension
        }
        return (key as NSString).pathExtension
    }
}

extension String.UTF8View {
    /// Whether `needle` (ASCII) occurs, optionally ignoring ASCII case.
    fileprivate func containsASCII(_ needle: StaticString, caseInsensitive: Bool = false) -> Bool {
        let pattern = UnsafeBufferPointer(start: needle.utf8Start, count: needle.utf8CodeUnitCount)
        guard let first = pattern.first else { return true }
        let fold: (UInt8) -> UInt8 = { caseInsensitive && $0 >= 0x41 && $0 <= 0x5A ? $0 | 0x20 : $0 }
        var index = startIndex
        while index != endIndex {
            if fold(self[index]) == fold(first) {
                var probe = self.index(after: index)
                var matched = 1
                while matched < pattern.count, probe != endIndex, fold(self[probe]) == fold(pattern[matched]) {
                    matched += 1
                    probe = self.index(after: probe)
                }
                if matched == pattern.count { return true }
            }
            index = self.index(after: index)
        }
        return false
    }

    fileprivate func startsWithASCIICaseInsensitive(_ prefix: StaticString) -> Bool {
        let pattern = UnsafeBufferPointer(start: prefix.utf8Start, count: prefix.utf8CodeUnitCount)
        return self.count >= pattern.count && zip(self, pattern).allSatisfy { $0 | 0x20 == $1 | 0x20 }
    }
}
