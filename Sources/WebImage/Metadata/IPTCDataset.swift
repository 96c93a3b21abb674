/// An IPTC-IIM dataset the reader knows: where it is (record and dataset number), the name
/// imgproxy's `/info` reports it under (the IIM specification's title), whether its value is
/// text or a number, and whether it may repeat (then its values form a list, even of one).
struct IPTCDataset: Sendable {
    enum Kind: Sendable {
        /// Text, dates (`CCYYMMDD`) and times (`HHMMSS±HHMM`) included.
        case text
        /// A big-endian unsigned number of one to four bytes.
        case integer
    }

    var record: Int
    var number: Int
    var name: String
    var kind: Kind
    var repeatable: Bool

    init(_ record: Int, _ number: Int, _ name: String, _ kind: Kind, repeatable: Bool = false) {
        self.record = record
        self.number = number
        self.name = name
        self.kind = kind
        self.repeatable = repeatable
    }

    /// The dataset at `record`:`number`, or nil for one the table does not list.
    static func at(record: Int, number: Int) -> IPTCDataset? { byKey[record << 8 | number] }

    /// Record 2's Object Name and Caption/Abstract are also reported as `Name` and `Caption`,
    /// as imgproxy does for older clients.
    static let aliases: [String: String] = ["Object Name": "Name", "Caption/Abstract": "Caption"]

    private static let byKey: [Int: IPTCDataset] = Dictionary(
        all.map { ($0.record << 8 | $0.number, $0) }, uniquingKeysWith: { first, _ in first })

    /// Records 1 (envelope), 2 (application), 7 and 9 of IIM 4.2. Binary datasets (the coded
    /// character set, the rasterized caption, preview data, record 8's subfiles) are left out:
    /// they have no JSON form worth reporting.
    static let all: [IPTCDataset] = [
        IPTCDataset(1, 0, "Model Version", .integer),
        IPTCDataset(1, 5, "Destination", .text, repeatable: true),
        IPTCDataset(1, 20, "File Format", .integer),
        IPTCDataset(1, 22, "File Version", .integer),
        IPTCDataset(1, 30, "Service Identifier", .text),
        IPTCDataset(1, 40, "Envelope Number", .text),
        IPTCDataset(1, 50, "Product I.D.", .text, repeatable: true),
        IPTCDataset(1, 60, "Envelope Priority", .text),
        IPTCDataset(1, 70, "Date Sent", .text),
        IPTCDataset(1, 80, "Time Sent", .text),
        IPTCDataset(1, 100, "Unique Name of Object", .text),
        IPTCDataset(1, 120, "ARM Identifier", .integer),
        IPTCDataset(1, 122, "ARM Version", .integer),
        IPTCDataset(2, 0, "Record Version", .integer),
        IPTCDataset(2, 3, "Object Type Reference", .text),
        IPTCDataset(2, 4, "Object Attribute Reference", .text, repeatable: true),
        IPTCDataset(2, 5, "Object Name", .text),
        IPTCDataset(2, 7, "Edit Status", .text),
        IPTCDataset(2, 8, "Editorial Update", .text),
        IPTCDataset(2, 10, "Urgency", .text),
        IPTCDataset(2, 12, "Subject Reference", .text, repeatable: true),
        IPTCDataset(2, 15, "Category", .text),
        IPTCDataset(2, 20, "Supplemental Category", .text, repeatable: true),
        IPTCDataset(2, 22, "Fixture Identifier", .text),
        IPTCDataset(2, 25, "Keywords", .text, repeatable: true),
        IPTCDataset(2, 26, "Content Location Code", .text, repeatable: true),
        IPTCDataset(2, 27, "Content Location Name", .text, repeatable: true),
        IPTCDataset(2, 30, "Release Date", .text),
        IPTCDataset(2, 35, "Release Time", .text),
        IPTCDataset(2, 37, "Expiration Date", .text),
        IPTCDataset(2, 38, "Expiration Time", .text),
        IPTCDataset(2, 40, "Special Instructions", .text),
        IPTCDataset(2, 42, "Action Advised", .text),
        IPTCDataset(2, 45, "Reference Service", .text, repeatable: true),
        IPTCDataset(2, 47, "Reference Date", .text, repeatable: true),
        IPTCDataset(2, 50, "Reference Number", .text, repeatable: true),
        IPTCDataset(2, 55, "Date Created", .text),
        IPTCDataset(2, 60, "Time Created", .text),
        IPTCDataset(2, 62, "Digital Creation Date", .text),
        IPTCDataset(2, 63, "Digital Creation Time", .text),
        IPTCDataset(2, 65, "Originating Program", .text),
        IPTCDataset(2, 70, "Program Version", .text),
        IPTCDataset(2, 75, "Object Cycle", .text),
        IPTCDataset(2, 80, "By-line", .text, repeatable: true),
        IPTCDataset(2, 85, "By-line Title", .text, repeatable: true),
        IPTCDataset(2, 90, "City", .text),
        IPTCDataset(2, 92, "Sub-location", .text),
        IPTCDataset(2, 95, "Province/State", .text),
        IPTCDataset(2, 100, "Country Code", .text),
        IPTCDataset(2, 101, "Country Name", .text),
        IPTCDataset(2, 103, "Original Transmission Reference", .text),
        IPTCDataset(2, 105, "Headline", .text),
        IPTCDataset(2, 110, "Credit", .text),
        IPTCDataset(2, 115, "Source", .text),
        IPTCDataset(2, 116, "Copyright Notice", .text),
        IPTCDataset(2, 118, "Contact", .text, repeatable: true),
        IPTCDataset(2, 120, "Caption/Abstract", .text),
        IPTCDataset(2, 122, "Writer/Editor", .text, repeatable: true),
        IPTCDataset(2, 130, "Image Type", .text),
        IPTCDataset(2, 131, "Image Orientation", .text),
        IPTCDataset(2, 135, "Language Identifier", .text),
        IPTCDataset(2, 150, "Audio Type", .text),
        IPTCDataset(2, 151, "Audio Sampling Rate", .text),
        IPTCDataset(2, 152, "Audio Sampling Resolution", .text),
        IPTCDataset(2, 153, "Audio Duration", .text),
        IPTCDataset(2, 154, "Audio Outcue", .text),
        IPTCDataset(2, 200, "Preview File Format", .integer),
        IPTCDataset(2, 201, "Preview File Format Version", .integer),
        IPTCDataset(7, 10, "Size Mode", .integer),
        IPTCDataset(7, 20, "Max Subfile Size", .integer),
        IPTCDataset(7, 90, "Object Size Announced", .integer),
        IPTCDataset(7, 95, "Maximum Object Size", .integer),
        IPTCDataset(9, 10, "Confirmed Data Size", .integer),
    ]
}
