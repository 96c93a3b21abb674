#if JPEGXL
    @testable import WebImage

    /// The JPEG XL fixtures (from Tests/Fixtures/generators/jxl.py; references are jxl-oxide's
    /// decodes, or the lossless sources).
    enum JPEGXLTestSupport: CoderFixtures {
        static let folder = "jxl"
        static let fileExtension = "jxl"
        static let format = ImageFormat.jpegXL
        static var coder: any ImageCoding { JPEGXLCoder() }
    }
#endif
