import Foundation

@testable import WebImage

/// One format's committed fixtures and the coder its tests decode them with. `data("photo")` is
/// `Tests/Fixtures/<folder>/photo.<fileExtension>`; `reference("photo", size)` is the reference
/// decode its generator wrote beside it, as raw RGBA (`photo.rgba`).
protocol CoderFixtures: SendableMetatype {
    static var folder: String { get }
    static var fileExtension: String { get }
    /// What ``encode(_:_:)`` writes.
    static var format: ImageFormat { get }
    /// What ``decode(_:_:)`` decodes with.
    static var coder: any ImageCoding { get }
}

extension CoderFixtures {
    static func data(_ name: String) throws -> Data {
        try Fixtures.data("\(folder)/\(name).\(fileExtension)")
    }

    static func reference(_ name: String, _ size: PixelSize) throws -> ImageBitmap {
        try Fixtures.pixels("\(folder)/\(name).rgba", size)
    }

    static func decode(_ data: Data, _ configure: (inout ImageDecodeOptions) -> Void = { _ in }) throws -> Image {
        try coder.decode(data, configure)
    }

    /// `image` as ``format``, through the shared coders manager.
    static func encode(_ image: Image, _ configure: (inout ImageEncodeOptions) -> Void = { _ in }) throws -> Data {
        try ImageCodersManager.shared.encode(image, as: format, configure)
    }

    /// The reference pixels of the 192×128 `photo` fixture (seeded noise over gradients), as an
    /// opaque image to encode.
    static func photo() throws -> Image {
        Image(bitmap: try reference("photo", PixelSize(width: 192, height: 128)), format: .png, hasAlpha: false)
    }
}
