/// The package's version, in one place: the library's `User-Agent`, `webimage --version`, the
/// service's `Server` header and the names of the packages `scripts/package` writes all read it.
public enum WebImageVersion {
    /// The semantic version, `MAJOR.MINOR.PATCH`.
    public static let current = "0.1.0"

    /// The package traits this build was made with, in the manifest's order: the optional
    /// coders (`AVIF`, `HEIC`, `JPEGXL`, `TIFF`, `SVG`), `ColorManagement` and `Server`.
    public static let traits: [String] = {
        var traits: [String] = []
        #if AVIF
            traits.append("AVIF")
        #endif
        #if HEIC
            traits.append("HEIC")
        #endif
        #if JPEGXL
            traits.append("JPEGXL")
        #endif
        #if TIFF
            traits.append("TIFF")
        #endif
        #if SVG
            traits.append("SVG")
        #endif
        #if ColorManagement
            traits.append("ColorManagement")
        #endif
        #if Server
            traits.append("Server")
        #endif
        return traits
    }()
}
