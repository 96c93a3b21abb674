import Foundation
import Testing
import WebImage

@_spi(Internals) @testable import WebImageServer

/// Sizes and placements as imgproxy computes them: its own size table for a 200×100 source, and
/// the arithmetic of DPR, zoom, minimum sizes, padding, flips and gravity, with pixel-exact
/// positions wherever nothing is resampled.
@Suite("Service processing: imgproxy's geometry")
struct ImgproxyGeometryTests {
    static func plan(_ source: (Int, Int), _ segments: [String]) throws -> ProcessingPlan {
        try ProcessingPlan(
            source: PixelSize(width: source.0, height: source.1), options: ProcessingOptions(segments: segments))
    }

    static func process(_ image: Image, _ segments: String...) throws -> Image {
        let options = try ProcessingOptions(segments: segments)
        let plan = try ProcessingPlan(source: image.orientedSize, options: options)
        return try ImageProcessor(options: options, plan: plan).transformedImage(image, forKey: "")
    }

    /// A bitmap whose every pixel names its own position: red is x, green is y.
    static func positions(_ width: Int, _ height: Int) -> Image {
        var bitmap = ImageBitmap(width: width, height: height, fill: RGBA8(r: 0, g: 0, b: 0, a: 255))
        for y in 0..<height {
            for x in 0..<width { bitmap[x, y] = RGBA8(r: UInt8(x), g: UInt8(y), b: 0, a: 255) }
        }
        return Image(bitmap: bitmap, hasAlpha: false)
    }

