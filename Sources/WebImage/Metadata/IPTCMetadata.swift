import Foundation

/// The IPTC-IIM metadata of a JPEG or TIFF file and Photoshop's resolution info, as imgproxy's
/// `/info` endpoint reports them under `iptc` and `photoshop.resolution`.
///
/// ```swift
/// let iptc = IPTCMetadata(file: data)
/// iptc.fields["Keywords"]  // .list([.text("spider-man"), .text("menace")])
/// iptc.photoshopResolution["XResolution"]  // .integer(240)
/// ```
///
/// JPEG keeps both in the Photoshop image resources of its APP13 `Photoshop 3.0` segments
/// (IPTC in resource 0x0404, the resolution in 0x03ED); TIFF in IFD0's tags 33723 (IPTC) and
/// 34377 (the resources). Other formats give an empty value: PNG and WebP have no standard place
/// for IPTC.
public struct IPTCMetadata: Sendable, Hashable {
    /// The datasets by the names imgproxy uses, the IIM titles (`Object Name`, `By-line`,
    /// `Copyright Notice`, `Caption/Abstract`), with Object Name and Caption/Abstract also
    /// reported as `Name` and `Caption`. A repeatable dataset (`Keywords`, `By-line`) is a list
    /// even with one value; any other dataset is its last value. Text is UTF-8 when valid and
    /// ISO 8859-1 otherwise; numeric datasets are whole numbers; binary datasets are left out.
    public var fields: [String: MetadataValue]
    /// `XResolution`, `XResolutionUnit`, `WidthUnit`, `YResolution`, `YResolutionUnit` and
    /// `HeightUnit` from Photoshop's ResolutionInfo (resolutions as numbers, units as `"inches"`,
    /// `"cm"` and, for sizes, `"points"`, `"picas"` or `"columns"`); empty without the resource.
    public var photoshopResolution: [String: MetadataValue]

    /// Whether neither IPTC datasets nor the resolution were found.
    public var isEmpty: Bool { fields.isEmpty && photoshopResolution.isEmpty }

    public init(fields: [String: MetadataValue] = [:], photoshopResolution: [String: MetadataValue] = [:]) {
        self.fields = fields
        self.photoshopResolution = photoshopResolution
    }

    /// Reads the metadata of a whole file. Any bytes are safe to pass: a block that runs past
    /// the data or a truncated file gives what was read before it.
    public init(file: Data) {
        let sources: (iim: [ArraySlice<UInt8>], resources: [UInt8]) = file.withUnsafeBytes { bytes in
            switch ImageFormat(detecting: file) {
            case .jpeg:
                // A resource block may continue into the next APP13 segment: read them as one.
                let layout = JPEGMarkers.layout(of: bytes, throughScans: false)
                return ([], layout.photoshopPayloads.flatMap { bytes[$0] })
            case .tiff:
                return Self.tiffSources(bytes)
            default:
                return ([], [])
            }
        }
        var reader = IPTCReader()
        var resolution: [String: MetadataValue]?
        for slice in sources.iim { reader.read(slice) }
        for block in PhotoshopResources.blocks(in: sources.resources) {
            switch block.id {
            case PhotoshopResources.iptcID: reader.read(sources.resources[block.data])
            case PhotoshopResources.resolutionID where resolution == nil:
                resolution = PhotoshopResources.resolution(sources.resources[block.data])
            default: break
            }
        }
        self.init(fields: reader.fields, photoshopResolution: resolution ?? [:])
    }

    /// The IPTC tag's bytes and the Photoshop resources tag's bytes of a TIFF file's IFD0.
    private static func tiffSources(_ bytes: UnsafeRawBufferPointer) -> ([ArraySlice<UInt8>], [UInt8]) {
        guard let reader = TIFFReader(bytes), let ifd = reader.firstIFD else { return ([], []) }
        var iim: [ArraySlice<UInt8>] = []
        var resources: [UInt8] = []
        for entry in reader.entries(inIFDAt: ifd) {
            switch entry.tag {
            case 0x83BB where iim.isEmpty: iim.append(reader.rawBytes(of: entry)[...])
            case 0x8649 where resources.isEmpty: resources = reader.rawBytes(of: entry)
            default: break
            }
        }
        return (iim, resources)
    }
}
