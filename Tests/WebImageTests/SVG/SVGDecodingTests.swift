#if SVG
    import Foundation
    import Testing

    @testable import WebImage

    /// SVG rasterised by librsvg: each fixture against `rsvg-convert`'s rendering, the size rules,
    /// rendering at a thumbnail size, and how SVG is recognised.
    @Suite("SVG decoding")
    struct SVGDecodingTests {
        @Test(arguments: [
            ("shapes", 64, 48), ("gradients", 80, 60), ("width_only", 90, 60), ("percent", 50, 70),
            ("units", 48, 38), ("prolog", 40, 40), ("embedded", 32, 32),
        ])
        func everyFixtureMatchesRsvgConvert(name: String, width: Int, height: Int) throws {
            let data = try SVGFixtures.data(name)
            let size = PixelSize(width: width, height: height)
            let image = try ImageCodersManager.shared.decode(data, options: ImageDecodeOptions())
            #expect(image.format == .svg && image.bitmap.size == size && !image.isThumbnail)
            let reference = try SVGFixtures.reference(name, size)
            let difference = PixelMetrics.maxVisibleDifference(
                image.bitmap, reference, minimumAlpha: SVGFixtures.minimumAlpha)
            #expect(difference <= SVGFixtures.tolerance, "\(name): \(difference)")
            let info = try ImageCodersManager.shared.imageInfo(for: data)
            #expect(info.format == .svg && info.width == width && info.height == height && info.hasAlpha)
        }

        @Test func aThumbnailSizeRendersAtThatSizeRatherThanEnlargingTheRaster() throws {
            let data = try SVGFixtures.data("shapes")
            let rendered = try SVGFixtures.decode(data) { $0.thumbnailPixelSize = PixelSize(width: 128, height: 96) }
            #expect(rendered.bitmap.size == PixelSize(width: 128, height: 96) && rendered.isThumbnail)
            let reference = try SVGFixtures.reference("shapes_128x96", PixelSize(width: 128, height: 96))
            let difference = PixelMetrics.maxVisibleDifference(
                rendered.bitmap, reference, minimumAlpha: SVGFixtures.minimumAlpha)
            #expect(difference <= SVGFixtures.tolerance, "\(difference)")
            // The natural rendering enlarged is visibly softer: the renderings differ by far more.
            let enlarged = try SVGFixtures.decode(data).bitmap.resampled(to: PixelSize(width: 128, height: 96))
            #expect(PixelMetrics.maxVisibleDifference(enlarged, reference) > 40)
        }

        @Test func aThumbnailKeepsTheAspectRatioUnlessToldNotTo() throws {
            let data = try SVGFixtures.data("shapes")
            let box = PixelSize(width: 200, height: 200)
            let fitted = try SVGFixtures.decode(data) { $0.thumbnailPixelSize = box }
            #expect(fitted.bitmap.size == PixelSize(width: 200, height: 150))
            let stretched = try SVGFixtures.decode(data) {
                $0.thumbnailPixelSize = box
                $0.preserveAspectRatio = false
            }
            #expect(stretched.bitmap.size == box)
            // Stretched, the document fills the square: its opaque background reaches every corner.
            #expect(stretched.bitmap[199, 199].a == 255 && stretched.bitmap[0, 199].a == 255)
        }

        @Test func aByteLimitOnlyEverMakesTheRenderingSmaller() throws {
            let data = try SVGFixtures.data("shapes")
            let small = try SVGFixtures.decode(data) { $0.scaleDownLimitBytes = 32 * 24 * 4 }
            #expect(small.bitmap.size == PixelSize(width: 32, height: 24) && small.isThumbnail)
            let large = try SVGFixtures.decode(data) { $0.scaleDownLimitBytes = 1 << 24 }
            #expect(large.bitmap.size == PixelSize(width: 64, height: 48) && !large.isThumbnail)
        }

        @Test func theSizeComesFromWidthAndHeightElseFromTheViewBox() throws {
            let cases: [(attributes: String, width: Int, height: Int)] = [
                (#"width="40" height="30" viewBox="0 0 10 10""#, 40, 30),
                (#"width="10.2" height="20.7""#, 11, 21),
                (#"viewBox="0 0 120 60""#, 120, 60),
                (#"width="50%" height="100%" viewBox="0 0 120 60""#, 120, 60),
                (#"width="200" viewBox="0 0 100 50""#, 200, 100),
                (#"height="200" viewBox="0 0 100 50""#, 400, 200),
                (#"width="1in" height="2cm""#, 96, 76),
                (#"width="10em" height="2ex""#, 120, 12),
                (#"width="10pt" height="1pc""#, 14, 16),
            ]
            for item in cases {
                let info = try SVGCoder().imageInfo(for: SVGFixtures.svg(item.attributes))
                #expect(info.width == item.width && info.height == item.height, "\(item.attributes)")
            }
        }

        @Test(arguments: [
            #"width="200""#, "", #"width="0" height="10""#, #"viewBox="0 0 0 10""#, #"width="-5" height="5""#,
        ])
        func aDocumentWithoutASizeIsBadImageData(attributes: String) {
            expectBadImageData(Comment(rawValue: attributes)) {
                try SVGCoder().imageInfo(for: SVGFixtures.svg(attributes, "<rect width='5' height='5'/>"))
            }
            expectBadImageData(Comment(rawValue: attributes)) {
                try SVGCoder().decode(
                    SVGFixtures.svg(attributes, "<rect width='5' height='5'/>"), options: ImageDecodeOptions())
            }
        }

        @Test func theCanvasIsTransparentSoAlphaIsAlwaysThereAndColourIsStraight() throws {
            let opaque = try SVGCoder().decode(
                SVGFixtures.svg(#"width="8" height="8""#, ##"<rect width="8" height="8" fill="#123456"/>"##),
                options: ImageDecodeOptions())
            #expect(opaque.hasAlpha && !opaque.bitmap.containsTransparency)
            #expect(opaque.bitmap[3, 3] == RGBA8(r: 0x12, g: 0x34, b: 0x56, a: 255))
            let translucent = try SVGCoder().decode(
                SVGFixtures.svg(
                    #"width="8" height="8""#, ##"<rect width="4" height="8" fill="#ff0000" fill-opacity="0.5"/>"##),
                options: ImageDecodeOptions())
            let pixel = translucent.bitmap[1, 3]
            #expect(pixel.r == 255 && pixel.g == 0 && pixel.b == 0 && abs(Int(pixel.a) - 128) <= 1)
            #expect(translucent.bitmap[6, 3] == .clear)
        }

        @Test func theScaleFactorIsKeptAndNothingIsEncoded() throws {
            let image = try SVGFixtures.decode(try SVGFixtures.data("units")) { $0.scaleFactor = 2 }
            #expect(image.scale == 2)
            #expect(!SVGCoder().canEncode(to: .svg))
            expectSVGError(code: .unsupportedFormat) {
                try SVGCoder().encode(image, as: .svg, options: ImageEncodeOptions())
            }
        }

        @Test func anSVGImageEncodedWithoutAFormatIsWrittenAsPNG() throws {
            let image = try SVGFixtures.decode(try SVGFixtures.data("shapes"))
            #expect(ImageCodersManager.defaultEncodingFormat(for: image) == .png)
            // As the image cache writes an image stored without its bytes.
            let stored = try ImageCache.encodeForDisk(image, coder: nil, options: ImageEncodeOptions())
            let decoded = try ImageCodersManager.shared.decode(stored, options: ImageDecodeOptions())
            #expect(decoded.format == .png && decoded.bitmap == image.bitmap)
        }

        @Test func svgIsRecognisedByItsStart() {
            let documents = [
                "<svg/>", "\u{FEFF}<svg xmlns='http://www.w3.org/2000/svg'/>", "\n  <svg>",
                "<?xml version='1.0'?>\n<!-- made by hand -->\n<svg>",
                "<!DOCTYPE svg PUBLIC '-//W3C//DTD SVG 1.1//EN' 'svg11.dtd' [ <!ENTITY a 'b'> ]><svg>",
                "<?xml-stylesheet href='a.css' type='text/css'?><svg:svg xmlns:svg='http://www.w3.org/2000/svg'/>",
            ]
            for text in documents {
                let data = Data(text.utf8)
                #expect(SVGCoder().canDecode(data) && ImageFormat(detecting: data) == .svg, "\(text)")
            }
            let others = [
                "<html><body></body></html>", "<?xml version='1.0'?><rss/>", "<svgfoo/>", "svg", "<!-- <svg> -->",
            ]
            for text in others {
                #expect(!SVGCoder().canDecode(Data(text.utf8)), "\(text)")
            }
            // SDWebImage's rule stays: markup that ends with </svg>.
            #expect(ImageFormat(detecting: Data("<html><svg></svg>".utf8)) == .svg)
        }
    }
#endif
