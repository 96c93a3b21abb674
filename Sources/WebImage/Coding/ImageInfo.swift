/// What a header says about an image, read without decoding its pixels.
public struct ImageInfo: Sendable, Equatable, Codable {
    public var format: ImageFormat
    /// Width as shown (after EXIF orientation).
    public var width: Int
    /// Height as shown (after EXIF orientation).
    public var height: Int
    public var frameCount: Int
    /// 0 means loop forever; 1 for stills and for GIFs without a loop extension.
    public var loopCount: Int
    /// Whether the image has an alpha channel or transparency key.
    public var hasAlpha: Bool
    public var orientation: ImageOrientation

    public init(
        format: ImageFormat, width: Int, height: Int, frameCount: Int = 1, loopCount: Int = 1,
        hasAlpha: Bool, orientation: ImageOrientation = .up
    ) {
        self.format = format
        self.width = width
        self.height = height
        self.frameCount = frameCount
        self.loopCount = loopCount
        self.hasAlpha = hasAlpha
        self.orientation = orientation
    }
}
