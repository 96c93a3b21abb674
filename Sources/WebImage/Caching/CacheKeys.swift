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
    static func pathExtension(forKey key: String) -> String {
        // Several times per load (decode options, file names): skip Foundation's URL parser
        // for the plain http(s) keys that make up nearly all of them.
        if let ext = plainHTTPPathExtension(key) { return ext }
        if let url = URL(string: key), url.scheme != nil {
            return url.pathExtension
        }
        return (key as NSString).pathExtension
    }
}

extension CacheKeys {
    /// `URL(string: key)?.pathExtension` for a lowercase `http://` or `https://` key that is
    /// plainly valid by RFC 3986 (a host name or IPv4 address with an optional port, then only
    /// unescaped path, query and fragment characters); nil for any other key.
    static func plainHTTPPathExtension(_ key: String) -> String? {
        var key = key
        return key.withUTF8 { bytes -> String? in
            var index: Int
            if bytes.starts(with: "https://".utf8) {
                index = 8
            } else if bytes.starts(with: "http://".utf8) {
                index = 7
            } else {
                return nil
            }
            guard let pathStart = skipHostAndPort(bytes, from: index) else { return nil }
            index = pathStart
            while index < bytes.count, isPathByte(bytes[index]) { index += 1 }
            let pathEnd = index
            // The query, then the fragment: path characters plus `/` and `?`, one `#` at most.
            var sawFragment = false
            while index < bytes.count {
                let byte = bytes[index]
                if byte == UInt8(ascii: "#"), !sawFragment {
                    sawFragment = true
                } else if byte != UInt8(ascii: "?"), !isPathByte(byte) {
                    return nil
                }
                index += 1
            }
            return lastExtension(bytes[pathStart..<pathEnd])
        }
    }

    /// The index after `host[:port]` starting at `start` (host letters, digits, `-` and `.`,
    /// port digits), if what follows is the end, `/`, `?` or `#`.
    private static func skipHostAndPort(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int? {
        var index = start
        while index < bytes.count, isHostByte(bytes[index]) { index += 1 }
        guard index > start else { return nil }
        if index < bytes.count, bytes[index] == UInt8(ascii: ":") {
            index += 1
            let portStart = index
            while index < bytes.count, bytes[index] >= 0x30, bytes[index] <= 0x39 { index += 1 }
            guard index > portStart, index - portStart <= 5 else { return nil }
        }
        guard index < bytes.count else { return index }
        switch bytes[index] {
        case UInt8(ascii: "/"), UInt8(ascii: "?"), UInt8(ascii: "#"): return index
        default: return nil
        }
    }

    /// The extension of a path's last component (trailing slashes ignored), as Foundation's:
    /// empty for none or when the component ends with a dot. Nil for a component that starts
    /// with a dot, where Foundation's rules are its own (`.jpg` and `..a` have none, `....a` has `a`).
    private static func lastExtension(_ path: Slice<UnsafeBufferPointer<UInt8>>) -> String? {
        var end = path.endIndex
        while end > path.startIndex, path[end - 1] == UInt8(ascii: "/") { end -= 1 }
        var start = end
        while start > path.startIndex, path[start - 1] != UInt8(ascii: "/") { start -= 1 }
        guard start == end || path[start] != UInt8(ascii: ".") else { return nil }
        guard let dot = path[start..<end].lastIndex(of: UInt8(ascii: ".")), dot + 1 < end else { return "" }
        return String(decoding: path[(dot + 1)..<end], as: UTF8.self)
    }

    private static func isHostByte(_ byte: UInt8) -> Bool {
        isAlphanumeric(byte) || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".")
    }

    /// RFC 3986 `pchar` without percent-escapes, or `/`.
    private static func isPathByte(_ byte: UInt8) -> Bool {
        if isAlphanumeric(byte) { return true }
        switch byte {
        case UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"), UInt8(ascii: "!"),
            UInt8(ascii: "$"), UInt8(ascii: "&"), UInt8(ascii: "'"), UInt8(ascii: "("), UInt8(ascii: ")"),
            UInt8(ascii: "*"), UInt8(ascii: "+"), UInt8(ascii: ","), UInt8(ascii: ";"), UInt8(ascii: "="),
            UInt8(ascii: ":"), UInt8(ascii: "@"), UInt8(ascii: "/"):
            return true
        default:
            return false
        }
    }

    private static func isAlphanumeric(_ byte: UInt8) -> Bool {
        (byte >= 0x30 && byte <= 0x39) || ((byte | 0x20) >= 0x61 && (byte | 0x20) <= 0x7A)
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
