import Foundation
import Testing

@testable import WebImage

@Suite("JPEG encoding")
struct JPEGEncodingTests {
    static func encode(_ image: Image, _ configure: (inout ImageEncodeOptions) -> Void = { _ in }) throws -> Data {
        try JPEGCoder().encode(image, as: .jpeg, configure)
    }

    static func decode(_ data: Data) throws -> Image {
        try JPEGCoder().decode(data, options: .init())
    }

    @Test func roundTripKeepsSizeAndColours() throws {
        let original = try JPEGFixture.decode("baseline.jpg")
        let data = try Self.encode(original) { $0.compressionQuality = 0.9 }
        #expect(ImageFormat(detecting: data) == .jpeg)
        let decoded = try Self.decode(data)
        #expect(decoded.bitmap.size == original.bitmap.size)
        #expect(areClose(decoded.bitmap.quadrantColours, JPEGFixture.quadrants, tolerance: 10))
    }

    @Test func higherQualityMeansLargerFiles() throws {
        let image = try JPEGFixture.decode("progressive.jpg")
        let sizes = try [0.1, 0.5, 0.9, 1.0].map { quality in
            try Self.encode(image) { $0.compressionQuality = quality }.count
        }
        #expect(sizes == sizes.sorted() && Set(sizes).count == sizes.count, "\(sizes)")
    }

    @Test func progressiveOptionWritesSeveralScansThatDecodeToTheSamePicture() throws {
        let original = try JPEGFixture.decode("baseline.jpg")
        let baseline = try Self.encode(original) { $0.compressionQuality = 0.9 }
        let progressive = try Self.encode(original) {
            $0.compressionQuality = 0.9
            $0.progressive = true
        }
        let layouts = [baseline, progressive].map { data in
            data.withUnsafeBytes { JPEGMarkers.layout(of: $0, throughScans: true) }
        }
        #expect(!layouts[0].isProgressive && layouts[0].completeScans == 1)
        #expect(layouts[1].isProgressive && layouts[1].completeScans > 5, "\(layouts[1])")
        let decoded = try Self.decode(progressive)
        #expect(decoded.bitmap.size == original.bitmap.size)
        #expect(areClose(decoded.bitmap.quadrantColours, JPEGFixture.quadrants, tolerance: 10))
    }

    @Test func compressionQualityMapsToLibjpegQuality() {
        #expect(JPEGCoder.libjpegQuality(for: 1) == 100)
        #expect(JPEGCoder.libjpegQuality(for: 0.5) == 50)
        #expect(JPEGCoder.libjpegQuality(for: 0) == 1)
        #expect(JPEGCoder.libjpegQuality(for: -3) == 1)
        #expect(JPEGCoder.libjpegQuality(for: 7) == 100)
        #expect(JPEGCoder.libjpegQuality(for: .nan) == 100)
    }

    @Test func transparencyIsCompositedOntoTheBackground() throws {
        var bitmap = ImageBitmap(width: 32, height: 16, fill: RGBA8(r: 255, g: 0, b: 0, a: 0))
        for y in 0..<16 {
            for x in 16..<32 { bitmap[x, y] = RGBA8(r: 255, g: 0, b: 0, a: 128) }
        }
        let data = try Self.encode(Image(bitmap: bitmap)) { $0.backgroundColor = RGBA8(r: 0, g: 0, b: 255) }
        let decoded = try Self.decode(data).bitmap
        #expect(isClose(decoded.mean(x: 6, y: 8), RGBA8(r: 0, g: 0, b: 255), tolerance: 12))
        #expect(isClose(decoded.mean(x: 26, y: 8), RGBA8(r: 128, g: 0, b: 127), tolerance: 12))
        let white = try Self.decode(try Self.encode(Image(bitmap: bitmap))).bitmap
        #expect(isClose(white.mean(x: 6, y: 8), .white, tolerance: 8))
    }

    @Test(arguments: [(1, 1), (3, 1), (64, 40), (33, 65)])
    func opacityCheckFindsAnyTransparentPixel(width: Int, height: Int) {
        let opaque = ImageBitmap(width: width, height: height, fill: .white)
        #expect(opaque.isOpaque)
        for (x, y) in [(0, 0), (width - 1, height - 1), (width / 2, height / 2)] {
            var bitmap = opaque
            bitmap[x, y] = RGBA8(r: 255, g: 255, b: 255, a: 254)
            #expect(!bitmap.isOpaque, "pixel \(x),\(y)")
        }
    }

    @Test func maxPixelSizeScalesDownKeepingTheAspectRatio() throws {
        let image = try JPEGFixture.decode("progressive.jpg")
        let data = try Self.encode(image) { $0.maxPixelSize = PixelSize(width: 100, height: 100) }
        #expect(try Self.decode(data).bitmap.size == PixelSize(width: 100, height: 75))
        let unchanged = try Self.encode(image) { $0.maxPixelSize = PixelSize(width: 1000, height: 1000) }
        #expect(try Self.decode(unchanged).bitmap.size == PixelSize(width: 320, height: 240))
    }

    @Test func maxFileSizeFindsTheBestQualityThatFits() throws {
        let image = try JPEGFixture.decode("progressive.jpg")
        let smallest = try Self.encode(image) { $0.compressionQuality = 0 }
        let largest = try Self.encode(image) { $0.compressionQuality = 1 }
        let limit = (smallest.count + largest.count) / 2
        let fitted = try Self.encode(image) { $0.maxFileSize = limit }
        #expect(fitted.count <= limit)
        #expect(fitted.count > smallest.count)
        // Nothing fits: the smallest output comes back.
        let tiny = try Self.encode(image) { $0.maxFileSize = 100 }
        #expect(tiny == smallest)
        // Everything fits: best quality.
        #expect(try Self.encode(image) { $0.maxFileSize = largest.count } == largest)
    }

    @Test func theOrientationIsAppliedBeforeEncoding() throws {
        let stored = try JPEGFixture.decode("orientation_6.jpg") { $0.applyOrientation = false }
        #expect(stored.orientation == .right)
        let decoded = try Self.decode(try Self.encode(stored))
        #expect(decoded.bitmap.size == PixelSize(width: 64, height: 32))
        #expect(areClose(decoded.bitmap.quadrantColours, JPEGFixture.quadrants, tolerance: 12))
    }

    @Test func anAnimationEncodesItsFirstFrame() throws {
        let red = ImageBitmap(width: 16, height: 16, fill: RGBA8(r: 255, g: 0, b: 0))
        let blue = ImageBitmap(width: 16, height: 16, fill: RGBA8(r: 0, g: 0, b: 255))
        let animation = ImageAnimation(
            frames: [ImageFrame(bitmap: red, duration: 0.1), ImageFrame(bitmap: blue, duration: 0.1)], loopCount: 0)
        let image = Image(bitmap: red, format: .gif, animation: animation)
        let decoded = try Self.decode(try Self.encode(image))
        #expect(isClose(decoded.bitmap[8, 8], RGBA8(r: 255, g: 0, b: 0), tolerance: 8))
    }

    @Test func otherFormatsAndOversizedImagesAreRefused() throws {
        let image = Image(bitmap: ImageBitmap(width: 4, height: 4, fill: .white))
        #expect(
            webImageError { _ = try JPEGCoder().encode(image, as: .png, options: .init()) } == .unsupportedFormat(.png))
        let wide = Image(bitmap: ImageBitmap(width: 65_501, height: 1, fill: .white))
        let error = webImageError { _ = try Self.encode(wide) }
        if error?.code == .encodingFailed {
        } else {
            Issue.record("expected encodingFailed, got \(String(describing: error))")
        }
    }
}
