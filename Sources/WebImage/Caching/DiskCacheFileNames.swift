import Crypto
import Foundation

/// How ``DiskCache`` names its files.
///
/// An entry is `<sha256-hex>[.<ext>]`: 64 lowercase hex digits of SHA-256 over the key's UTF-8
/// bytes, then the key's path extension by SDWebImage's rule (URL path extension with the query
/// ignored, else the string's), with `:`, `\0` and `/` stripped. Nothing else from the key reaches
/// the file name, so no key can escape the directory. Temporary files start with a dot and are
/// never mistaken for entries.
enum DiskCacheFileNames {
    /// Linux's NAME_MAX (bytes).
    static let nameMax = 255
    /// The longest extension kept: NAME_MAX − 64 hex digits − the dot. SDWebImage's 222 is the
    /// same rule for its 32-digit MD5 names; with SHA-256 a 222-byte extension would fail with
    /// ENAMETOOLONG.
    static let maxExtensionBytes = nameMax - 64 - 1
    static let temporaryPrefix = ".tmp-"

    /// Built in one string: this runs twice per load (the query and the store).
    static func fileName(forKey key: String) -> String {
        var hasher = SHA256()
        var key = key
        key.withUTF8 { hasher.update(bufferPointer: UnsafeRawBufferPointer($0)) }
        let digest = hasher.finalize()
        let ext = sanitizedExtension(forKey: key)
        let length = 64 + (ext.map { 1 + $0.utf8.count } ?? 0)
        return String(unsafeUninitializedCapacity: length) { name in
            digest.withUnsafeBytes { bytes in
                for (index, byte) in bytes.enumerated() {
                    name[2 * index] = hexDigit(byte >> 4)
                    name[2 * index + 1] = hexDigit(byte & 0x0f)
                }
            }
            guard let ext else { return 64 }
            name[64] = UInt8(ascii: ".")
            _ = UnsafeMutableBufferPointer(rebasing: name[65...]).initialize(from: ext.utf8)
            return length
        }
    }

    private static func hexDigit(_ value: UInt8) -> UInt8 {
        value < 10 ? UInt8(ascii: "0") + value : UInt8(ascii: "a") + value - 10
    }

    /// The key's extension as it appears in the file name, or nil for none.
    static func sanitizedExtension(forKey key: String) -> String? {
        // `/` matters on Linux (a percent-decoded `%2F` could otherwise add a path component);
        // `:` and `\0` follow SDWebImage.
        let ext = CacheKeys.pathExtension(forKey: key).filter { $0 != ":" && $0 != "\0" && $0 != "/" }
        guard !ext.isEmpty, ext.utf8.count <= maxExtensionBytes, ext != ".", ext != ".." else { return nil }
        return ext
    }

    /// Whether a directory entry's name is an entry of the cache (not a temporary or foreign file).
    static func isEntryName(_ name: String) -> Bool {
        let bytes = Array(name.utf8.prefix(65))
        guard bytes.count >= 64 else { return false }
        for byte in bytes.prefix(64) where !(byte >= 0x30 && byte <= 0x39) && !(byte >= 0x61 && byte <= 0x66) {
            return false
        }
        return bytes.count == 64 || bytes[64] == UInt8(ascii: ".")
    }

    /// A name no other writer uses: process id plus 64 random bits.
    static func temporaryName() -> String {
        "\(temporaryPrefix)\(getpid())-\(String(UInt64.random(in: .min ... .max), radix: 16))"
    }

    /// The writer's process id recorded in a temporary file's name, if it has one.
    static func temporaryOwner(_ name: String) -> pid_t? {
        guard name.hasPrefix(temporaryPrefix) else { return nil }
        let rest = name.dropFirst(temporaryPrefix.count)
        guard let dash = rest.firstIndex(of: "-") else { return nil }
        return pid_t(rest[..<dash])
    }
}
