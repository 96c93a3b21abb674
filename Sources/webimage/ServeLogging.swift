#if Server
    import Foundation
    import Logging
    import OTel
    import WebImage
    @_spi(Internals) import WebImageServer

    /// How `webimage serve` logs: to standard error, as swift-log's text lines or as one JSON object
    /// per line, each carrying the trace and span ids of the request it is about when tracing.
    enum ServeLogging {
        /// Bootstraps the process's `LoggingSystem`; call once, before making loggers.
        static func bootstrap(format: ServeOptions.LogFormat, level: Logger.Level, tracing: Bool) {
            let provider: Logger.MetadataProvider? = tracing ? OTel.makeLoggingMetadataProvider() : nil
            LoggingSystem.bootstrap(
                { label, provider in
                    var handler: any LogHandler =
                        switch format {
                        case .text: StreamLogHandler.standardError(label: label, metadataProvider: provider)
                        case .json: JSONLogHandler(label: label, metadataProvider: provider)
                        }
                    handler.logLevel = level
                    return handler
                }, metadataProvider: provider)
        }
    }

    /// One JSON object per log line on standard error: `time`, `level`, `logger`, `message`, then
    /// the metadata (the trace ids among them) as string fields.
    struct JSONLogHandler: LogHandler {
        let label: String
        var metadataProvider: Logger.MetadataProvider?
        var metadata: Logger.Metadata = [:]
        var logLevel: Logger.Level = .info

        init(label: String, metadataProvider: Logger.MetadataProvider?) {
            self.label = label
            self.metadataProvider = metadataProvider
        }

        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }

        func log(event: LogEvent) {
            var fields = metadata
            if let provided = metadataProvider?.get() { fields.merge(provided) { _, new in new } }
            if let extra = event.metadata { fields.merge(extra) { _, new in new } }
            var line = "{\"time\":\(JSONString.quoted(Self.timestamp()))"
            line += ",\"level\":\(JSONString.quoted(event.level.rawValue)),\"logger\":\(JSONString.quoted(label))"
            line += ",\"message\":\(JSONString.quoted(event.message.description))"
            for (key, value) in fields.sorted(by: { $0.key < $1.key })
            where !["time", "level", "logger", "message"].contains(key) {
                line += ",\(JSONString.quoted(key)):\(JSONString.quoted(value.description))"
            }
            FileHandle.standardError.write(Data((line + "}\n").utf8))
        }

        /// RFC 3339 with milliseconds, in UTC.
        private static func timestamp() -> String {
            Date.ISO8601FormatStyle(includingFractionalSeconds: true).format(Date())
        }
    }
#endif
