import ArgumentParser
import Foundation
import WebImage

/// `webimage info <file|url> [--json]`: what the header says, without decoding pixels.
/// `webimage info --build [--json]`: the formats and package traits this build has.
struct InfoCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "info",
        abstract: "Print an image's format, size, frames, loop count, alpha and orientation.")

    @Argument(help: "An image file or file: URL.")
    var input: String?

    @Flag(help: "Print the formats and package traits this build has, instead of an image's header.")
    var build = false

    @Flag(help: "Print one JSON object.")
    var json = false

    func validate() throws {
        guard (input == nil) == build else {
            throw ValidationError("give either an image or --build")
        }
    }

    func run() async throws {
        guard let input else {
            print(json ? Self.buildJSON() : Self.buildText())
            return
        }
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

    /// `--build` as text: one line of format names, one of traits.
    static func buildText() -> String {
        let traits = WebImageVersion.traits
        return """
            formats: \(ImageCodersManager.builtInFormats.map(\.name).joined(separator: " "))
            traits:  \(traits.isEmpty ? "none" : traits.joined(separator: " "))
            """
    }

    /// `--build --json`: `{"version":…,"formats":[…],"traits":[…]}`.
    static func buildJSON() -> String {
        func list(_ names: [String]) -> String { "[" + names.map { "\"\($0)\"" }.joined(separator: ",") + "]" }
        return "{\"version\":\"\(WebImageVersion.current)\",\"formats\":"
            + list(ImageCodersManager.builtInFormats.map(\.name)) + ",\"traits\":" + list(WebImageVersion.traits) + "}"
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
