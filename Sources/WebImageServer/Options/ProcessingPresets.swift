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
        /// With `forInfo`, the options are `/info` options (imgproxy's `IMGPROXY_INFO_PRESETS`).
        public init(definitions: [String], forInfo: Bool = false) throws(ServiceError) {
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
                guard options.allSatisfy({ $0.contains(":") || $0 == "-" }) else {
                    throw .badRequest("preset '\(name)' has a part that is not an option: \(value)")
                }
                segments[name] = options
            }
            for name in segments.keys.sorted() {
                do {
                    if forInfo {
                        _ = try InfoOptions(segments: ["preset:" + name], presets: self)
                    } else {
                        _ = try ProcessingOptions(
                            pipelines: pipelines(of: ["preset:" + name]), startingFrom: ProcessingOptions())
                    }
                } catch {
                    throw .badRequest("preset '\(name)': \(error.message)")
                }
            }
        }

        public var isEmpty: Bool { segments.isEmpty }
    }

    extension ProcessingPresets {
        /// `segments` split into pipelines at `-`, with every `preset`/`pr` replaced by its options
        /// where it stands. A preset's own chained pipelines go, in order, to the start of the
        /// pipelines that follow the one it stands in (made when the URL has fewer), before the
        /// URL's options there. A preset already being expanded further up (`applied`) is skipped, as
        /// imgproxy skips it, so that presets naming each other cannot loop.
        func pipelines(of segments: [String], applied: [String] = []) throws(ServiceError) -> [[String]] {
            var pipelines: [[String]] = [[]]
            // Options a preset chained to pipelines the segments have not reached yet, by index.
            var pending: [Int: [String]] = [:]
            for segment in segments {
                if segment == "-" {
                    pipelines.append(pending.removeValue(forKey: pipelines.count) ?? [])
                    continue
                }
                let parts = segment.split(separator: ":", omittingEmptySubsequences: false)
                guard parts[0] == "preset" || parts[0] == "pr" else {
                    pipelines[pipelines.count - 1].append(segment)
                    continue
                }
                guard parts.count > 1 else { throw .badRequest("processing option '\(parts[0])' needs a preset name") }
                for name in parts.dropFirst().map(String.init) {
                    guard let presetSegments = self.segments[name] else {
                        throw .badRequest("processing option 'preset': unknown preset '\(name)'")
                    }
                    guard !applied.contains(name) else { continue }
                    let expanded = try self.pipelines(of: presetSegments, applied: applied + [name])
                    let here = pipelines.count - 1
                    pipelines[here] += expanded[0]
                    for (offset, chained) in expanded.enumerated().dropFirst() {
                        pending[here + offset, default: []] += chained
                    }
                }
            }
            while let next = pending.removeValue(forKey: pipelines.count) { pipelines.append(next) }
            return pipelines
        }
    }
#endif
