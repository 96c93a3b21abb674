/// The six swatches of an image's dominant colours, as Android's Palette and Vibrant.js name
/// them and imgproxy's `dominant_colors` returns them. Made by
/// ``Image/dominantColors(buildsMissing:)``.
///
/// Vibrant swatches are saturated colours, muted ones greyish; light, normal and dark are bands
/// of HSL lightness. A swatch the image has no colour for is nil, unless it was built.
public struct DominantColors: Hashable, Sendable {
    /// Saturated, of middle lightness.
    public var vibrant: RGBA8?
    /// Saturated and light.
    public var lightVibrant: RGBA8?
    /// Saturated and dark.
    public var darkVibrant: RGBA8?
    /// Greyish, of middle lightness.
    public var muted: RGBA8?
    /// Greyish and light.
    public var lightMuted: RGBA8?
    /// Greyish and dark.
    public var darkMuted: RGBA8?

    public init(
        vibrant: RGBA8? = nil, lightVibrant: RGBA8? = nil, darkVibrant: RGBA8? = nil, muted: RGBA8? = nil,
        lightMuted: RGBA8? = nil, darkMuted: RGBA8? = nil
    ) {
        self.vibrant = vibrant
        self.lightVibrant = lightVibrant
        self.darkVibrant = darkVibrant
        self.muted = muted
        self.lightMuted = lightMuted
        self.darkMuted = darkMuted
    }

    /// One of the six swatches.
    public enum Swatch: CaseIterable, Sendable {
        case vibrant, lightVibrant, darkVibrant, muted, lightMuted, darkMuted
    }

    /// The colour of `swatch`, nil when the image has none.
    public subscript(swatch: Swatch) -> RGBA8? {
        get {
            switch swatch {
            case .vibrant: vibrant
            case .lightVibrant: lightVibrant
            case .darkVibrant: darkVibrant
            case .muted: muted
            case .lightMuted: lightMuted
            case .darkMuted: darkMuted
            }
        }
        set {
            switch swatch {
            case .vibrant: vibrant = newValue
            case .lightVibrant: lightVibrant = newValue
            case .darkVibrant: darkVibrant = newValue
            case .muted: muted = newValue
            case .lightMuted: lightMuted = newValue
            case .darkMuted: darkMuted = newValue
            }
        }
    }
}
