#if HEIC
    import CHEIF

    /// Process-wide libheif set-up and its errors in words.
    enum HEIFLibrary {
        /// `heif_init` registers the built-in codec plugins; it is reference-counted, and this one
        /// reference is held for the life of the process (never `heif_deinit`), so that no coder
        /// can tear the registry down under another thread.
        private static let initialized: Bool = heif_init(nil).code == heif_error_Ok

        static func initialize() { _ = initialized }

        /// Whether `error` is success.
        static func succeeded(_ error: heif_error) -> Bool { error.code == heif_error_Ok }

        /// libheif's message for `error`, which may point into the context that failed: call this
        /// before freeing it.
        static func message(_ error: heif_error) -> String {
            guard let text = error.message else { return "libheif error \(error.code.rawValue)" }
            return String(cString: text)
        }

        /// The widest and tallest picture libheif's parser accepts (its own default in 1.15). Our
        /// pixel limit, usually lower, is checked against the parsed size before any decoding.
        static let maximumSide: Int32 = 32768
    }
#endif
