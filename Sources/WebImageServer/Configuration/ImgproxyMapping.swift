#if Server
    import Foundation
    import WebImage

    /// A setting's value as its flag would take it, and the flag or variable it came from (for
    /// error messages and the startup log).
    package struct SettingValue: Sendable, Equatable {
        /// The value in the flag's terms, e.g. `50000000` pixels for `IMGPROXY_MAX_SRC_RESOLUTION=50`.
        package var text: String
        /// `--port`, `WEBIMAGE_PORT`, `IMGPROXY_BIND`, ...
        package var source: String

        package init(_ text: String, from source: String) {
            self.text = text
            self.source = source
        }
    }

    /// A configuration value that cannot be used; its message names the flag or variable.
    package struct ServeSettingError: Error, Equatable, CustomStringConvertible {
        package let message: String
        package init(_ message: String) { self.message = message }
        package var description: String { message }
    }

    /// The environment as imgproxy reads it: an empty variable counts as unset.
    package struct ImgproxyEnvironment: Sendable {
        let variables: [String: String]

        package init(_ variables: [String: String]) { self.variables = variables }

        package subscript(_ name: String) -> String? {
            guard let value = variables[name]?.trimmingCharacters(in: .whitespaces), !value.isEmpty else { return nil }
            return value
        }

        /// The variable as a boolean (Go's spellings and ours), or nil when unset.
        package func bool(_ name: String) throws(ServeSettingError) -> Bool? {
            guard let text = self[name] else { return nil }
            guard let value = SettingParsing.bool(text) else {
                throw ServeSettingError("\(name) must be true or false, got \(text)")
            }
            return value
        }
    }

    /// How imgproxy's variables give one of our settings.
    package struct ImgproxyMapping: Sendable {
        /// The variables read; all of them count as supported.
        package let variables: [String]
        /// The value, or nil when none of the variables is set.
        let read: @Sendable (ImgproxyEnvironment) throws(ServeSettingError) -> SettingValue?

        /// The variable's value as it is: it means exactly what our flag means.
        static func same(_ name: String) -> ImgproxyMapping {
            ImgproxyMapping(variables: [name]) { environment in
                environment[name].map { SettingValue($0, from: name) }
            }
        }

        /// A count where imgproxy's 0 means "no limit" (ours then is the largest integer).
        static func zeroMeansNoLimit(_ name: String) -> ImgproxyMapping {
            ImgproxyMapping(variables: [name]) { environment in
                guard let text = environment[name] else { return nil }
                return SettingValue(Int(text) == 0 ? String(Int.max) : text, from: name)
            }
        }

        /// A resolution in megapixels (may be fractional), given to us in pixels; with `allowsZero`,
        /// 0 passes as 0 (imgproxy's "no limit of its own").
        static func megapixels(_ name: String, allowsZero: Bool = false) -> ImgproxyMapping {
            ImgproxyMapping(variables: [name]) { environment throws(ServeSettingError) in
                guard let text = environment[name] else { return nil }
                guard let megapixels = Double(text), megapixels.isFinite,
                    megapixels > 0 || (allowsZero && megapixels == 0),
                    megapixels <= 1e9
                else {
                    throw ServeSettingError(
                        "\(name) must be a number of megapixels above 0\(allowsZero ? " (or 0)" : ""), got \(text)")
                }
                return SettingValue(String(Int(clamping: megapixels * 1_000_000)), from: name)
            }
        }

        /// The part of an address `IMGPROXY_BIND` gives.
        enum BindPart: Sendable { case host, port }

        /// `IMGPROXY_BIND` (`host:port`, `:port` for every interface, `[v6]:port`) on TCP.
        static func bindAddress(_ part: BindPart) -> ImgproxyMapping {
            let name = "IMGPROXY_BIND"
            return ImgproxyMapping(variables: [name, "IMGPROXY_NETWORK"]) { environment throws(ServeSettingError) in
                if let network = environment["IMGPROXY_NETWORK"],
                    !["tcp", "tcp4", "tcp6"].contains(network.lowercased())
                {
                    throw ServeSettingError("IMGPROXY_NETWORK=\(network): webimage serve listens on TCP only")
                }
                guard let text = environment[name] else { return nil }
                guard let colon = text.lastIndex(of: ":") else {
                    throw ServeSettingError("\(name) must be host:port or :port, got \(text)")
                }
                var host = String(text[..<colon])
                if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
                switch part {
                // Go listens on every interface when the host is empty.
                case .host: return SettingValue(host.isEmpty ? "0.0.0.0" : host, from: name)
                case .port: return SettingValue(String(text[text.index(after: colon)...]), from: name)
                }
            }
        }

        /// A setting of imgproxy Pro's result cache, read only when `IMGPROXY_CACHE_USE` names `storage`.
        static func cacheStorage(_ storage: String, _ name: String) -> ImgproxyMapping {
            ImgproxyMapping(variables: ["IMGPROXY_CACHE_USE", name]) { environment in
                guard environment["IMGPROXY_CACHE_USE"]?.lowercased() == storage, let text = environment[name] else {
                    return nil
                }
                return SettingValue(text, from: name)
            }
        }

        /// The S3 endpoint of imgproxy Pro's result cache: `IMGPROXY_CACHE_S3_ENDPOINT`, else AWS's
        /// endpoint for `IMGPROXY_CACHE_S3_REGION`.
        static let cacheS3Endpoint = ImgproxyMapping(
            variables: ["IMGPROXY_CACHE_USE", "IMGPROXY_CACHE_S3_ENDPOINT", "IMGPROXY_CACHE_S3_REGION"]
        ) { environment in
            guard environment["IMGPROXY_CACHE_USE"]?.lowercased() == "s3" else { return nil }
            if let endpoint = environment["IMGPROXY_CACHE_S3_ENDPOINT"] {
                return SettingValue(endpoint, from: "IMGPROXY_CACHE_S3_ENDPOINT")
            }
            return environment["IMGPROXY_CACHE_S3_REGION"].map {
                SettingValue("https://s3.\($0).amazonaws.com", from: "IMGPROXY_CACHE_S3_REGION")
            }
        }

        /// `--auto-format` from imgproxy's detection switches (and their old names): our default
        /// list (AVIF and WebP), with each format whose variable is true added and each whose
        /// variable is false taken out.
        static let formatDetection = ImgproxyMapping(
            variables: [
                "IMGPROXY_AUTO_WEBP", "IMGPROXY_AUTO_AVIF", "IMGPROXY_AUTO_JXL", "IMGPROXY_ENABLE_WEBP_DETECTION",
                "IMGPROXY_ENABLE_AVIF_DETECTION",
            ]
        ) { environment throws(ServeSettingError) in
            var formats = ["avif", "webp"]
            var given: [String] = []
            for (name, format) in [
                ("IMGPROXY_ENABLE_WEBP_DETECTION", "webp"), ("IMGPROXY_ENABLE_AVIF_DETECTION", "avif"),
                ("IMGPROXY_AUTO_WEBP", "webp"), ("IMGPROXY_AUTO_AVIF", "avif"), ("IMGPROXY_AUTO_JXL", "jxl"),
            ] {
                guard let value = try environment.bool(name) else { continue }
                given.append(name)
                formats.removeAll { $0 == format }
                if value { formats.append(format) }
            }
            guard !given.isEmpty else { return nil }
            return SettingValue(formats.joined(separator: ","), from: given.joined(separator: " and "))
        }

        /// `IMGPROXY_LOG_FORMAT`: `pretty` and `structured` are our text lines, `json` and `gcp` our JSON lines.
        static let logFormat = ImgproxyMapping(variables: ["IMGPROXY_LOG_FORMAT"]) {
            environment throws(ServeSettingError) in
            guard let text = environment["IMGPROXY_LOG_FORMAT"] else { return nil }
            switch text.lowercased() {
            case "pretty", "structured": return SettingValue("text", from: "IMGPROXY_LOG_FORMAT")
            case "json", "gcp": return SettingValue("json", from: "IMGPROXY_LOG_FORMAT")
            default: throw ServeSettingError("IMGPROXY_LOG_FORMAT must be pretty, structured, json or gcp, got \(text)")
            }
        }

        /// `IMGPROXY_LOG_LEVEL`: `error`, `warn`, `info` or `debug`.
        static let logLevel = ImgproxyMapping(variables: ["IMGPROXY_LOG_LEVEL"]) {
            environment throws(ServeSettingError) in
            guard let text = environment["IMGPROXY_LOG_LEVEL"] else { return nil }
            let level = text.lowercased() == "warn" ? "warning" : text.lowercased()
            guard ["error", "warning", "info", "debug"].contains(level) else {
                throw ServeSettingError("IMGPROXY_LOG_LEVEL must be error, warn, info or debug, got \(text)")
            }
            return SettingValue(level, from: "IMGPROXY_LOG_LEVEL")
        }
    }
#endif
