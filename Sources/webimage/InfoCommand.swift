import ArgumentParser
import Foundation
import WebImage

/// `webimage info <file|url> [--json]`: what the header says, without decoding pixels.
struct InfoCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "info",
        abstract: "Print an image's format, size, frames, loop count, alpha and orientation.")

    @Argument(help: "An image file or file: URL.")
    var input: String

    @Flag(help: "Print one JSON object.")
    var json = false

    func run() async throws {
        let data = try await InputReader.read(input)
        let info = try ImageCodersManager.shared.imageInfo(for: data)
        if json {
            print(Self.json(info, byteCount: data.count))
        } else {
            print("format:      \(info.format.name)")
            print("size:        \(info.width)x\(info.height)")
            print("frames:      \(info.frameCount)")
            print("loop count:  \(info.loopCount == 0 ? "forever" : String(info.loopCount))")
            print("alpha:       \(info.hasAlpha ? "yes" : "no")")
            print("orientation: \(info.orientation.rawValue)")
            print("bytes:       \(data.count)")
        }
    }

    /// The contract's JSON shape, keys in a stable order.
    static func json(_ info: ImageInfo, byteCount: Int) -> String {
        let fields: [(String, String)] = [
            ("format", "\"\(info.format.name)\""),
            ("width", String(info.width)),
            ("height", String(info.height)),
            ("frameCount", String(info.frameCount)),
            ("loopCount", String(info.loopCount)),
            ("hasAlpha", String(info.hasAlpha)),
            ("orientation", String(info.orientation.rawValue)),
            ("byteCount", String(byteCount)),
        ]
        return "{" + fields.map { "\"\($0.0)\":\($0.1)" }.joined(separator: ",") + "}"
    }
}
