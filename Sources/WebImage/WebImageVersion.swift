/// The package's version, in one place: the library's `User-Agent`, `webimage --version`, the
/// service's `Server` header and the names of the packages `scripts/package` writes all read it.
public enum WebImageVersion {
    /// The semantic version, `MAJOR.MINOR.PATCH`.
    public static let current = "0.1.0"
}
