/// The base-83 digits of the BlurHash format.
enum Base83 {
    /// The 83 characters in digit order (all ASCII, all safe in URLs' paths and in JSON).
    static let alphabet: [UInt8] = Array(
        "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz#$%*+,-.:;=?@[]^_{|}~".utf8)

    /// Appends `value` as exactly `length` digits, most significant first; a value too large for
    /// `length` digits keeps its low digits, a negative one is 0 (callers pass values that fit).
    static func append(_ value: Int, length: Int, to text: inout [UInt8]) {
        let value = max(0, value)
        var divisor = 1
        for _ in 1..<max(1, length) { divisor *= 83 }
        for _ in 0..<length {
            text.append(alphabet[(value / divisor) % 83])
            divisor /= 83
        }
    }
}
