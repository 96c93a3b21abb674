import ArgumentParser
import Foundation
import WebImage

/// The transform flags of the command-line contract, shared by `convert` and (later) `fetch`.
struct TransformOptions: ParsableArguments {
    @Option(help: ArgumentHelp("Resize to WxH pixels (upscaling allowed).", valueName: "WxH"))
    var resize: String?
    @Option(
        help: ArgumentHelp(
            "How --resize fits: fill (stretch to WxH, the default, as SDWebImage), aspect-fit (fit inside WxH, "
                + "no margins) or aspect-fill (cover WxH, crop the centre).",
            valueName: "mode"))
    var mode: String?
    @Option(help: ArgumentHelp("Crop to X,Y,W,H pixels, clamped to the image.", valueName: "X,Y,W,H"))
    var crop: String?
    @Option(help: ArgumentHelp("Round every corner with radius R pixels.", valueName: "R"))
    var roundCorner: String?
    @Option(
        help: ArgumentHelp(
            "Rotate by DEGREES; positive is clockwise (as ImageMagick's -rotate) and the canvas grows to fit.",
            valueName: "DEGREES"))
    var rotate: String?
    @Option(help: ArgumentHelp("Flip horizontal, vertical or both.", valueName: "direction"))
    var flip: String?
    @Option(help: ArgumentHelp("Tint with a colour (source-in: keeps the image's alpha).", valueName: "RRGGBBAA"))
    var tint: String?
    @Option(help: ArgumentHelp("Gaussian blur with standard deviation RADIUS pixels (0 = none).", valueName: "RADIUS"))
    var blur: String?

    /// Checks every flag's value, so bad values fail before any work.
    func validate() throws {
        _ = try makeTransformer()
    }

    /// The flags as one pipeline in the contract's order — resize, crop, round corner, rotate,
    /// flip, tint, blur — or nil when no transform flag is given.
    func makeTransformer() throws -> ImagePipelineTransformer? {
        var steps: [any ImageTransforming] = []
        if let resize {
            guard let size = PixelSize(argument: resize) else {
                throw ValidationError("--resize needs WxH with positive whole numbers, got '\(resize)'")
            }
            steps.append(ImageResizingTransformer(size: size, scaleMode: try scaleMode()))
        } else if let mode {
            throw ValidationError("--mode '\(mode)' needs --resize")
        }
        if let crop {
            let values = crop.split(separator: ",", omittingEmptySubsequences: false).map {
                Double($0.trimmingCharacters(in: .whitespaces))
            }
            guard values.count == 4, let x = values[0], let y = values[1], let w = values[2], let h = values[3],
                [x, y, w, h].allSatisfy(\.isFinite), w > 0, h > 0
            else {
                throw ValidationError("--crop needs X,Y,W,H with a positive width and height, got '\(crop)'")
            }
            steps.append(ImageCroppingTransformer(x: x, y: y, width: w, height: h))
        }
        if let roundCorner {
            guard let radius = Double(roundCorner), radius.isFinite, radius > 0 else {
                throw ValidationError("--round-corner needs a positive radius, got '\(roundCorner)'")
            }
            steps.append(ImageRoundCornerTransformer(radius: radius))
        }
        if let rotate {
            guard let degrees = Double(rotate), degrees.isFinite else {
                throw ValidationError("--rotate needs a number of degrees, got '\(rotate)'")
            }
            // The transformer turns counter-clockwise (SDWebImage); the flag clockwise (ImageMagick).
            steps.append(ImageRotationTransformer(angle: -degrees * .pi / 180, fitSize: true))
        }
        if let flip {
            switch flip.lowercased() {
            case "horizontal": steps.append(ImageFlippingTransformer(horizontal: true, vertical: false))
            case "vertical": steps.append(ImageFlippingTransformer(horizontal: false, vertical: true))
            case "both": steps.append(ImageFlippingTransformer(horizontal: true, vertical: true))
            default: throw ValidationError("--flip needs horizontal, vertical or both, got '\(flip)'")
            }
        }
        if let tint {
            guard let color = Self.parseColor(tint) else {
                throw ValidationError("--tint needs a colour as RRGGBBAA hex digits, got '\(tint)'")
            }
            steps.append(ImageTintTransformer(color: color))
        }
        if let blur {
            guard let radius = Double(blur), radius.isFinite, radius >= 0 else {
                throw ValidationError("--blur needs a radius of 0 or more, got '\(blur)'")
            }
            steps.append(ImageBlurTransformer(radius: radius))
        }
        return steps.isEmpty ? nil : ImagePipelineTransformer(steps)
    }

    private func scaleMode() throws -> ImageScaleMode {
        switch mode?.lowercased() {
        case nil, "fill": return .fill
        case "aspect-fit": return .aspectFit
        case "aspect-fill": return .aspectFill
        case let other?: throw ValidationError("--mode needs fill, aspect-fit or aspect-fill, got '\(other)'")
        }
    }

    /// `RRGGBBAA` (an optional leading `#`) as a colour.
    static func parseColor(_ text: String) -> RGBA8? {
        let hex = text.hasPrefix("#") ? String(text.dropFirst()) : text
        guard hex.count == 8, hex.allSatisfy(\.isHexDigit), let value = UInt32(hex, radix: 16) else { return nil }
        return RGBA8(
            r: UInt8(value >> 24), g: UInt8((value >> 16) & 0xFF), b: UInt8((value >> 8) & 0xFF),
            a: UInt8(value & 0xFF))
    }
}
