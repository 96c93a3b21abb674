import Foundation

/// Turns an EXIF entry into a ``MetadataValue``.
///
/// By type: ASCII as text (see ``EXIFText/ascii(_:)``); BYTE, SHORT, LONG and their signed kinds
/// as whole numbers; RATIONAL and SRATIONAL as exact fraction text such as `"1/250"` (not a
/// decimal, which would round); FLOAT and DOUBLE as numbers; UNDEFINED as text when it is
/// printable ASCII (`ExifVersion` reads `"0230"`) and skipped otherwise. A tag with several
/// components is a list.
///
/// Some tags read as libexif prints them, as imgproxy's `/info` shows them: enumerated tags by
/// meaning (``EXIFValueMeanings``), `ExposureTime` as `"1/250 sec."`, `FNumber` as `"f/16.0"`,
/// `ApertureValue` as `"8.00 EV (f/16.0)"`, `FocalLength` as `"50.0 mm"`, `UserComment` as its
/// text, `GPSTimeStamp` as `"14:30:05.00"`.
enum EXIFValueFormatting {
    /// A numeric tag with more components than this is data (strip offsets, a transfer
    /// function), not a description: it is skipped.
    static let maxComponents = 256

    /// The value of `entry`, read from `directory`; nil when it is empty, binary or too large.
    static func value(of entry: TIFFEntry, in directory: EXIFDirectory, reader: TIFFReader) -> MetadataValue? {
        guard entry.count > 0 else { return nil }
        let special = directory == .gps ? gpsValue(entry, reader) : imageValue(entry, reader)
        return special ?? plainValue(entry, reader)
    }

    /// The value by its type alone.
    static func plainValue(_ entry: TIFFEntry, _ reader: TIFFReader) -> MetadataValue? {
        switch entry.type {
        case .ascii:
            return EXIFText.ascii(reader.bytes[entry.valueRange]).map(MetadataValue.text)
        case .undefined:
            guard entry.count <= EXIFText.maxBytes else { return nil }
            return EXIFText.printable(reader.rawBytes(of: entry)).map(MetadataValue.text)
        case _ where entry.count > maxComponents:
            return nil
        case .rational, .signedRational:
            return single(reader.rationals(of: entry)?.map { .text("\($0.numerator)/\($0.denominator)") })
        case .float, .double:
            // JSON has no NaN or infinity: such a component makes the tag unreadable.
            guard let reals = reader.reals(of: entry), reals.allSatisfy(\.isFinite) else { return nil }
            return single(reals.map(MetadataValue.number))
        default:
            return single(reader.integers(of: entry)?.map(MetadataValue.integer))
        }
    }

    /// One component as itself, several as a list.
    private static func single(_ values: [MetadataValue]?) -> MetadataValue? {
        guard let values, let first = values.first else { return nil }
        return values.count == 1 ? first : .list(values)
    }

    /// The tags of IFD0 and the Exif and Interoperability IFDs that read as libexif prints them;
    /// nil to read the value by its type.
    private static func imageValue(_ entry: TIFFEntry, _ reader: TIFFReader) -> MetadataValue? {
        let tag = entry.tag
        if EXIFValueMeanings.isEnumerated(tag) {
            guard entry.count == 1, entry.type != .ascii, let value = reader.integers(of: entry)?.first else {
                return nil
            }
            return EXIFValueMeanings.meaning(of: value, tag: tag).map(MetadataValue.text) ?? .integer(value)
        }
        let text: String?
        switch tag {
        case 0x829A: text = ratio(entry, reader).map(exposureTime)
        case 0x829D: text = ratio(entry, reader).map { String(format: "f/%.1f", $0) }
        case 0x9201: text = ratio(entry, reader).map { "\(ev($0)) (\(exposureTime(1 / pow(2, $0))))" }
        case 0x9202, 0x9205:
            text = ratio(entry, reader).map { "\(ev($0)) (f/\(String(format: "%.1f", pow(2, $0 / 2))))" }
        case 0x9203, 0x9204: text = ratio(entry, reader).map(ev)
        case 0x9206: text = ratio(entry, reader).map { String(format: "%.1f m", $0) }
        case 0x920A: text = ratio(entry, reader).map { String(format: "%.1f mm", $0) }
        case 0x9286: text = EXIFText.withCharacterCode(reader.rawBytes(of: entry), littleEndian: reader.littleEndian)
        case 0x9101: text = componentsConfiguration(entry, reader)
        case 0xA300: text = byteMeaning(entry, reader, [3: "DSC"])  // FileSource
        case 0xA301: text = byteMeaning(entry, reader, [1: "Directly photographed"])  // SceneType
        case 0x0212: text = yCbCrSubSampling(entry, reader)
        case 0x9C9B...0x9C9F:  // XPTitle, XPComment, XPAuthor, XPKeywords, XPSubject: always UTF-16LE
            text =
                entry.count <= EXIFText.maxBytes ? EXIFText.utf16(reader.rawBytes(of: entry), littleEndian: true) : nil
        default: text = nil
        }
        return text.map(MetadataValue.text)
    }