    /// imgproxy's table for every resizing type, alone and with `enlarge`, `extend` and
    /// `extend_aspect_ratio`, over its 200×100 geometry source.
    @Test(arguments: [
        (["rs:fit:50:50"], 50, 25),
        (["rs:fit:50:20"], 40, 20),
        (["rs:fit:20:50"], 20, 10),
        (["rs:fit:300:300"], 200, 100),
        (["rs:fit:300:50"], 100, 50),
        (["rs:fit:100:300"], 100, 50),
        (["rs:fit:0:50"], 100, 50),
        (["rs:fit:50:0"], 50, 25),
        (["rs:fit:0:200"], 200, 100),
        (["rs:fit:300:0"], 200, 100),
        (["rs:fit:50:50", "el:1"], 50, 25),
        (["rs:fit:50:20", "el:1"], 40, 20),
        (["rs:fit:20:50", "el:1"], 20, 10),
        (["rs:fit:300:300", "el:1"], 300, 150),
        (["rs:fit:300:125", "el:1"], 250, 125),
        (["rs:fit:250:300", "el:1"], 250, 125),
        (["rs:fit:0:50", "el:1"], 100, 50),
        (["rs:fit:50:0", "el:1"], 50, 25),
        (["rs:fit:0:200", "el:1"], 400, 200),
        (["rs:fit:300:0", "el:1"], 300, 150),
        (["rs:fit:50:50", "ex:1"], 50, 50),
        (["rs:fit:50:20", "ex:1"], 50, 20),
        (["rs:fit:20:50", "ex:1"], 20, 50),
        (["rs:fit:300:300", "ex:1"], 300, 300),
        (["rs:fit:300:125", "ex:1"], 300, 125),
        (["rs:fit:250:300", "ex:1"], 250, 300),
        (["rs:fit:0:50", "ex:1"], 100, 50),
        (["rs:fit:50:0", "ex:1"], 50, 25),
        (["rs:fit:0:200", "ex:1"], 200, 200),
        (["rs:fit:300:0", "ex:1"], 300, 100),
        (["rs:fit:50:50", "exar:1"], 50, 50),
        (["rs:fit:50:20", "exar:1"], 50, 20),
        (["rs:fit:20:50", "exar:1"], 20, 50),
        (["rs:fit:300:300", "exar:1"], 200, 200),
        (["rs:fit:300:125", "exar:1"], 240, 100),
        (["rs:fit:250:500", "exar:1"], 200, 400),
        (["rs:fit:0:50", "exar:1"], 100, 50),
        (["rs:fit:50:0", "exar:1"], 50, 25),
        (["rs:fit:0:200", "exar:1"], 200, 100),
        (["rs:fit:300:0", "exar:1"], 200, 100),
        (["rs:fill:50:50"], 50, 50),
        (["rs:fill:50:20"], 50, 20),
        (["rs:fill:20:50"], 20, 50),
        (["rs:fill:300:300"], 200, 100),
        (["rs:fill:300:50"], 200, 50),
        (["rs:fill:100:300"], 100, 100),
        (["rs:fill:0:50"], 100, 50),
        (["rs:fill:50:0"], 50, 25),
        (["rs:fill:0:200"], 200, 100),
        (["rs:fill:300:0"], 200, 100),
        (["rs:fill:50:50", "el:1"], 50, 50),
        (["rs:fill:50:20", "el:1"], 50, 20),
        (["rs:fill:20:50", "el:1"], 20, 50),
        (["rs:fill:300:300", "el:1"], 300, 300),
        (["rs:fill:300:125", "el:1"], 300, 125),
        (["rs:fill:250:300", "el:1"], 250, 300),
        (["rs:fill:0:50", "el:1"], 100, 50),
        (["rs:fill:50:0", "el:1"], 50, 25),
        (["rs:fill:0:200", "el:1"], 400, 200),
        (["rs:fill:300:0", "el:1"], 300, 150),
        (["rs:fill:50:50", "ex:1"], 50, 50),
        (["rs:fill:50:20", "ex:1"], 50, 20),
        (["rs:fill:20:50", "ex:1"], 20, 50),
        (["rs:fill:300:300", "ex:1"], 300, 300),
        (["rs:fill:300:125", "ex:1"], 300, 125),
        (["rs:fill:250:300", "ex:1"], 250, 300),
        (["rs:fill:300:50", "ex:1"], 300, 50),
        (["rs:fill:100:300", "ex:1"], 100, 300),
        (["rs:fill:0:50", "ex:1"], 100, 50),
        (["rs:fill:50:0", "ex:1"], 50, 25),
        (["rs:fill:0:200", "ex:1"], 200, 200),
        (["rs:fill:300:0", "ex:1"], 300, 100),
        (["rs:fill:50:50", "exar:1"], 50, 50),
        (["rs:fill:50:20", "exar:1"], 50, 20),
        (["rs:fill:20:50", "exar:1"], 20, 50),
        (["rs:fill:300:300", "exar:1"], 200, 200),
        (["rs:fill:300:125", "exar:1"], 240, 100),
        (["rs:fill:250:500", "exar:1"], 200, 400),
        (["rs:fill:300:50", "exar:1"], 300, 50),
        (["rs:fill:100:300", "exar:1"], 100, 300),
        (["rs:fill:0:50", "exar:1"], 100, 50),
        (["rs:fill:50:0", "exar:1"], 50, 25),
        (["rs:fill:0:200", "exar:1"], 200, 100),
        (["rs:fill:300:0", "exar:1"], 200, 100),
        (["rs:fill-down:50:50"], 50, 50),
        (["rs:fill-down:50:20"], 50, 20),
        (["rs:fill-down:20:50"], 20, 50),
        (["rs:fill-down:300:300"], 100, 100),
        (["rs:fill-down:300:125"], 200, 83),
        (["rs:fill-down:250:300"], 83, 100),
        (["rs:fill-down:0:50"], 100, 50),
        (["rs:fill-down:50:0"], 50, 25),
        (["rs:fill-down:0:200"], 200, 100),
        (["rs:fill-down:300:0"], 200, 100),
        (["rs:fill-down:50:50", "el:1"], 50, 50),
        (["rs:fill-down:50:20", "el:1"], 50, 20),
        (["rs:fill-down:20:50", "el:1"], 20, 50),
        (["rs:fill-down:300:300", "el:1"], 300, 300),
        (["rs:fill-down:300:125", "el:1"], 300, 125),
        (["rs:fill-down:250:300", "el:1"], 250, 300),
        (["rs:fill-down:0:50", "el:1"], 100, 50),
        (["rs:fill-down:50:0", "el:1"], 50, 25),
        (["rs:fill-down:0:200", "el:1"], 400, 200),
        (["rs:fill-down:300:0", "el:1"], 300, 150),
        (["rs:fill-down:50:50", "ex:1"], 50, 50),
        (["rs:fill-down:50:20", "ex:1"], 50, 20),
        (["rs:fill-down:20:50", "ex:1"], 20, 50),
        (["rs:fill-down:300:300", "ex:1"], 300, 300),
        (["rs:fill-down:300:125", "ex:1"], 300, 125),
        (["rs:fill-down:250:300", "ex:1"], 250, 300),
        (["rs:fill-down:300:50", "ex:1"], 300, 50),
        (["rs:fill-down:100:300", "ex:1"], 100, 300),
        (["rs:fill-down:0:50", "ex:1"], 100, 50),
        (["rs:fill-down:50:0", "ex:1"], 50, 25),
        (["rs:fill-down:0:200", "ex:1"], 200, 200),
        (["rs:fill-down:300:0", "ex:1"], 300, 100),
        (["rs:fill-down:50:50", "exar:1"], 50, 50),
        (["rs:fill-down:50:20", "exar:1"], 50, 20),
        (["rs:fill-down:20:50", "exar:1"], 20, 50),
        (["rs:fill-down:300:300", "exar:1"], 100, 100),
        (["rs:fill-down:300:125", "exar:1"], 200, 83),
        (["rs:fill-down:250:300", "exar:1"], 83, 100),
        (["rs:fill-down:0:50", "exar:1"], 100, 50),
        (["rs:fill-down:50:0", "exar:1"], 50, 25),
        (["rs:fill-down:0:200", "exar:1"], 200, 100),
        (["rs:fill-down:300:0", "exar:1"], 200, 100),
    ])
    func resizingGivesImgproxysSizeForItsGeometrySource(segments: [String], width: Int, height: Int) throws {
        let plan = try Self.plan((200, 100), segments)
        #expect(plan.finalSize == PixelSize(width: width, height: height), "\(segments)")
    }

