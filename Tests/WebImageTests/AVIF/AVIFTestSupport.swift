#if AVIF
    @testable import WebImage

    /// The AVIF fixtures (from Tests/Fixtures/generators/avif.py; references are Pillow's decodes).
    enum AVIFTestSupport: CoderFixtures {
        static let folder = "avif"
        static let fileExtension = "avif"
        static let format = ImageFormat.avif
        static var coder: any ImageCoding { AVIFCoder() }
    }
#endif