    /// The tags of the GPS IFD with a format of their own; nil to read the value by its type.
    private static func gpsValue(_ entry: TIFFEntry, _ reader: TIFFReader) -> MetadataValue? {
        switch entry.tag {
        case 0x0000:  // GPSVersionID: four bytes, 2.2.0.0
            guard entry.count == 4, let parts = reader.integers(of: entry) else { return nil }
            return .text(parts.map(String.init).joined(separator: "."))
        case 0x0005:  // GPSAltitudeRef
            return byteMeaning(entry, reader, [0: "Sea level", 1: "Sea level reference"]).map(MetadataValue.text)
        case 0x0007:  // GPSTimeStamp: hours, minutes, seconds
            guard entry.count == 3, let parts = reader.rationals(of: entry), parts.count == 3,
                parts.allSatisfy({ $0.denominator != 0 })
            else { return nil }
            let hours = parts[0].numerator / parts[0].denominator
            let minutes = parts[1].numerator / parts[1].denominator
            let seconds = Double(parts[2].numerator) / Double(parts[2].denominator)
            return .text("\(twoDigits(hours)):\(twoDigits(minutes)):\(String(format: "%05.2f", seconds))")
        case 0x001B, 0x001C:  // GPSProcessingMethod, GPSAreaInformation
            return EXIFText.withCharacterCode(reader.rawBytes(of: entry), littleEndian: reader.littleEndian)
                .map(MetadataValue.text)
        default:
            return nil
        }
    }

    /// The single RATIONAL or SRATIONAL component of `entry` as a number; nil for another type,
    /// several components or a zero denominator.
    private static func ratio(_ entry: TIFFEntry, _ reader: TIFFReader) -> Double? {
        guard entry.count == 1, let value = reader.rationals(of: entry)?.first, value.denominator != 0 else {
            return nil
        }
        return Double(value.numerator) / Double(value.denominator)
    }

    /// An APEX value: `"8.00 EV"`.
    private static func ev(_ value: Double) -> String { String(format: "%.2f EV", value) }

    /// A time in seconds: `"1/250 sec."` below a second, `"2 sec."` otherwise.
    private static func exposureTime(_ seconds: Double) -> String {
        seconds > 0 && seconds < 1 ? String(format: "1/%.0f sec.", 1 / seconds) : String(format: "%.0f sec.", seconds)
    }

    private static func twoDigits(_ value: Int) -> String { value >= 0 && value < 10 ? "0\(value)" : "\(value)" }

    /// A one-component tag whose values `meanings` names; nil for another shape or value.
    private static func byteMeaning(_ entry: TIFFEntry, _ reader: TIFFReader, _ meanings: [Int: String]) -> String? {
        guard entry.count == 1, let value = reader.integers(of: entry)?.first else { return nil }
        return meanings[value]
    }

    /// `ComponentsConfiguration`: the channel in each of four positions, `"Y Cb Cr -"`.
    private static func componentsConfiguration(_ entry: TIFFEntry, _ reader: TIFFReader) -> String? {
        guard entry.count == 4, entry.type == .undefined, let channels = reader.integers(of: entry) else { return nil }
        let names = ["-", "Y", "Cb", "Cr", "R", "G", "B"]
        return channels.map { $0 < names.count ? names[$0] : "Reserved" }.joined(separator: " ")
    }

    /// `YCbCrSubSampling`: the two common pairs by name, others as numbers.
    private static func yCbCrSubSampling(_ entry: TIFFEntry, _ reader: TIFFReader) -> String? {
        guard entry.count == 2, let factors = reader.integers(of: entry) else { return nil }
        switch (factors.first, factors.last) {
        case (2, 1): return "YCbCr4:2:2"
        case (2, 2): return "YCbCr4:2:0"
        default: return nil
        }
    }
}