    /// imgproxy's `max_result_dimension` table over the same source: the longer side of the result,
    /// as extended and padded, fits the limit.
    @Test(arguments: [
        (["mrd:1000", "rs:fit:100:100"], 100, 50),
        (["mrd:50", "rs:fit:100:100"], 50, 25),
        (["mrd:50", "rs:fit:0:0"], 50, 25),
        (["mrd:100", "rs:fit:0:100"], 100, 50),
        (["mrd:50", "rs:fit:150:0"], 50, 25),
        (["mrd:100", "rs:fit:1000:1000"], 100, 50),
        (["mrd:100", "rs:fit:1000:1000", "el:1"], 100, 50),
        (["mrd:100", "rs:fit:1000:2000", "ex:1"], 50, 100),
        (["mrd:100", "rs:fit:1000:2000", "exar:1"], 50, 100),
        (["mrd:100", "rs:fit:100:150", "rot:90"], 50, 100),
        (["mrd:100", "rs:fit:0:0", "rot:90"], 50, 100),
        (["mrd:200", "rs:fit:100:100", "pd:100:200:300:400"], 200, 129),
        (["mrd:1000", "rs:fill:100:100"], 100, 100),
        (["mrd:50", "rs:fill:100:100"], 50, 50),
        (["mrd:50", "rs:fill:1000:50"], 50, 13),
        (["mrd:50", "rs:fill:100:1000"], 50, 50),
        (["mrd:50", "rs:fill:0:0"], 50, 25),
        (["mrd:100", "rs:fill:0:100"], 100, 50),
        (["mrd:50", "rs:fill:150:0"], 50, 25),
        (["mrd:100", "rs:fill:1000:1000"], 100, 50),
        (["mrd:100", "rs:fill:1000:1000", "el:1"], 100, 100),
        (["mrd:100", "rs:fill:1000:2000", "ex:1"], 50, 100),
        (["mrd:100", "rs:fill:1000:2000", "exar:1"], 50, 100),
        (["mrd:100", "rs:fill:100:150", "rot:90"], 67, 100),
        (["mrd:100", "rs:fill:0:0", "rot:90"], 50, 100),
        (["mrd:200", "rs:fill:100:100", "pd:100:200:300:400"], 200, 144),
        (["mrd:1000", "rs:fill-down:100:100"], 100, 100),
        (["mrd:50", "rs:fill-down:100:100"], 50, 50),
        (["mrd:50", "rs:fill-down:1000:50"], 50, 3),
        (["mrd:50", "rs:fill-down:100:1000"], 5, 50),
        (["mrd:50", "rs:fill-down:0:0"], 50, 25),
        (["mrd:100", "rs:fill-down:0:100"], 100, 50),
        (["mrd:50", "rs:fill-down:150:0"], 50, 25),
        (["mrd:100", "rs:fill-down:1000:1000"], 100, 100),
        (["mrd:100", "rs:fill-down:1000:1000", "el:1"], 100, 100),
        (["mrd:100", "rs:fill-down:1000:2000", "ex:1"], 50, 100),
        (["mrd:100", "rs:fill-down:1000:2000", "exar:1"], 50, 100),
        (["mrd:100", "rs:fill-down:1000:1500", "rot:90"], 67, 100),
        (["mrd:100", "rs:fill-down:0:0", "rot:90"], 50, 100),
        (["mrd:200", "rs:fill-down:100:100", "pd:100:200:300:400"], 200, 144),
        (["mrd:200", "rs:fill-down:1000:1000", "pd:100:200:300:400"], 200, 144),
    ])
    func maxResultDimensionGivesImgproxysSizes(segments: [String], width: Int, height: Int) throws {
        let plan = try Self.plan((200, 100), segments)
        #expect(plan.finalSize == PixelSize(width: width, height: height), "\(segments)")
    }

