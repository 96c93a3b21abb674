#if HEIC
    @testable import WebImage

    /// The HEIC fixtures (from Tests/Fixtures/generators/heic.py; references are pillow-heif's
    /// decodes).
    enum HEICTestSupport: CoderFixtures {
        static let folder = "heic"
        static let fileExtension = "heic"
        static let format = ImageFormat.heic
        static var coder: any ImageCoding { HEICCoder() }
    }
#endif
