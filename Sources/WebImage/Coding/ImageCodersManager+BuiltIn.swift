extension ImageCodersManager {
    /// The coders WebImage ships, in the order they are tried.
    public static var builtInCoders: [any ImageCoding] {
        [GIFCoder()]
    }
}
