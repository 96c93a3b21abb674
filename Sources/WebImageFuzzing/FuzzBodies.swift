import WebImage

/// The bodies of the libFuzzer targets under `Fuzz/`, one function per target.
///
/// They live in a library so that the normal test suite replays committed inputs through
/// exactly the code the fuzzers run. A body never traps and never throws: it feeds its input to
/// the library and returns a ``FuzzReport``; the fuzz target traps if the report has violations.
public enum FuzzBodies {
    /// The limit every body decodes with: 1 megapixel, far below the default (every seed fits),
    /// so that hostile headers cannot make the fuzzer spend its time allocating. Each input is
    /// decoded five ways, under AddressSanitizer and coverage counters (about 3 megapixels a
    /// second here): a 2.6-megapixel, 5-frame WebP of 284 bytes took 13 s at the former 4, past
    /// libFuzzer's 10 s timeout, though a release build decodes it in 0.2 s.
    public static let maxPixelCount = 1_000_000

    /// Full-size decoding under the fuzzing limits, reading every kind of metadata (so the EXIF,
    /// ICC and XMP parsers are fuzzed too).
    static let fullOptions: ImageDecodeOptions = {
        var options = ImageDecodeOptions()
        options.maxPixelCount = maxPixelCount
        options.maxAnimationByteCount = 8 << 20  // more than this is decoded lazily
        options.readMetadata = .all
        return options
    }()

    /// The most metadata a decode may keep from `count` bytes: the bytes themselves (JPEG and
    /// WebP copy theirs), plus 8 MB for each of the two blocks PNG may inflate.
    static func metadataLimit(forInputOf count: Int) -> Int { count + 16 << 20 }

    /// Thumbnail decoding: every result must fit in 16×16.
    static let thumbnailOptions: ImageDecodeOptions = {
        var options = fullOptions
        options.thumbnailPixelSize = PixelSize(width: 16, height: 16)
        return options
    }()

    /// Thumbnails made from an embedded one where the file has it (JPEG's EXIF thumbnail).
    static let embeddedThumbnailOptions: ImageDecodeOptions = {
        var options = thumbnailOptions
        options.decodeEmbeddedThumbnail = true
        return options
    }()

    /// The first frame of an animation only, as a still.
    static let firstFrameOptions: ImageDecodeOptions = {
        var options = fullOptions
        options.firstFrameOnly = true
        return options
    }()

    /// Lazy animation frames, as a player asks for them.
    static let lazyFramesOptions: ImageDecodeOptions = {
        var options = fullOptions
        options.lazyAnimatedFrames = true
        return options
    }()
}
