import Foundation

/// The IFDs of an EXIF block that hold fields: tag numbers mean different things in the GPS IFD.
enum EXIFDirectory: CaseIterable {
    /// IFD0, the main image's TIFF tags.
    case image
    /// The Exif sub-IFD (pointer 0x8769): camera settings and dates.
    case exif
    /// The GPS IFD (pointer 0x8825).
    case gps
    /// The Interoperability IFD (pointer 0xA005).
    case interoperability
}

/// Reads the named, formatted fields of TIFF-structured EXIF data: IFD0, then the Exif, GPS and
/// Interoperability IFDs it points to. IFD1 (the thumbnail's tags) is not read.
///
/// Any bytes are safe to pass: every read is bounds-checked (``TIFFReader``), each IFD is read
/// at most once, whatever its pointers say, so a loop ends, and no value larger than the data
/// or than ``EXIFValueFormatting``'s caps is built.
enum EXIFFieldReader {
    /// The pointer tags that lead to the sub-IFDs, and which IFDs may hold each.
    private static let pointers: [(tag: Int, target: EXIFDirectory, foundIn: Set<EXIFDirectory>)] = [
        (0x8769, .exif, [.image]), (0x8825, .gps, [.image]),
        // Some writers put the Interoperability pointer in IFD0 rather than the Exif IFD.
        (0xA005, .interoperability, [.exif, .image]),
    ]

    /// Structure and large binary data rather than descriptions: the pointers themselves, the
    /// maker note (a vendor's private format), and blocks reported elsewhere (XMP, IPTC, the
    /// Photoshop resources, the ICC profile) or meaningless (padding, print settings).
    private static let skippedTags: Set<Int> = [
        0x8769, 0x8825, 0xA005, 0x014A, 0x927C, 0x02BC, 0x83BB, 0x8649, 0x8773, 0xC4A5, 0xEA1C,
    ]

    /// The most fields read, and the most value bytes read in all: a block of 65,535 entries per
    /// IFD whose values all overlap would otherwise yield gigabytes of text from kilobytes of data.
    static let maxFieldCount = 1024
    static let maxValueBytes = 1 << 20

    /// The fields of `tiff` (which may carry a stray `Exif\0\0` prefix), keyed by canonical name
    /// or by readable title. When two tags share a name, the first read wins (IFD0 first).
    static func fields(in tiff: Data, canonicalNames: Bool) -> [String: MetadataValue] {
        tiff.withUnsafeBytes { raw in
            let signature = EXIFOrientation.signature
            let hasPrefix = raw.count >= signature.count && raw.prefix(signature.count).elementsEqual(signature)
            let body = hasPrefix ? UnsafeRawBufferPointer(rebasing: raw[signature.count...]) : raw
            guard let reader = TIFFReader(body) else { return [:] }
            return fields(of: reader, canonicalNames: canonicalNames)
        }
    }

    private static func fields(of reader: TIFFReader, canonicalNames: Bool) -> [String: MetadataValue] {
        var fields: [String: MetadataValue] = [:]
        var pending: [(offset: Int, directory: EXIFDirectory)] = []
        if let first = reader.firstIFD { pending.append((first, .image)) }
        // Each IFD is queued once (the first pointer to it wins) and each offset read once, so
        // an IFD that points at itself or at another IFD ends the walk instead of looping it.
        var queued: Set<EXIFDirectory> = [.image]
        var visitedOffsets: Set<Int> = []
        var budget = maxValueBytes
        while !pending.isEmpty {
            let (offset, directory) = pending.removeFirst()
            guard visitedOffsets.insert(offset).inserted else { continue }
            for entry in reader.entries(inIFDAt: offset) {
                if let pointer = pointers.first(where: { $0.tag == entry.tag }), directory != .gps {
                    if pointer.foundIn.contains(directory), !queued.contains(pointer.target), entry.count == 1,
                        let target = reader.integers(of: entry)?.first
                    {
                        queued.insert(pointer.target)
                        pending.append((target, pointer.target))
                    }
                    continue
                }
                if directory != .gps, skippedTags.contains(entry.tag) { continue }
                let name = EXIFTagName.of(entry.tag, in: directory) ?? .unknown(entry.tag)
                let key = canonicalNames ? name.canonical : name.title
                guard fields[key] == nil, entry.valueRange.count <= budget,
                    let value = EXIFValueFormatting.value(of: entry, in: directory, reader: reader)
                else { continue }
                fields[key] = value
                budget -= entry.valueRange.count
                if fields.count >= maxFieldCount { return fields }
            }
        }
        return fields
    }
}
