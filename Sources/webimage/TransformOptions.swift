import ArgumentParser

/// The transform flags of the command-line contract. They are parsed now so that scripts get a
/// precise message; applying them arrives with the transformers.
struct TransformOptions: ParsableArguments {
    @Option(help: "Resize to WxH.")
    var resize: String?
    @Option(help: "Resize mode: fill, aspect-fit or aspect-fill.")
    var mode: String?
    @Option(help: "Crop X,Y,W,H.")
    var crop: String?
    @Option(help: "Round corners with radius R.")
    var roundCorner: String?
    @Option(help: "Rotate by DEGREES.")
    var rotate: String?
    @Option(help: "Flip horizontal, vertical or both.")
    var flip: String?
    @Option(help: "Tint with RRGGBBAA.")
    var tint: String?
    @Option(help: "Gaussian blur RADIUS.")
    var blur: String?

    /// Throws for the first transform flag given: none is implemented yet.
    func rejectUntilAvailable() throws {
        let given: [(String, String?)] = [
            ("--resize", resize), ("--mode", mode), ("--crop", crop), ("--round-corner", roundCorner),
            ("--rotate", rotate), ("--flip", flip), ("--tint", tint), ("--blur", blur),
        ]
        if let flag = given.first(where: { $0.1 != nil })?.0 {
            throw ValidationError(
                "\(flag) is not available yet: the transformers have not landed (use --thumbnail to reduce)")
        }
    }
}
