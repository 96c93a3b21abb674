#if Server
    import WebImage

    /// A JSON value whose objects keep their keys in the order they were made in, written
    /// compactly: the `/info` answer. Numbers are finite by construction (callers never pass NaN
    /// or infinity; they are written as 0 if they do).
    enum InfoJSON: Sendable, Equatable {
        case string(String)
        case integer(Int)
        case number(Double)
        case bool(Bool)
        case array([InfoJSON])
        case object([(String, InfoJSON)])

        static func == (lhs: InfoJSON, rhs: InfoJSON) -> Bool { lhs.text == rhs.text }

        /// The value as JSON text.
        var text: String {
            var out = ""
            write(to: &out)
            return out
        }

        private func write(to out: inout String) {
            switch self {
            case .string(let value): JSONString.append(value, to: &out)
            case .integer(let value): out += String(value)
            case .number(let value): out += value.isFinite ? Self.shortest(value) : "0"
            case .bool(let value): out += value ? "true" : "false"
            case .array(let values):
                out += "["
                for (index, value) in values.enumerated() {
                    if index > 0 { out += "," }
                    value.write(to: &out)
                }
                out += "]"
            case .object(let members):
                out += "{"
                for (index, (key, value)) in members.enumerated() {
                    if index > 0 { out += "," }
                    JSONString.append(key, to: &out)
                    out += ":"
                    value.write(to: &out)
                }
                out += "}"
            }
        }

        /// A whole number without `.0`; otherwise Swift's shortest round-tripping form.
        private static func shortest(_ value: Double) -> String {
            if value == value.rounded(), abs(value) < 1e15 {
                return String(Int(clamping: value, rounding: .towardZero))
            }
            return "\(value)"
        }
    }
#endif
