extension Image {
    /// The image's six dominant-colour swatches (vibrant, light vibrant, dark vibrant, muted,
    /// light muted, dark muted): imgproxy's `dominant_colors`.
    ///
    /// The visible pixels (alpha 128 and up; at most 65 536 of them, on an even grid) are
    /// quantised to at most 64 colours by median cut. Each swatch then takes the unused colour
    /// within its bands of HSL lightness and saturation that scores best: nearness to the
    /// swatch's target lightness counts most, then nearness to its target saturation, then how
    /// common the colour is (the weights of Vibrant.js). A swatch no colour fits is nil.
    ///
    /// With `buildsMissing` (imgproxy's `build_missed`), each missing swatch is made instead from
    /// the hue of the most common colour found for the swatches of its own kind (vibrant or
    /// muted; of the other kind when its own has none), at the swatch's target lightness and
    /// saturation. An image without visible pixels has no swatches either way. The swatches are
    /// opaque, and the orientation does not matter to them.
    public func dominantColors(buildsMissing: Bool = false) -> DominantColors {
        let visible = AnalysisInput.gridSamples(of: bitmap).filter { $0.a >= 128 }
        let colors = MedianCut.quantize(visible, maximumColors: 64)
        var picked = SwatchSelection.pick(colors)
        if buildsMissing { SwatchSelection.buildMissing(&picked) }
        var result = DominantColors()
        for (swatch, color) in picked { result[swatch] = color.color }
        return result
    }
}

/// How colours are matched to the six swatches (lightness and saturation targets, score
/// weights), following the numbers Android's Palette and Vibrant.js publish.
enum SwatchSelection {
    struct Target {
        var lightness: (min: Double, target: Double, max: Double)
        var saturation: (min: Double, target: Double, max: Double)
        var isVibrant: Bool
    }

    static func target(_ swatch: DominantColors.Swatch) -> Target {
        let light = (min: 0.55, target: 0.74, max: 1.0)
        let normal = (min: 0.3, target: 0.5, max: 0.7)
        let dark = (min: 0.0, target: 0.26, max: 0.45)
        let vibrant = (min: 0.35, target: 1.0, max: 1.0)
        let muted = (min: 0.0, target: 0.3, max: 0.4)
        return switch swatch {
        case .vibrant: Target(lightness: normal, saturation: vibrant, isVibrant: true)
        case .lightVibrant: Target(lightness: light, saturation: vibrant, isVibrant: true)
        case .darkVibrant: Target(lightness: dark, saturation: vibrant, isVibrant: true)
        case .muted: Target(lightness: normal, saturation: muted, isVibrant: false)
        case .lightMuted: Target(lightness: light, saturation: muted, isVibrant: false)
        case .darkMuted: Target(lightness: dark, saturation: muted, isVibrant: false)
        }
    }

    /// The colour each swatch takes, in the order of ``DominantColors/Swatch/allCases``; a
    /// colour serves one swatch at most.
    static func pick(_ colors: [PopulatedColor]) -> [DominantColors.Swatch: PopulatedColor] {
        let largest = Double(colors.map(\.population).max() ?? 1)
        var picked: [DominantColors.Swatch: PopulatedColor] = [:]
        var used = Set<Int>()
        for swatch in DominantColors.Swatch.allCases {
            let goal = target(swatch)
            var best: (index: Int, score: Double)?
            for (index, color) in colors.enumerated() where !used.contains(index) {
                let hsl = HSLColor(color.color)
                guard (goal.lightness.min...goal.lightness.max).contains(hsl.lightness),
                    (goal.saturation.min...goal.saturation.max).contains(hsl.saturation)
                else { continue }
                let score =
                    (3 * (1 - abs(hsl.saturation - goal.saturation.target))
                        + 6.5 * (1 - abs(hsl.lightness - goal.lightness.target))
                        + 0.5 * Double(color.population) / largest) / 10
                if score > (best?.score ?? -1) { best = (index, score) }
            }
            if let best {
                used.insert(best.index)
                picked[swatch] = colors[best.index]
            }
        }
        return picked
    }

    /// Fills every missing swatch from the most common swatch found of its kind (see
    /// ``Image/dominantColors(buildsMissing:)``); nothing when none was found.
    static func buildMissing(_ picked: inout [DominantColors.Swatch: PopulatedColor]) {
        let found = picked
        // The most common swatch of a kind; on a tie, the first in `allCases` order.
        let byPopulation = { (vibrant: Bool) -> PopulatedColor? in
            var best: PopulatedColor?
            for swatch in DominantColors.Swatch.allCases where target(swatch).isVibrant == vibrant {
                if let color = found[swatch], color.population > (best?.population ?? -1) { best = color }
            }
            return best
        }
        for swatch in DominantColors.Swatch.allCases where found[swatch] == nil {
            let goal = target(swatch)
            guard let source = byPopulation(goal.isVibrant) ?? byPopulation(!goal.isVibrant) else { return }
            let hue = HSLColor(source.color).hue
            let built = HSLColor(hue: hue, saturation: goal.saturation.target, lightness: goal.lightness.target)
            picked[swatch] = PopulatedColor(color: built.rgba, population: 0)
        }
    }
}
