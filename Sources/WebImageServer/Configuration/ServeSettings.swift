#if Server
    import Foundation
    import WebImage

    /// The values of `webimage serve`'s settings (``ServeSetting/all``), each from its flag, else its
    /// `WEBIMAGE_*` variable, else imgproxy's variables; parsed and checked, every failure naming
    /// the flag or variable the value came from.
    package struct ServeSettings: Sendable {
        /// Flags given on the command line, by name without dashes (`"port": "8080"`); a flag
        /// without a value (`--demo`) is `"true"`.
        let flags: [String: String]
        /// Repeatable flags given on the command line (`--allowed-source`), by name.
        let repeatedFlags: [String: [String]]
        /// The process environment.
        package let environment: [String: String]
        private let settings: [String: ServeSetting]

        package init(
            flags: [String: String] = [:], repeatedFlags: [String: [String]] = [:], environment: [String: String]
        ) {
            self.flags = flags
            self.repeatedFlags = repeatedFlags
            self.environment = environment
            settings = Dictionary(uniqueKeysWithValues: ServeSetting.all.map { ($0.key, $0) })
        }

        /// The value of setting `key` and where it came from, or nil when nothing gives it.
        package func value(_ key: String) throws(ServeSettingError) -> SettingValue? {
            guard let setting = settings[key] else { preconditionFailure("no setting named \(key)") }
            if let flag = setting.flag, let text = flags[flag] { return SettingValue(text, from: "--" + flag) }
            if let variable = setting.variable, let text = environment[variable], !text.isEmpty {
                return SettingValue(text, from: variable)
            }
            return try setting.imgproxy?.read(ImgproxyEnvironment(environment))
        }

        /// The text of setting `key`, or nil.
        package func string(_ key: String) throws(ServeSettingError) -> String? {
            try value(key)?.text
        }

        /// A list separated by `separator` (or the repeated flag's values), blanks dropped; empty when
        /// not given.
        package func list(_ key: String, separator: Character = ",") throws(ServeSettingError) -> [String] {
            if let given = repeatedFlags[key], !given.isEmpty { return given }
            guard let value = try value(key) else { return [] }
            return value.text.split(separator: separator).map { $0.trimmingCharacters(in: .whitespaces) }.filter {
                !$0.isEmpty
            }
        }

        /// A switch: `true`, `1`, `yes`, `on` (and `t`) or `false`, `0`, `no`, `off` (and `f`).
        package func bool(_ key: String) throws(ServeSettingError) -> Bool? {
            guard let value = try value(key) else { return nil }
            guard let flag = SettingParsing.bool(value.text) else {
                throw ServeSettingError("\(value.source) must be true or false, got \(value.text)")
            }
            return flag
        }

        /// A whole number within `range`; `expected` words the range for the error message.
        package func integer(_ key: String, in range: ClosedRange<Int>, _ expected: String) throws(ServeSettingError)
            -> Int?
        {
            guard let value = try value(key) else { return nil }
            guard let number = Int(value.text.trimmingCharacters(in: .whitespaces)), range.contains(number) else {
                throw ServeSettingError("\(value.source) must be \(expected), got \(value.text)")
            }
            return number
        }

        /// A finite number of seconds within `range`; `expected` words the range for the error message.
        package func seconds(_ key: String, in range: ClosedRange<Double>, _ expected: String) throws(ServeSettingError)
            -> Double?
        {
            guard let value = try value(key) else { return nil }
            guard let number = Double(value.text.trimmingCharacters(in: .whitespaces)), number.isFinite,
                range.contains(number)
            else {
                throw ServeSettingError("\(value.source) must be \(expected), got \(value.text)")
            }
            return number
        }
    }

    /// The spellings settings accept.
    enum SettingParsing {
        /// Go's `strconv.ParseBool` spellings (imgproxy's) and ours; nil for anything else.
        static func bool(_ text: String) -> Bool? {
            switch text.trimmingCharacters(in: .whitespaces).lowercased() {
            case "1", "t", "true", "yes", "y", "on": true
            case "0", "f", "false", "no", "n", "off": false
            default: nil
            }
        }
    }
#endif
