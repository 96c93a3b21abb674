import Foundation
import Testing

@testable import WebImage

@Suite("JPEG bad input")
struct JPEGBadInputTests {
    /// SOI, a baseline SOF claiming `width`×`height` (3 components, 4:2:0), an SOS and a few bytes.
    static func handcrafted(width: UInt16, height: UInt16, precision: UInt8 = 8, progressive: Bool = false) -> Data {
        var bytes: [UInt8] = [0xFF, 0xD8]
        bytes += [0xFF, progressive ? 0xC2 : 0xC0, 0x00, 0x11, precision]
        bytes += [UInt8(height >> 8), UInt8(height & 0xFF), UInt8(width >> 8), UInt8(width & 0xFF)]
        bytes += [0x03, 0x01, 0x22, 0x00, 0x02, 0x11, 0x00, 0x03, 0x11, 0x00]
        bytes += [0xFF, 0xDA, 0x00, 0x0C, 0x03, 0x01, 0x00, 0x02, 0x11, 0x03, 0x11, 0x00, 0x3F, 0x00]
        bytes += [UInt8](repeating: 0x55, count: 32) + [0xFF, 0xD9]
        return Data(bytes)
    }

    @Test func emptyDataIsBadImageData() {
        let error = webImageError { _ = try JPEGCoder().decode(Data(), options: .init()) }
        #expect(error == .badImageData("the data is empty"))
        #expect(webImageError { _ = try JPEGCoder().imageInfo(for: Data()) }?.isBadImageData == true)
    }

    @Test func randomBytesAreBadImageData() {
        for seed in 1...20 as ClosedRange<UInt64> {
            let random = SplitMix64.bytes(512, seed: seed)
            let cases = [random, [0xFF, 0xD8] + random, [0xFF, 0xD8, 0xFF] + random]
            for bytes in cases {
                let error = webImageError { _ = try JPEGCoder().decode(Data(bytes), options: .init()) }
                #expect(error?.isBadImageData == true, "seed \(seed): \(String(describing: error))")
            }
        }
    }

    @Test func onlyTheStartMarkerIsBadImageData() {
        let error = webImageError { _ = try JPEGCoder().decode(Data([0xFF, 0xD8]), options: .init()) }
        #expect(error?.isBadImageData == true)
    }

    @Test func aHugeHeaderIsTooLargeBeforeAllocating() {
        let data = Self.handcrafted(width: 65000, height: 65000)
        let error = webImageError { _ = try JPEGCoder().decode(data, options: .init()) }
        #expect(error == .imageTooLarge(width: 65000, height: 65000, limit: ImageDecodeOptions.defaultMaxPixelCount))
        let info = try? JPEGCoder().imageInfo(for: data)
        #expect(info?.width == 65000 && info?.height == 65000)
    }

    @Test func aHugeProgressiveHeaderIsTooLargeEvenForAThumbnail() {
        // Its coefficients would be held at full size (25 GB) whatever the DCT scale.
        var options = ImageDecodeOptions()
        options.thumbnailPixelSize = PixelSize(width: 100, height: 100)
        let data = Self.handcrafted(width: 65000, height: 65000, progressive: true)
        let error = webImageError { _ = try JPEGCoder().decode(data, options: options) }
        #expect(error == .imageTooLarge(width: 65000, height: 65000, limit: ImageDecodeOptions.defaultMaxPixelCount))
    }

    @Test func progressiveCoefficientMemoryCountsAgainstThePixelLimit() throws {
        var options = ImageDecodeOptions()
        options.maxPixelCount = 20_000
        options.thumbnailPixelSize = PixelSize(width: 40, height: 40)
        let progressive = webImageError { _ = try JPEGFixture.decode("progressive.jpg") { $0 = options } }
        #expect(progressive == .imageTooLarge(width: 320, height: 240, limit: 20_000))
        // A baseline image of the same pixel count has no such buffer.
        let baseline = try JPEGFixture.decode("photo_800x600.jpg") { $0 = options }
        #expect(baseline.bitmap.size == PixelSize(width: 40, height: 30))
    }

    @Test func libjpegsMemoryCapIsABackstop() throws {
        // Below the coefficient buffer's size libjpeg-turbo refuses instead of allocating.
        let data = try JPEGFixture.data("progressive.jpg")
        let size = PixelSize(width: 320, height: 240)
        var pixels = [UInt8](repeating: 0, count: size.pixelCount * 4)
        let error = webImageError {
            try data.withUnsafeBytes { bytes in
                try JPEGShim.withDecoder(bytes) { decoder throws(WebImageError) in
                    try pixels.withUnsafeMutableBufferPointer { buffer throws(WebImageError) in
                        _ = try decoder.decode(
                            scaleNumerator: 8, strict: true, maxMemory: 50_000, into: buffer, size: size)
                    }
                }
            }
        }
        #expect(error?.isBadImageData == true, "\(String(describing: error))")
    }

    @Test func impossibleHeadersAreBadImageData() {
        for data in [Self.handcrafted(width: 0, height: 16), Self.handcrafted(width: 16, height: 16, precision: 13)] {
            let error = webImageError { _ = try JPEGCoder().decode(data, options: .init()) }
            #expect(error?.isBadImageData == true, "\(String(describing: error))")
        }
    }

    @Test(arguments: ["photo_800x600.jpg", "baseline.jpg", "progressive.jpg"])
    func truncatedDataThrowsSayingSo(name: String) throws {
        let data = try JPEGFixture.data(name)
        for fraction in [0.05, 0.1, 0.2, 0.3, 0.5, 0.7, 0.9, 0.98] {
            let cut = data.prefix(Int(clamping: Double(data.count) * fraction))
            let error = webImageError { _ = try JPEGCoder().decode(cut, options: .init()) }
            #expect(error?.isBadImageData == true, "\(name) at \(fraction): \(String(describing: error))")
            #expect(
                error?.message.contains("truncated") == true, "\(name) at \(fraction): \(String(describing: error))")
        }
    }

    @Test func aProgressiveCutAtAnySegmentBoundaryThrows() throws {
        // Cuts between scans leave no entropy bits missing; only unrefined coefficients tell.
        let data = try JPEGFixture.data("progressive.jpg")
        let markers = data.withUnsafeBytes { bytes in
            (0..<(bytes.count - 1)).filter { bytes[$0] == 0xFF && [0xC4, 0xDA].contains(bytes[$0 + 1]) }
        }
        #expect(markers.count > 10)
        for offset in markers + markers.map({ $0 + 3 }) {
            let error = webImageError { _ = try JPEGCoder().decode(data.prefix(offset), options: .init()) }
            #expect(error?.message.contains("truncated") == true, "cut at \(offset): \(String(describing: error))")
        }
    }

    @Test func aCutInsideTheHeaderIsBadImageData() throws {
        let data = try JPEGFixture.data("baseline.jpg")
        for length in [3, 10, 40, 100] {
            let error = webImageError { _ = try JPEGCoder().decode(data.prefix(length), options: .init()) }
            #expect(error?.isBadImageData == true, "cut at \(length)")
        }
    }

    @Test func nonJPEGBytesAreBadImageData() {
        let error = webImageError { _ = try JPEGCoder().decode(Data([0x89, 0x50, 0x4E, 0x47]), options: .init()) }
        #expect(error?.isBadImageData == true)
    }
}
