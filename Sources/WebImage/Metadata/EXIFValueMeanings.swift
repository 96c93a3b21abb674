/// What the values of enumerated EXIF tags mean, in the words libexif (and so imgproxy's `/info`)
/// uses: `Orientation` 6 reads `Right-top`, `Flash` 0x19 `Flash fired, auto mode`.
///
/// A value a table does not list stays a number. Only tags of IFD0 and the Exif IFD are listed
/// (GPS tags reuse their numbers; `GPSAltitudeRef` is formatted on its own).
enum EXIFValueMeanings {
    /// The meaning of `value` for `tag`, or nil when the tag is not enumerated or the value unlisted.
    static func meaning(of value: Int, tag: Int) -> String? { tables[tag]?[value] }

    /// Whether `tag` is an enumerated tag.
    static func isEnumerated(_ tag: Int) -> Bool { tables[tag] != nil }

    private static let units: [Int: String] = [2: "Inch", 3: "Centimeter"]
    private static let normalSoftHard: [Int: String] = [0: "Normal", 1: "Soft", 2: "Hard"]

    private static let tables: [Int: [Int: String]] = [
        0x0103: [  // Compression
            1: "Uncompressed", 5: "LZW compression", 6: "JPEG compression", 7: "JPEG compression",
            8: "Deflate/ZIP compression", 32773: "PackBits compression",
        ],
        0x0106: [  // PhotometricInterpretation
            0: "Reversed mono", 1: "Normal mono", 2: "RGB", 3: "Palette", 5: "CMYK", 6: "YCbCr", 8: "CieLAB",
        ],
        0x0112: [  // Orientation: where row 0 and column 0 are
            1: "Top-left", 2: "Top-right", 3: "Bottom-right", 4: "Bottom-left", 5: "Left-top", 6: "Right-top",
            7: "Right-bottom", 8: "Left-bottom",
        ],
        // PlanarConfiguration, by the TIFF specification's values (libexif shifts them by one).
        0x011C: [1: "Chunky format", 2: "Planar format"],
        0x0128: units,  // ResolutionUnit
        0x0213: [1: "Centered", 2: "Co-sited"],  // YCbCrPositioning
        0x8822: [  // ExposureProgram
            0: "Not defined", 1: "Manual", 2: "Normal program", 3: "Aperture priority", 4: "Shutter priority",
            5: "Creative program (biased toward depth of field)",
            6: "Creative program (biased toward fast shutter speed)",
            7: "Portrait mode (for closeup photos with the background out of focus)",
            8: "Landscape mode (for landscape photos with the background in focus)",
        ],
        0x8830: [  // SensitivityType
            0: "Unknown", 1: "Standard output sensitivity (SOS)", 2: "Recommended exposure index (REI)",
            3: "ISO speed", 4: "Standard output sensitivity (SOS) and recommended exposure index (REI)",
            5: "Standard output sensitivity (SOS) and ISO speed", 6: "Recommended exposure index (REI) and ISO speed",
            7: "Standard output sensitivity (SOS) and recommended exposure index (REI) and ISO speed",
        ],
        0x9207: [  // MeteringMode
            0: "Unknown", 1: "Average", 2: "Center-weighted average", 3: "Spot", 4: "Multi spot", 5: "Pattern",
            6: "Partial", 255: "Other",
        ],
        0x9208: [  // LightSource
            0: "Unknown", 1: "Daylight", 2: "Fluorescent", 3: "Tungsten incandescent light", 4: "Flash",
            9: "Fine weather", 10: "Cloudy weather", 11: "Shade", 12: "Daylight fluorescent",
            13: "Day white fluorescent", 14: "Cool white fluorescent", 15: "White fluorescent", 17: "Standard light A",
            18: "Standard light B", 19: "Standard light C", 20: "D55", 21: "D65", 22: "D75", 24: "ISO studio tungsten",
            255: "Other",
        ],
        0x9209: flash,
        0xA001: [1: "sRGB", 2: "Adobe RGB", 0xFFFF: "Uncalibrated"],  // ColorSpace
        0xA210: units,  // FocalPlaneResolutionUnit
        0xA217: [  // SensingMethod
            1: "Not defined", 2: "One-chip color area sensor", 3: "Two-chip color area sensor",
            4: "Three-chip color area sensor", 5: "Color sequential area sensor", 7: "Trilinear sensor",
            8: "Color sequential linear sensor",
        ],
        0xA401: [0: "Normal process", 1: "Custom process"],  // CustomRendered
        0xA402: [0: "Auto exposure", 1: "Manual exposure", 2: "Auto bracket"],  // ExposureMode
        0xA403: [0: "Auto white balance", 1: "Manual white balance"],  // WhiteBalance
        0xA406: [0: "Standard", 1: "Landscape", 2: "Portrait", 3: "Night scene"],  // SceneCaptureType
        0xA407: [  // GainControl
            0: "Normal", 1: "Low gain up", 2: "High gain up", 3: "Low gain down", 4: "High gain down",
        ],
        0xA408: normalSoftHard,  // Contrast
        0xA409: [0: "Normal", 1: "Low saturation", 2: "High saturation"],  // Saturation
        0xA40A: normalSoftHard,  // Sharpness
        0xA40C: [0: "Unknown", 1: "Macro", 2: "Close view", 3: "Distant view"],  // SubjectDistanceRange
        0xA460: [  // CompositeImage
            0: "Unknown", 1: "Not a composite image", 2: "General composite image",
            3: "Composite image captured while shooting",
        ],
    ]

    /// `Flash`: whether it fired, its mode, return light and red-eye reduction, by bit pattern.
    private static let flash: [Int: String] = [
        0x00: "Flash did not fire", 0x01: "Flash fired", 0x05: "Strobe return light not detected",
        0x07: "Strobe return light detected", 0x08: "Flash did not fire",
        0x09: "Flash fired, compulsory flash mode",
        0x0D: "Flash fired, compulsory flash mode, return light not detected",
        0x0F: "Flash fired, compulsory flash mode, return light detected",
        0x10: "Flash did not fire, compulsory flash mode", 0x18: "Flash did not fire, auto mode",
        0x19: "Flash fired, auto mode", 0x1D: "Flash fired, auto mode, return light not detected",
        0x1F: "Flash fired, auto mode, return light detected", 0x20: "No flash function",
        0x41: "Flash fired, red-eye reduction mode",
        0x45: "Flash fired, red-eye reduction mode, return light not detected",
        0x47: "Flash fired, red-eye reduction mode, return light detected",
        0x49: "Flash fired, compulsory flash mode, red-eye reduction mode",
        0x4D: "Flash fired, compulsory flash mode, red-eye reduction mode, return light not detected",
        0x4F: "Flash fired, compulsory flash mode, red-eye reduction mode, return light detected",
        0x58: "Flash did not fire, auto mode, red-eye reduction mode",
        0x59: "Flash fired, auto mode, red-eye reduction mode",
        0x5D: "Flash fired, auto mode, return light not detected, red-eye reduction mode",
        0x5F: "Flash fired, auto mode, return light detected, red-eye reduction mode",
    ]
}
