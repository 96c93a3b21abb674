import Foundation

@testable import WebImage

/// Other projects' hashes of the pictures in `Tests/Fixtures/analysis`, written once by
/// `reference-hashes.py` there (imagehash, blurhash, thumbhash-python).
struct ReferenceHashes: Decodable {
    let phash: [String: String]
    let blurhash4x3: [String: String]
    let thumbhash: [String: String]

    enum CodingKeys: String, CodingKey {
        case phash
        case blurhash4x3 = "blurhash_4x3"
        case thumbhash
    }

    static func load() throws -> ReferenceHashes {
        try JSONDecoder().decode(ReferenceHashes.self, from: Fixtures.data("analysis/reference-hashes.json"))
    }

    /// The picture `name` of that folder, decoded.
    static func image(_ name: String) throws -> Image {
        try ImageCodersManager.shared.decode(Fixtures.data("analysis/\(name)"), options: ImageDecodeOptions())
    }
}
