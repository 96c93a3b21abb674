import Foundation
import Testing

@testable import WebImage

@Suite("Image model")
struct ImageModelTests {
    @Test("Bitmaps refuse pixel arrays of the wrong size")
    func bitmapValidatesCount() {
        #expect(throws: WebImageError.self) { try ImageBitmap(width: 2, height: 2, pixels: [0, 0, 0]) }
        #expect(throws: WebImageError.self) { try ImageBitmap(width: 0, height: 2, pixels: []) }
        #expect(throws: Never.self) { try ImageBitmap(width: 1, height: 1, pixels: [1, 2, 3, 4]) }
    }

    @Test("Copies share pixels until one is written (copy on write)")
    func copyOnWrite() {
        let original = ImageBitmap(width: 2, height: 2, fill: .white)
        var copy = original
        copy[0, 0] = .black
        #expect(original[0, 0] == .white)
        #expect(copy[0, 0] == .black)
    }

    @Test("Memory cost counts pixels actually held")
    func memoryCost() {
        let frame = ImageBitmap(width: 10, height: 10, fill: .white)
        #expect(Image(bitmap: frame).memoryCost == 400)
        let frames = (0..<3).map { _ in ImageFrame(bitmap: frame, duration: 0.1) }
        let animated = Image(bitmap: frame, animation: ImageAnimation(frames: frames, loopCount: 0))
        #expect(animated.memoryCost == 1200)
        #expect(animated.isAnimated)
        #expect(animated.frameCount == 3)
        #expect(abs(animated.animation!.totalDuration - 0.3) < 1e-9)
    }

    @Test("Transparency is detected from the pixels")
    func transparency() {
        var bitmap = ImageBitmap(width: 3, height: 3, fill: .white)
        #expect(!bitmap.containsTransparency)
        bitmap[2, 2] = RGBA8(r: 1, g: 2, b: 3, a: 254)
        #expect(bitmap.containsTransparency)
    }

    @Test("Errors keep SDWebImage's codes and say what went wrong")
    func errorCodesAndMessages() {
        #expect(WebImageError.invalidURL("").code == 1000)
        #expect(WebImageError.badImageData("x").code == 1001)
        #expect(WebImageError.cacheNotModified.code == 1002)
        #expect(WebImageError.blackListed("u").code == 1003)
        #expect(WebImageError.invalidDownloadOperation("x").code == 2000)
        #expect(WebImageError.invalidDownloadStatusCode(404).code == 2001)
        #expect(WebImageError.cancelled.code == 2002)
        #expect(WebImageError.invalidDownloadResponse.code == 2003)
        #expect(WebImageError.invalidDownloadContentType("text/html").code == 2004)
        #expect(WebImageError.invalidDownloadStatusCode(404).description.contains("404"))
        #expect(WebImageError.imageTooLarge(width: 5, height: 6, limit: 7).description.contains("5×6"))
        #expect(WebImageError.invalidURL("").localizedDescription.contains("empty"))
    }
}