    /// The DPR multiplies the target, but never so far that the source would be enlarged; with
    /// `extend` the canvas keeps the size asked for, so the composition does not change with the DPR.
    @Test func dprNeverEnlargesAndKeepsAnExtendedCompositionItsSize() throws {
        #expect(try Self.plan((200, 100), ["rs:fit:50:50", "dpr:2"]).finalSize == PixelSize(width: 100, height: 50))
        #expect(try Self.plan((200, 100), ["rs:fit:150:150", "dpr:2"]).finalSize == PixelSize(width: 200, height: 100))
        #expect(
            try Self.plan((200, 100), ["rs:fit:300:300", "ex:1", "dpr:2"]).finalSize
                == PixelSize(width: 300, height: 300))
        #expect(
            try Self.plan((200, 100), ["rs:fill:0:50", "dpr:2"]).finalSize == PixelSize(width: 200, height: 100))
        #expect(try Self.plan((200, 100), ["rs:fill:50:0", "dpr:3"]).finalSize == PixelSize(width: 150, height: 75))
        // force without enlarge keeps the box's aspect ratio inside the source.
        #expect(try Self.plan((100, 50), ["rs:force:400:400"]).finalSize == PixelSize(width: 50, height: 50))
    }

    @Test func zoomScalesAfterTheResizingTypeOnEachAxis() throws {
        #expect(try Self.plan((200, 100), ["rs:fit:100:100", "z:0.5"]).finalSize == PixelSize(width: 50, height: 25))
        #expect(try Self.plan((200, 100), ["rs:fit:100:100", "z:0.5:1"]).finalSize == PixelSize(width: 50, height: 50))
        #expect(try Self.plan((200, 100), ["w:100", "zoom:2"]).finalSize == PixelSize(width: 200, height: 100))
        #expect(try Self.plan((200, 100), ["w:100", "zoom:3", "el:1"]).finalSize == PixelSize(width: 300, height: 150))
    }

    /// imgproxy's minimum sizes enlarge until they are met, and a requested side still cuts.
    @Test func minimumSizesEnlargeAndTheRequestedSideStillCuts() throws {
        #expect(try Self.plan((200, 100), ["rs:fit:50:50", "mw:100"]).finalSize == PixelSize(width: 50, height: 50))
        #expect(try Self.plan((200, 100), ["h:25", "min-width:100"]).finalSize == PixelSize(width: 100, height: 25))
        #expect(try Self.plan((200, 100), ["w:50", "mh:40"]).finalSize == PixelSize(width: 50, height: 40))
        #expect(try Self.plan((200, 100), ["mw:400"]).finalSize == PixelSize(width: 400, height: 200))
        #expect(try Self.plan((200, 100), ["w:100", "mw:50"]).finalSize == PixelSize(width: 100, height: 50))
    }

    @Test func paddingAddsMarginsTimesTheDprInCSSOrder() throws {
        #expect(try Self.plan((200, 100), ["rs:fit:100:100", "pd:10"]).finalSize == PixelSize(width: 120, height: 70))
        #expect(
            try Self.plan((200, 100), ["rs:fit:100:100", "pd:1:2:3:4"]).finalSize == PixelSize(width: 106, height: 54))
        #expect(try Self.plan((200, 100), ["rs:fit:100:100", "pd:1:2"]).finalSize == PixelSize(width: 104, height: 52))
        #expect(
            try Self.plan((200, 100), ["rs:fit:100:100", "pd:1:2:3"]).finalSize == PixelSize(width: 104, height: 54))
        #expect(
            try Self.plan((200, 100), ["rs:fit:100:100", "pd:10", "dpr:2"]).finalSize
                == PixelSize(width: 240, height: 140))
        let padded = try Self.process(Self.positions(4, 3), "pd:1:2:3:4")
        #expect(padded.bitmap.size == PixelSize(width: 10, height: 7) && padded.hasAlpha)
        #expect(padded.bitmap[4, 1] == RGBA8(r: 0, g: 0, b: 0, a: 255))
        #expect(padded.bitmap[7, 3] == RGBA8(r: 3, g: 2, b: 0, a: 255))
        #expect(padded.bitmap[3, 1].a == 0 && padded.bitmap[8, 1].a == 0 && padded.bitmap[4, 0].a == 0)
        #expect(padded.bitmap[4, 4].a == 0)
        let flattened = try Self.process(Self.positions(4, 3), "pd:1", "bg:fff")
        #expect(flattened.bitmap[0, 0] == RGBA8(r: 255, g: 255, b: 255, a: 255) && !flattened.hasAlpha)
    }

    @Test func flipMirrorsAfterTheRotation() throws {
        let source = Self.positions(3, 2)
        let horizontal = try Self.process(source, "fl:1")
        #expect(horizontal.bitmap[0, 0] == RGBA8(r: 2, g: 0, b: 0, a: 255))
        let vertical = try Self.process(source, "flip:0:1")
        #expect(vertical.bitmap[0, 0] == RGBA8(r: 0, g: 1, b: 0, a: 255))
        let both = try Self.process(source, "fl:t:t")
        #expect(both.bitmap[0, 0] == RGBA8(r: 2, g: 1, b: 0, a: 255))
        // rot:90 puts the source's bottom-left pixel at the top left; the flip then mirrors that row.
        let turned = try Self.process(source, "rot:90", "fl:1")
        #expect(turned.bitmap.size == PixelSize(width: 2, height: 3))
        #expect(turned.bitmap[0, 0] == RGBA8(r: 0, g: 0, b: 0, a: 255))
        #expect(try ProcessingOptions(segments: ["fl:1", "fl::1"]).flipHorizontal)
    }

    /// The centre of an odd spare rounds half to even after adding one, as imgproxy's does.
    @Test func gravityRoundsHalvesAsImgproxyDoes() throws {
        let source = Self.positions(10, 1)
        #expect(try Self.process(source, "c:5:1").bitmap[0, 0].r == 3)  // (10 - 5 + 1) / 2 = 3
        #expect(try Self.process(source, "c:4:1").bitmap[0, 0].r == 4)  // (10 - 4 + 1) / 2 = 3.5 → 4
        #expect(try Self.process(source, "c:2:1").bitmap[0, 0].r == 4)  // 4.5 → 4
        #expect(try Self.process(source, "c:4:1:we:1.5").bitmap[0, 0].r == 2)  // offset 1.5 → 2
        #expect(try Self.process(source, "c:4:1:we:2.5").bitmap[0, 0].r == 2)  // 2.5 → 2
        #expect(try Self.process(source, "c:4:1:ea:1").bitmap[0, 0].r == 5)
        #expect(try Self.process(source, "c:4:1:we:0.25").bitmap[0, 0].r == 2)  // 0.25 × 10 = 2.5 → 2
        // Focus point: the point (rounded half to even) minus half the crop (rounded down).
        #expect(try Self.process(source, "c:3:1:fp:0.45:0").bitmap[0, 0].r == 3)  // 4.5 → 4, minus 1
        #expect(try Self.process(source, "c:4:1:fp:0.55:0").bitmap[0, 0].r == 4)  // 5.5 → 6, minus 2
        // Crop offsets are source pixels: the DPR does not scale them.
        #expect(try Self.process(source, "c:4:1:we:2", "dpr:2").bitmap[0, 0].r == 2)
    }

    @Test func fractionalCropsRoundAndWholeOnesTruncate() throws {
        #expect(try Self.plan((10, 10), ["c:0.25:0.35"]).cropSize == PixelSize(width: 3, height: 4))
        #expect(try Self.plan((10, 10), ["c:4.9:0.01"]).cropSize == PixelSize(width: 4, height: 1))
        #expect(try Self.plan((10, 10), ["c:40:0"]).cropSize == PixelSize(width: 10, height: 10))
    }

    @Test func extendingToTheAspectRatioPlacesTheImageByItsOwnGravity() throws {
        let source = Self.positions(4, 2)
        let centred = try Self.process(source, "s:8:8", "exar:1")
        #expect(centred.bitmap.size == PixelSize(width: 4, height: 4))
        // A spare of 2 rows: the centre is (2 + 1) / 2 = 1.5, rounded half to even to 2.
        #expect(centred.bitmap[0, 2] == RGBA8(r: 0, g: 0, b: 0, a: 255) && centred.bitmap[0, 1].a == 0)
        let north = try Self.process(source, "s:8:8", "extend_ar:1:no")
        #expect(north.bitmap[0, 0] == RGBA8(r: 0, g: 0, b: 0, a: 255) && north.bitmap[0, 2].a == 0)
        // extend first (to the box), then the aspect ratio has nothing left to add.
        let both = try Self.process(source, "s:8:6", "ex:1:nowe", "exar:1")
        #expect(both.bitmap.size == PixelSize(width: 8, height: 6) && both.bitmap[0, 0].r == 0)
        #expect(both.bitmap[3, 1] == RGBA8(r: 3, g: 1, b: 0, a: 255) && both.bitmap[4, 0].a == 0)
    }

    @Test func backgroundTakesImgproxysThreeDigitForm() throws {
        #expect(try ProcessingOptions(segments: ["bg:fa0"]).background == RGBA8(r: 255, g: 170, b: 0, a: 255))
        for bad in ["bg:ff", "bg:ggg", "bg:+ffff", "bg:fffff"] {
            #expect(throws: ServiceError.self, "\(bad)") { try ProcessingOptions(segments: [bad]) }
        }
    }

    /// Numbers from the URL never trap: each of these is a 400 or a small, valid plan.
    @Test(arguments: [
        "z:0", "z:-1", "z:nan", "z:inf", "z:1e308", "z:1:2:3", "mw:-1", "mw:99999999999999999999", "mh:1e3",
        "pd:-1", "pd:1:2:3:4:5", "pd:99999999999999", "fl:2", "fl:1:1:1", "exar:maybe",
    ])
    func hostileGeometryOptionsAreRefusedOrBounded(segment: String) {
        do {
            let plan = try Self.plan((200, 100), ["w:100", segment])
            #expect(plan.finalSize.isPositive && plan.finalSize.pixelCount <= ProcessingPlan.maxResultPixels)
        } catch let error as ServiceError {
            #expect(error.status == 400, "\(segment): \(error)")
        } catch {
            Issue.record("\(segment): \(error)")
        }
    }

    @Test func tinyZoomsShrinkToOnePixelAndHugeOnesAreRefused() throws {
        #expect(try Self.plan((200, 100), ["z:1e-300"]).finalSize == PixelSize(width: 1, height: 1))
        #expect(throws: ServiceError.self) { try Self.plan((200, 100), ["z:1e300", "el:1"]) }
        #expect(throws: ServiceError.self) { try Self.plan((200, 100), ["mw:4000000000"]) }
        #expect(throws: ServiceError.self) { try Self.plan((200, 100), ["pd:4000000000"]) }
    }

    @Test func newOptionsSurviveTheCanonicalString() throws {
        let options = try ProcessingOptions(segments: [
            "z:0.5:2", "mw:10", "mh:20", "exar:1:so", "pd:1:2:3:4", "fl:0:1",
        ])
        let reparsed = try ProcessingOptions(segments: options.canonicalString.split(separator: "/").map(String.init))
        #expect(reparsed == options)
        #expect(options.canonicalString != (try ProcessingOptions(segments: ["z:0.5:2"])).canonicalString)
    }
}
