import Foundation
import WebImageTestOrigin

/// A span as an OTLP export carries it, ids in lower-case hex.
struct ExportedSpan: Equatable {
    var traceID: String
    var spanID: String
    /// Empty for a root span.
    var parentSpanID: String
    var name: String
    /// OTLP's `SpanKind`: 1 internal, 2 server, 3 client.
    var kind: Int
    /// Attribute values as text.
    var attributes: [String: String]
}

/// Just enough of OTLP's trace and metric messages, in protobuf and in JSON, to check what the
/// service exports: spans with their ids, kind and attributes, and metric names.
enum OTLPDecoding {
    struct Malformed: Error { let what: String }

    /// The spans of an `ExportTraceServiceRequest`.
    static func spans(_ export: OTLPReceiver.Export) throws -> [ExportedSpan] {
        if export.contentType.hasPrefix("application/json") {
            let root = try jsonObject(export.body)
            return try array(root["resourceSpans"]).flatMap { resource in
                try array(resource["scopeSpans"]).flatMap { scope in try array(scope["spans"]).map(jsonSpan) }
            }
        }
        var spans: [ExportedSpan] = []
        for resource in try ProtobufFields(export.body).messages(1) {
            for scope in try ProtobufFields(resource).messages(2) {
                for span in try ProtobufFields(scope).messages(2) { spans.append(try protobufSpan(span)) }
            }
        }
        return spans
    }

    /// The metric names of an `ExportMetricsServiceRequest`.
    static func metricNames(_ export: OTLPReceiver.Export) throws -> Set<String> {
        if export.contentType.hasPrefix("application/json") {
            let root = try jsonObject(export.body)
            return Set(
                try array(root["resourceMetrics"]).flatMap { resource in
                    try array(resource["scopeMetrics"]).flatMap { scope in
                        try array(scope["metrics"]).compactMap { $0["name"] as? String }
                    }
                })
        }
        var names: Set<String> = []
        for resource in try ProtobufFields(export.body).messages(1) {
            for scope in try ProtobufFields(resource).messages(2) {
                for metric in try ProtobufFields(scope).messages(2) {
                    if let name = try ProtobufFields(metric).strings(1).first { names.insert(name) }
                }
            }
        }
        return names
    }

    private static func protobufSpan(_ data: Data) throws -> ExportedSpan {
        let fields = try ProtobufFields(data)
        var attributes: [String: String] = [:]
        for pair in fields.messages(9) {
            let keyValue = try ProtobufFields(pair)
            guard let key = keyValue.strings(1).first, let value = keyValue.messages(2).first else { continue }
            let any = try ProtobufFields(value)
            attributes[key] = any.strings(1).first ?? any.varints(3).first.map { String(Int64(bitPattern: $0)) } ?? ""
        }
        return ExportedSpan(
            traceID: hex(fields.bytes(1).first ?? Data()), spanID: hex(fields.bytes(2).first ?? Data()),
            parentSpanID: hex(fields.bytes(4).first ?? Data()), name: fields.strings(5).first ?? "",
            kind: Int(fields.varints(6).first ?? 0), attributes: attributes)
    }

    private static func jsonSpan(_ span: [String: Any]) throws -> ExportedSpan {
        var attributes: [String: String] = [:]
        for pair in try array(span["attributes"]) {
            guard let key = pair["key"] as? String, let value = pair["value"] as? [String: Any] else { continue }
            attributes[key] = (value["stringValue"] as? String) ?? (value["intValue"].map { "\($0)" }) ?? ""
        }
        return ExportedSpan(
            traceID: try jsonID(span["traceId"]), spanID: try jsonID(span["spanId"]),
            parentSpanID: try jsonID(span["parentSpanId"]), name: span["name"] as? String ?? "",
            kind: (span["kind"] as? Int) ?? 0, attributes: attributes)
    }

    /// An id in OTLP JSON: hex as the OTLP spec says, or base64 as protobuf's JSON mapping writes
    /// bytes (what swift-otel 1.6 sends).
    private static func jsonID(_ value: Any?) throws -> String {
        guard let text = value as? String, !text.isEmpty else { return "" }
        if text.count == 32 || text.count == 16, text.allSatisfy(\.isHexDigit) { return text.lowercased() }
        guard let bytes = Data(base64Encoded: text) else { throw Malformed(what: "id \(text)") }
        return hex(bytes)
    }

    private static func jsonObject(_ data: Data) throws -> [String: Any] {
        guard let object = try JSONSerialization.jsonObject(with: data) as? [String: Any] else {
            throw Malformed(what: "not a JSON object")
        }
        return object
    }

    private static func array(_ value: Any?) throws -> [[String: Any]] {
        guard let value else { return [] }
        guard let array = value as? [[String: Any]] else { throw Malformed(what: "not an array of objects") }
        return array
    }

    static func hex(_ data: Data) -> String {
        data.map { String(format: "%02x", $0) }.joined()
    }
}

/// The fields of one protobuf message, by number: varints, and length-delimited values (bytes,
/// strings, nested messages); fixed-width values are skipped.
struct ProtobufFields {
    private var varintFields: [Int: [UInt64]] = [:]
    private var lengthDelimited: [Int: [Data]] = [:]

    init(_ data: Data) throws {
        let bytes = [UInt8](data)
        var index = 0
        func varint() throws -> UInt64 {
            var value: UInt64 = 0
            var shift: UInt64 = 0
            while true {
                guard index < bytes.count, shift < 64 else { throw OTLPDecoding.Malformed(what: "varint") }
                let byte = bytes[index]
                index += 1
                value |= UInt64(byte & 0x7f) << shift
                if byte & 0x80 == 0 { return value }
                shift += 7
            }
        }
        while index < bytes.count {
            let tag = try varint()
            let field = Int(tag >> 3)
            switch tag & 7 {
            case 0: varintFields[field, default: []].append(try varint())
            case 1: index += 8
            case 2:
                let length = Int(try varint())
                guard length >= 0, index + length <= bytes.count else { throw OTLPDecoding.Malformed(what: "length") }
                lengthDelimited[field, default: []].append(Data(bytes[index..<(index + length)]))
                index += length
            case 5: index += 4
            default: throw OTLPDecoding.Malformed(what: "wire type \(tag & 7)")
            }
        }
        guard index == bytes.count else { throw OTLPDecoding.Malformed(what: "truncated field") }
    }

    func varints(_ field: Int) -> [UInt64] { varintFields[field] ?? [] }
    func bytes(_ field: Int) -> [Data] { lengthDelimited[field] ?? [] }
    func messages(_ field: Int) -> [Data] { bytes(field) }
    func strings(_ field: Int) -> [String] { bytes(field).map { String(decoding: $0, as: UTF8.self) } }
}
