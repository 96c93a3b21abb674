import ArgumentParser
import Foundation
import WebImage

/// The transform flags `convert` and `fetch` share, in the order they apply.
struct TransformOptions: ParsableArguments {
    @Option(help: ArgumentHelp("Resize to WxH pixels (upscaling allowed).", valueName: "WxH"))
    var resize: PixelSize?
    @Option(
        help: ArgumentHelp(
            "How --resize fits: fill (stretch to WxH, the default, as SDWebImage), aspect-fit (fit inside WxH, "
                + "no margins) or aspect-fill (cover WxH, crop the centre).",
            valueName: "mode"))
    var mode: ResizeMode?
    @Option(
        parsing: .unconditional,
        help: ArgumentHelp("Crop to X,Y,W,H pixels, clamped to the image.", valueName: "X,Y,W,H"))
    var crop: CropRectangle?
    @Option(
        parsing: .unconditional,
        help: ArgumentHelp("Round every corner with radius R pixels (more than 0).", valueName: "R"))
    var roundCorner: CornerRadius?
    @Option(
        parsing: .unconditional,
        help: ArgumentHelp(
            "Rotate by DEGREES; positive is clockwise (as ImageMagick's -rotate) and the canvas grows to fit.",
            valueName: "DEGREES"))
    var rotate: FiniteNumber?
    @Option(help: ArgumentHelp("Mirror the image across one axis or both.", valueName: "direction"))
    var flip: FlipDirection?
    @Option(help: ArgumentHelp("Tint with a colour (source-in: keeps the image's alpha).", valueName: "RRGGBBAA"))
    var tint: RGBA8?
    @Option(
        parsing: .unconditional,
        help: ArgumentHelp("Gaussian blur with standard deviation RADIUS pixels (0 = none).", valueName: "RADIUS"))
    var blur: BlurRadius?

    /// The values are checked while parsing; only the combination is left.
    func validate() throws {
        if resize == nil, let mode { throw ValidationError("--mode \(mode.rawValue) needs --resize") }
    }

    /// The flags as one pipeline in the contract's order — resize, crop, round corner, rotate,
    /// flip, tint, blur — or nil when no transform flag is given.
    /// Values the parser takes but the library refuses (a blur above
    /// ``ImageBlurTransformer/maximumRadius``) fail here, before any image is read, with one
    /// message naming the flag.
    func makeTransformer() throws -> ImagePipelineTransformer? {
        if let blur, blur.value > ImageBlurTransformer.maximumRadius {
            throw CommandFailure(
                "--blur must be at most \(Int(clamping: ImageBlurTransformer.maximumRadius)) pixels, got \(blur.value)")
        }
        var steps: [any ImageTransforming] = []
        if let resize { steps.append(ImageResizingTransformer(size: resize, scaleMode: mode?.scaleMode ?? .fill)) }
        if let crop { steps.append(crop.transformer) }
        if let roundCorner { steps.append(ImageRoundCornerTransformer(radius: roundCorner.value)) }
        // The transformer turns counter-clockwise (SDWebImage); the flag clockwise (ImageMagick).
        if let rotate { steps.append(ImageRotationTransformer(angle: -rotate.value * .pi / 180, fitSize: true)) }
        if let flip { steps.append(flip.transformer) }
        if let tint { steps.append(ImageTintTransformer(color: tint)) }
        if let blur { steps.append(ImageBlurTransformer(radius: blur.value)) }
        return steps.isEmpty ? nil : ImagePipelineTransformer(steps)
    }
}
