/// Reads IPTC-IIM datasets: each is the tag marker 0x1C, a record and a dataset number, a
/// big-endian 16-bit length (or, with its top bit set, the width of a longer length that
/// follows) and the data.
///
/// Bytes between datasets that are not a marker are skipped one at a time; a dataset whose
/// length runs past the data ends the read. Datasets the table (``IPTCDataset``) does not list,
/// and numbers that are not one to four bytes long, are left out.
struct IPTCReader {
    /// The most datasets read from one file, and the most values one repeated dataset collects.
    static let maxDatasets = 10_000
    static let maxRepetitions = 1_000

    private var single: [String: MetadataValue] = [:]
    private var repeated: [String: [MetadataValue]] = [:]
    private var datasetCount = 0

    /// The values read so far by name: a repeatable dataset as a list, any other by its last value.
    var fields: [String: MetadataValue] {
        single.merging(repeated.mapValues(MetadataValue.list)) { _, list in list }
    }

    /// Reads the datasets of `bytes`.
    mutating func read(_ bytes: ArraySlice<UInt8>) {
        var index = bytes.startIndex
        let end = bytes.endIndex
        while end - index >= 5, datasetCount < Self.maxDatasets {
            guard bytes[index] == 0x1C else {
                index += 1
                continue
            }
            let record = Int(bytes[index + 1])
            let number = Int(bytes[index + 2])
            var length = Int(bytes[index + 3]) << 8 | Int(bytes[index + 4])
            var start = index + 5
            if length & 0x8000 != 0 {
                // An extended length: the low 15 bits say how many bytes hold the real one.
                let width = length & 0x7FFF
                guard width >= 1, width <= 8, width <= end - start else { return }
                length = 0
                for byte in bytes[start..<(start + width)] {
                    guard length <= end >> 8 else { return }  // already longer than the data
                    length = length << 8 | Int(byte)
                }
                start += width
            }
            guard length <= end - start else { return }
            add(record: record, number: number, bytes[start..<(start + length)])
            datasetCount += 1
            index = start + length
        }
    }

    private mutating func add(record: Int, number: Int, _ data: ArraySlice<UInt8>) {
        guard let dataset = IPTCDataset.at(record: record, number: number), let value = Self.value(data, dataset.kind)
        else { return }
        if dataset.repeatable {
            if repeated[dataset.name, default: []].count < Self.maxRepetitions {
                repeated[dataset.name, default: []].append(value)
            }
        } else {
            single[dataset.name] = value
            if record == 2, let alias = IPTCDataset.aliases[dataset.name] { single[alias] = value }
        }
    }

    /// Text without trailing NULs, as UTF-8 when it is valid UTF-8 and as ISO 8859-1 otherwise
    /// (what IIM writers used before UTF-8); numbers big-endian.
    private static func value(_ data: ArraySlice<UInt8>, _ kind: IPTCDataset.Kind) -> MetadataValue? {
        switch kind {
        case .integer:
            guard (1...4).contains(data.count) else { return nil }
            return .integer(data.reduce(0) { $0 << 8 | Int($1) })
        case .text:
            var text = data
            while text.last == 0 { text = text.dropLast() }
            if let utf8 = String(validating: text, as: UTF8.self) { return .text(utf8) }
            return .text(String(String.UnicodeScalarView(text.map { Unicode.Scalar($0) })))
        }
    }
}
