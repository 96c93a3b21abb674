import ArgumentParser
import WebImage

extension PixelSize: ExpressibleByArgument {
    /// Parses `WxH` (for example `400x300`); both sides must be positive.
    public init?(argument: String) {
        let parts = argument.lowercased().split(separator: "x", omittingEmptySubsequences: false)
        guard parts.count == 2, let width = Int(parts[0]), let height = Int(parts[1]), width > 0, height > 0
        else { return nil }
        self.init(width: width, height: height)
    }
}

/// Output formats `convert` can write.
enum OutputFormat: String, ExpressibleByArgument, CaseIterable {
    case png, jpeg, gif, webp

    var imageFormat: ImageFormat {
        switch self {
        case .png: .png
        case .jpeg: .jpeg
        case .gif: .gif
        case .webp: .webp
        }
    }
}
