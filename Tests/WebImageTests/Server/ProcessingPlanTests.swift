import Foundation
import Testing
import WebImage

@_spi(Internals) @testable import WebImageServer

/// The geometry of each resizing type, and where gravity puts a region.
@Suite("Service processing: sizes and gravity")
struct ProcessingPlanTests {
    static func plan(_ source: (Int, Int), _ segments: String...) throws -> ProcessingPlan {
        try ProcessingPlan(
            source: PixelSize(width: source.0, height: source.1), options: ProcessingOptions(segments: segments))
    }

    static func size(_ width: Int, _ height: Int) -> PixelSize { PixelSize(width: width, height: height) }

    @Test func fitFillForceAndAutoGiveImgproxysSizes() throws {
        #expect(try Self.plan((1200, 900), "rs:fit:300:200").resultSize == Self.size(267, 200))
        #expect(try Self.plan((1200, 900), "rs:fill:300:200").scaledSize == Self.size(300, 225))
        #expect(try Self.plan((1200, 900), "rs:fill:300:200").resultSize == Self.size(300, 200))
        #expect(try Self.plan((1200, 900), "rs:force:300:200").resultSize == Self.size(300, 200))
        #expect(try Self.plan((1200, 900), "rs:force:300:0").resultSize == Self.size(300, 900))
        // auto: both landscape → fill; portrait box → fit.
        #expect(try Self.plan((1200, 900), "rs:auto:300:200").resultSize == Self.size(300, 200))
        #expect(try Self.plan((1200, 900), "rs:auto:200:300").resultSize == Self.size(200, 150))
        // One side given: the other follows the aspect ratio.
        #expect(try Self.plan((1200, 900), "w:600").resultSize == Self.size(600, 450))
        #expect(try Self.plan((1200, 900)).resultSize == Self.size(1200, 900))
    }

    @Test func nothingIsEnlargedUnlessAsked() throws {
        #expect(try Self.plan((100, 50), "rs:fit:400:400").resultSize == Self.size(100, 50))
        #expect(try Self.plan((100, 50), "rs:fit:400:400", "el:1").resultSize == Self.size(400, 200))
        // fill keeps what it has; fill-down keeps the box's aspect ratio inside it.
        #expect(try Self.plan((100, 50), "rs:fill:80:80").resultSize == Self.size(80, 50))
        #expect(try Self.plan((100, 50), "rs:fill-down:80:80").resultSize == Self.size(50, 50))
        #expect(try Self.plan((100, 50), "rs:fill-down:200:100").resultSize == Self.size(100, 50))
    }

    @Test func dprMultipliesTheBoxAndCropAndRotateComeFirst() throws {
        #expect(try Self.plan((1200, 900), "rs:fit:300:200", "dpr:2").resultSize == Self.size(533, 400))
        let cropped = try Self.plan((1200, 900), "c:0.5:300", "w:300")
        #expect(cropped.cropSize == Self.size(600, 300))
        #expect(cropped.resultSize == Self.size(300, 150))
        let turned = try Self.plan((1200, 900), "rot:90", "rs:fit:300:300")
        #expect(turned.rotatedSource == Self.size(900, 1200))
        #expect(turned.resultSize == Self.size(225, 300))
        #expect(turned.decodeSize(turned: true) == Self.size(300, 225))
    }

    @Test func theDecoderIsAskedForNoMoreThanTheScaleNeeds() throws {
        #expect(try Self.plan((1200, 900), "rs:fill:300:200").decodeSize(turned: false) == Self.size(300, 225))
        #expect(try Self.plan((1200, 900), "rs:force:300:450").decodeSize(turned: false) == Self.size(600, 450))
        #expect(try Self.plan((1200, 900), "w:2000").decodeSize(turned: false) == nil)
    }

    @Test func extendGrowsTheCanvasToTheBox() throws {
        let options = try ProcessingOptions(segments: ["rs:fit:400:400", "ex:1"])
        let plan = try ProcessingPlan(source: Self.size(200, 100), options: options)
        #expect(plan.resultSize == Self.size(200, 100))
        #expect(plan.finalSize == Self.size(400, 400))
    }

    @Test func resultsAboveThePixelLimitAreRefused() {
        #expect(throws: ServiceError.self) { try Self.plan((100, 100), "rs:force:20000:20000", "el:1") }
    }

    @Test func gravityAnchorsOffsetsAndFocusPoints() {
        let region = Self.size(100, 50)
        let container = Self.size(300, 200)
        func origin(_ gravity: ProcessingOptions.Gravity) -> [Int] {
            let o = GravityPlacement.origin(of: region, in: container, gravity: gravity)
            return [o.x, o.y]
        }
        #expect(origin(.center) == [100, 76])  // (150 + 1) / 2, halves to even, as imgproxy
        #expect(origin(.anchored(.northWest, x: 0, y: 0)) == [0, 0])
        #expect(origin(.anchored(.southEast, x: 0, y: 0)) == [200, 150])
        #expect(origin(.anchored(.east, x: 10, y: 0)) == [190, 76])  // inward from the east edge
        #expect(origin(.anchored(.north, x: 0.1, y: 5)) == [130, 5])  // 0.1 of the width
        #expect(origin(.anchored(.south, x: 0, y: 500)) == [100, 0])  // clamped inside
        #expect(origin(.focusPoint(x: 0, y: 1)) == [0, 150])
        #expect(origin(.focusPoint(x: 0.5, y: 0.5)) == [100, 75])
    }

    @Test func smartGravityFindsTheDetailedPart() throws {
        // A flat grey image with a noisy square near the right edge.
        var bitmap = ImageBitmap(width: 200, height: 100, fill: RGBA8(r: 128, g: 128, b: 128, a: 255))
        var random = SplitMix64(seed: 3)
        for y in 30..<70 {
            for x in 150..<190 {
                let v = UInt8(truncatingIfNeeded: random.next())
                bitmap[x, y] = RGBA8(r: v, g: v &+ 40, b: v &+ 90, a: 255)
            }
        }
        let found = SmartCrop.region(of: Self.size(60, 100), in: bitmap)
        #expect((130...150).contains(found.x), "\(found)")
        #expect(found.y == 0)
    }
}
