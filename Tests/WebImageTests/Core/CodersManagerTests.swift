import Foundation
import Testing

@testable import WebImage

/// A coder that claims data starting with a marker byte and decodes it to a 1×1 pixel of that value.
struct MarkerCoder: ImageCoding {
    let marker: UInt8

    func canDecode(_ data: Data) -> Bool { data.first == marker }
    func imageInfo(for data: Data) throws(WebImageError) -> ImageInfo {
        ImageInfo(format: .undefined, width: 1, height: 1, hasAlpha: false)
    }
    func decode(_ data: Data, options: ImageDecodeOptions) throws(WebImageError) -> Image {
        Image(bitmap: ImageBitmap(width: 1, height: 1, fill: RGBA8(r: marker, g: 0, b: 0)), hasAlpha: false)
    }
    func canEncode(to format: ImageFormat) -> Bool { format == .bmp }
    func encode(_ image: Image, as format: ImageFormat, options: ImageEncodeOptions) throws(WebImageError) -> Data {
        Data([marker])
    }
}

@Suite("Coders manager")
struct CodersManagerTests {
    @Test("The newest coder is tried first")
    func newestFirst() throws {
        let manager = ImageCodersManager(coders: [])
        manager.addCoder(MarkerCoder(marker: 7))
        manager.addCoder(MarkerCoder(marker: 7))
        manager.addCoder(MarkerCoder(marker: 9))
        #expect(manager.coders.count == 3)
        #expect((manager.coders.first as? MarkerCoder)?.marker == 9)
        let image = try manager.decode(Data([7]), options: ImageDecodeOptions())
        #expect(image.bitmap[0, 0].r == 7)
        #expect(try manager.encode(image, as: .bmp, options: ImageEncodeOptions()) == Data([9]))
        manager.removeCoders(ofType: MarkerCoder.self)
        #expect(manager.coders.isEmpty)
    }

    @Test("Empty data, unknown data and known-but-unsupported formats fail with typed errors")
    func failuresAreTyped() {
        let manager = ImageCodersManager(coders: [MarkerCoder(marker: 1)])
        #expect(throws: WebImageError.badImageData("the data is empty")) {
            try manager.decode(Data(), options: ImageDecodeOptions())
        }
        #expect(throws: WebImageError.badImageData("the data is not in any known image format")) {
            try manager.decode(Data("garbage".utf8), options: ImageDecodeOptions())
        }
        let heic = Data([0, 0, 0, 0x18] + Array("ftypheic\0\0\0\0".utf8))
        #expect(throws: WebImageError.unsupportedFormat(.heic)) {
            try manager.imageInfo(for: heic)
        }
        let image = Image(bitmap: ImageBitmap(width: 1, height: 1, fill: .white))
        #expect(throws: WebImageError.unsupportedFormat(.tiff)) {
            try manager.encode(image, as: .tiff, options: ImageEncodeOptions())
        }
    }

    @Test("Without a format, encoding follows SDWebImage's rule")
    func defaultEncodingFormat() {
        let pixel = ImageBitmap(width: 1, height: 1, fill: .white)
        #expect(ImageCodersManager.defaultEncodingFormat(for: Image(bitmap: pixel, format: .webp)) == .webp)
        #expect(ImageCodersManager.defaultEncodingFormat(for: Image(bitmap: pixel, hasAlpha: true)) == .png)
        #expect(ImageCodersManager.defaultEncodingFormat(for: Image(bitmap: pixel, hasAlpha: false)) == .jpeg)
        let frames = [ImageFrame(bitmap: pixel, duration: 0.1), ImageFrame(bitmap: pixel, duration: 0.1)]
        let animated = Image(bitmap: pixel, animation: ImageAnimation(frames: frames, loopCount: 0), hasAlpha: false)
        #expect(ImageCodersManager.defaultEncodingFormat(for: animated) == .gif)
    }
}
