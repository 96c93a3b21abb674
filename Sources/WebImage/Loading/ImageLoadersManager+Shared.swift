extension ImageLoadersManager {
    /// The loaders every ``ImageManager`` uses by default.
    public static let shared = ImageLoadersManager(loaders: [FileImageLoader(), DataURLImageLoader()])
}
