#if Server
    import WebImage

    /// JSON string literals: one escaping for the service's JSON answers (`/info`) and the
    /// server's JSON log lines.
    @_spi(Internals) public enum JSONString {
        /// `text` as a JSON string literal: quotes, backslashes and control characters escaped.
        public static func quoted(_ text: String) -> String {
            var out = ""
            append(text, to: &out)
            return out
        }

        /// Appends `text` as a JSON string literal to `out`.
        static func append(_ text: String, to out: inout String) {
            out += "\""
            for scalar in text.unicodeScalars {
                switch scalar {
                case "\"": out += "\\\""
                case "\\": out += "\\\\"
                case "\n": out += "\\n"
                case "\r": out += "\\r"
                case "\t": out += "\\t"
                case _ where scalar.value < 0x20:
                    let hex = String(scalar.value, radix: 16)
                    out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                default: out.unicodeScalars.append(scalar)
                }
            }
            out += "\""
        }
    }
#endif
