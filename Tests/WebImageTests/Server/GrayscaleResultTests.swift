import Foundation
import Testing
import WebImageTestOrigin

@testable import WebImage
@_spi(Internals) @testable import WebImageServer

/// A gray source comes out of the service gray, where the output format has it.
@Suite("Service results: gray stays gray")
struct GrayscaleResultTests {
    @Test func aResizedGrayJPEGComesBackAsAGrayJPEGOrPNG() async throws {
        try await ImageServiceTests.withService(disk: false) { service, origin, _ in
            let gray = try GrayscaleEncodingTests.encode(GrayscaleEncodingTests.grayImage(), as: .jpeg)
            #expect(GrayscaleEncodingTests.jpegComponents(gray) == 1)
            origin.register(path: "/gray.jpg", body: gray, contentType: "image/jpeg")
            let source = origin.url("/gray.jpg")
            let jpeg = await service.respond(to: ServiceRequest(path: ImageServiceTests.path("w:32", source)))
            #expect(jpeg.status == 200 && jpeg.header("Content-Type") == "image/jpeg")
            #expect(GrayscaleEncodingTests.jpegComponents(jpeg.body) == 1)
            let image = try ImageServiceTests.decode(jpeg)
            #expect(image.width == 32 && image.height == 24 && image.bitmap.isGray)
            let png = await service.respond(to: ServiceRequest(path: ImageServiceTests.path("w:32/f:png", source)))
            #expect(png.status == 200 && GrayscaleEncodingTests.pngColourType(png.body) == 0)
        }
    }
}
