#if Server
    import Foundation
    import WebImage

    /// Named lists of processing options that URLs refer to with `preset`/`pr` (imgproxy's
    /// `IMGPROXY_PRESETS`): `thumb=rs:fill:150:150/q:70`. The preset named `default`, when there is
    /// one, applies to every request before the URL's own options.
    public struct ProcessingPresets: Sendable, Equatable {
        /// Each preset's option segments, by name.
        public private(set) var segments: [String: [String]] = [:]

        /// No presets.
        public init() {}

        /// Parses `NAME=OPTION/OPTION/…` definitions; blank lines and lines starting with `#` are
        /// skipped, and a later definition of a name replaces an earlier one. Every preset is then
        /// applied once, so that a bad option stops the server at start rather than failing requests.
        public init(definitions: [String]) throws(ServiceError) {
            for line in definitions {
                let definition = line.trimmingCharacters(in: .whitespaces)
                if definition.isEmpty || definition.hasPrefix("#") { continue }
                let parts = definition.split(separator: "=", omittingEmptySubsequences: false)
                guard parts.count == 2 else { throw .badRequest("preset '\(definition)' is not NAME=OPTIONS") }
                let name = parts[0].trimmingCharacters(in: .whitespaces)
                let value = parts[1].trimmingCharacters(in: .whitespaces)
                guard !name.isEmpty, !value.isEmpty else {
                    throw .badRequest("preset '\(definition)' needs a name and options")
                }
                let options = value.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
                guard options.allSatisfy({ $0.contains(":") }) else {
                    throw .badRequest("preset '\(name)' has a part that is not an option: \(value)")
                }
                segments[name] = options
            }
            for name in segments.keys.sorted() {
                do {
                    var options = ProcessingOptions()
                    try options.apply(preset: name, from: self, applied: [])
                } catch {
                    throw .badRequest("preset '\(name)': \(error.message)")
                }
            }
        }

        public var isEmpty: Bool { segments.isEmpty }
    }

    extension ProcessingOptions {
        /// Applies preset `name`'s options. A preset already being applied further up (`applied`)
        /// is skipped, as imgproxy skips it, so that presets naming each other cannot loop.
        mutating func apply(
            preset name: String, from presets: ProcessingPresets, applied: [String]
        ) throws(ServiceError) {
            guard let segments = presets.segments[name] else {
                throw .badRequest("processing option 'preset': unknown preset '\(name)'")
            }
            guard !applied.contains(name) else { return }
            try apply(segments: segments, presets: presets, applied: applied + [name])
        }
    }
#endif
