import Foundation

/// SDWebImage's spellings for the values inside transformer keys, so our keys match its
/// documented examples character for character.
enum TransformerKeyFormat {
    /// A number as `%f` writes it: six decimals, `100.000000`.
    static func number(_ value: Double) -> String {
        String(format: "%f", value)
    }

    /// A size as `{%f,%f}`.
    static func size(_ width: Double, _ height: Double) -> String {
        "{\(number(width)),\(number(height))}"
    }

    /// A colour as `#aarrggbb` in lowercase hex (alpha first), or `(null)` for no colour,
    /// as `%@` prints a nil object.
    static func color(_ color: RGBA8?) -> String {
        guard let color else { return "(null)" }
        return String(format: "#%02x%02x%02x%02x", color.a, color.r, color.g, color.b)
    }

    /// A flag as `%d` writes a `BOOL`: `1` or `0`.
    static func flag(_ value: Bool) -> String {
        value ? "1" : "0"
    }
}
