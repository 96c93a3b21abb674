import Foundation
import Testing

@testable import WebImage

@Suite("Average colour, palette and dominant colours")
struct ColorAnalysisTests {
    static let green = RGBA8(r: 0, g: 200, b: 0)
    static let blue = RGBA8(r: 0, g: 0, b: 255)

    @Test("The dominant colours of a red and navy image are those colours, in the swatches that fit them")
    func dominantColorsOfTwoColors() {
        let image = Image(bitmap: AnalysisPictures.twoColors(width: 100, height: 60))
        let colors = image.dominantColors()
        // Pure red is saturated at middle lightness; navy is saturated and dark (lightness 0.25).
        #expect(colors == DominantColors(vibrant: AnalysisPictures.red, darkVibrant: AnalysisPictures.navy))
    }

    @Test("Building the missing swatches fills all six, keeping the found ones and their hue")
    func buildingMissingSwatches() throws {
        let image = Image(bitmap: AnalysisPictures.twoColors(width: 100, height: 60, split: 70))
        let colors = image.dominantColors(buildsMissing: true)
        #expect(colors.vibrant == AnalysisPictures.red)
        #expect(colors.darkVibrant == AnalysisPictures.navy)
        // Red, the more common, lends its hue: light vibrant is red at lightness 0.74,
        // dark muted red at saturation 0.3 and lightness 0.26.
        #expect(colors.lightVibrant == RGBA8(r: 255, g: 122, b: 122))
        #expect(colors.darkMuted == RGBA8(r: 86, g: 46, b: 46))
        for swatch in DominantColors.Swatch.allCases where swatch != .darkVibrant {
            let color = try #require(colors[swatch], "\(swatch)")
            #expect(color.r >= color.g && color.g == color.b, "\(swatch) \(color) is not a red")
        }
    }

    @Test("Grays give muted swatches only")
    func graysAreMuted() {
        let image = Image(
            bitmap: AnalysisPictures.bands(
                width: 90, height: 30,
                colors: [RGBA8(r: 128, g: 128, b: 128), RGBA8(r: 50, g: 50, b: 50), RGBA8(r: 200, g: 200, b: 200)]))
        let colors = image.dominantColors()
        #expect(
            colors
                == DominantColors(
                    muted: RGBA8(r: 128, g: 128, b: 128), lightMuted: RGBA8(r: 200, g: 200, b: 200),
                    darkMuted: RGBA8(r: 50, g: 50, b: 50)))
    }

    @Test("The average of a red and navy image is their mean, rounded half up")
    func averageOfKnownImage() {
        let image = Image(bitmap: AnalysisPictures.twoColors(width: 10, height: 4))
        #expect(image.averageColor() == RGBA8(r: 128, g: 0, b: 64))
        let bands = Image(
            bitmap: AnalysisPictures.bands(width: 30, height: 2, colors: [AnalysisPictures.red, Self.green, Self.blue]))
        #expect(bands.averageColor() == RGBA8(r: 85, g: 67, b: 85))
    }

    @Test("Fully transparent pixels are left out of the average when asked, and counted when not")
    func averageIgnoresTransparent() {
        let image = Image(bitmap: AnalysisPictures.twoColors(width: 10, height: 4, right: .clear))
        #expect(image.averageColor() == AnalysisPictures.red)
        #expect(image.averageColor(ignoringTransparent: true) == AnalysisPictures.red)
        #expect(image.averageColor(ignoringTransparent: false) == RGBA8(r: 128, g: 0, b: 0, a: 128))
        let hidden = Image(bitmap: ImageBitmap(width: 5, height: 5, fill: RGBA8(r: 10, g: 20, b: 30, a: 0)))
        #expect(hidden.averageColor() == .clear)
        #expect(hidden.averageColor(ignoringTransparent: false) == RGBA8(r: 10, g: 20, b: 30, a: 0))
    }

    @Test("The palette of a three-colour image is those three colours, the most common first")
    func paletteOfThreeColors() throws {
        var bitmap = AnalysisPictures.bands(width: 60, height: 20, colors: [Self.green, AnalysisPictures.red])
        for y in 0..<20 { for x in 0..<10 { bitmap[x, y] = Self.blue } }  // blue 10, green 20, red 30 columns
        let image = Image(bitmap: bitmap)
        let expected = [AnalysisPictures.red, Self.green, Self.blue]
        #expect(try image.palette(maximumColors: 3) == expected)
        #expect(try image.palette(maximumColors: 256) == expected)
        #expect(try image.palette(maximumColors: 2).count == 2)
    }

    @Test("A palette of a gradient has as many distinct colours as asked")
    func paletteOfGradient() throws {
        let image = Image(bitmap: AnalysisPictures.gradient(width: 300, height: 300))
        for count in [2, 16, 100, 256] {
            #expect(try Set(image.palette(maximumColors: count)).count == count, "\(count)")
        }
    }

    @Test("Palette sizes outside 2...256 throw invalidArgument", arguments: [Int.min, -1, 0, 1, 257, Int.max])
    func paletteSizeOutOfRange(size: Int) {
        let image = Image(bitmap: ImageBitmap(width: 3, height: 3, fill: .white))
        let error = webImageError { _ = try image.palette(maximumColors: size) }
        #expect(error?.code == .invalidArgument, "\(String(describing: error))")
    }
}
