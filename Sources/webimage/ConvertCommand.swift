import ArgumentParser
import Foundation
import WebImage

/// `webimage convert <input> <output> [...]`: decode, optionally reduce and transform, encode.
struct ConvertCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "convert",
        abstract:
            "Convert an image between formats (PNG and APNG, JPEG, GIF, WebP, AVIF, HEIC, JPEG XL, TIFF, BMP, ICO; SVG as input), optionally as a thumbnail or transformed.",
        discussion: """
            The output format comes from --format, else from the output file's extension. Transforms apply \
            in this order: resize, crop, round corner, rotate, flip, tint, blur; to every frame of an animation. \
            Pixels with an ICC profile (Adobe RGB, Display P3...) are converted to sRGB unless --keep-color-profile. \
            With --resize and no --thumbnail, the input is decoded no larger than the resize needs \
            (JPEG shrinks in the DCT first); an SVG is drawn at the size the resize needs, larger than its own too.
            """)

    @Argument(help: "An image file or file: URL.")
    var input: String

    @Argument(help: "The file to write.")
    var output: String

    @Option(help: "Output format; without it, the output file's extension decides.")
    var format: OutputFormat?

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp("Compression quality for lossy formats, 0...1 (default 1).", valueName: "0...1"))
    var quality: CompressionQuality?

    @Option(
        help: ArgumentHelp("Decode no larger than WxH, keeping the aspect ratio (never upscales).", valueName: "WxH"))
    var thumbnail: PixelSize?

    @Option(
        help: ArgumentHelp(
            "How hard the encoder works for a smaller file: zlib level and filters for PNG, the method for WebP, Huffman tables for JPEG."
        ))
    var effort: EffortArgument = .balanced

    @Option(help: ArgumentHelp("JPEG colour resolution: 4:2:0, 4:2:2 or 4:4:4.", valueName: "420|422|444"))
    var chroma: ChromaArgument = .yuv420

    @Option(
        help: ArgumentHelp(
            "Metadata to carry into the output: a comma list of exif, icc and xmp, or all, or none. A kept EXIF block says the image is upright, as written. An ICC profile is there to keep only with --keep-color-profile.",
            valueName: "exif,icc,xmp|all|none"))
    var keepMetadata = MetadataArgument(kinds: [.iccProfile])

    @Flag(
        help: ArgumentHelp(
            "Keep the pixels as stored, with their ICC profile, instead of converting them to sRGB (the default converts, then drops the profile)."
        ))
    var keepColorProfile = false

    @Flag(help: "Keep only the first frame of an animation.")
    var firstFrame = false

    @Flag(
        help: ArgumentHelp(
            "Keep more than 8 bits per channel (16-bit PNG and TIFF, float TIFF, 10- and 12-bit AVIF and HEIC, JPEG XL) when writing PNG, TIFF, AVIF or JPEG XL; crop, flip, quarter turns and resizing keep them, other transforms work at 8 bits."
        ))
    var keepDepth = false

    @OptionGroup var transforms: TransformOptions

    func run() async throws {
        let target = try outputFormat()
        let data = try await InputReader.read(input)
        var decodeOptions = ImageDecodeOptions()
        decodeOptions.firstFrameOnly = firstFrame
        decodeOptions.readMetadata = keepMetadata.kinds
        decodeOptions.convertToSRGB = !keepColorProfile
        decodeOptions.preservesHighBitDepth = keepDepth
        let transformer = try transforms.makeTransformer()
        if let thumbnail {
            decodeOptions.thumbnailPixelSize = thumbnail
        } else if let transformer {
            // Thumbnail first: decode only as large as the first transform (a resize) needs.
            let info = try ImageCodersManager.shared.imageInfo(for: data)
            let shown = PixelSize(width: info.width, height: info.height)
            if let hint = transformer.decodePixelSize(
                forSourceSize: Self.drawable(shown, info: info, resize: transforms.resize))
            {
                decodeOptions.thumbnailPixelSize = hint
            }
        }
        var image = try ImageCodersManager.shared.decode(data, options: decodeOptions)
        if let transformer {
            image = try transformer.transformedImage(image, forKey: input, animated: !firstFrame)
        }

        var encodeOptions = ImageEncodeOptions()
        if let quality { encodeOptions.compressionQuality = quality.value }
        encodeOptions.firstFrameOnly = firstFrame
        encodeOptions.effort = effort.effort
        encodeOptions.chromaSubsampling = chroma.subsampling
        encodeOptions.keptMetadata = keepMetadata.kinds
        let encoded = try ImageCodersManager.shared.encode(image, as: target, options: encodeOptions)
        do {
            try encoded.write(to: URL(fileURLWithPath: output), options: .atomic)
        } catch {
            throw CommandFailure("'\(output)': cannot write (\(error.localizedDescription))")
        }
    }

    /// The source size the resize hint is asked for: a drawing (SVG) renders at any size, so it
    /// counts as large enough to cover the resize, and is then rendered at the size the resize
    /// needs rather than enlarged from its own.
    static func drawable(_ shown: PixelSize, info: ImageInfo, resize: PixelSize?) -> PixelSize {
        guard info.format == .svg, let resize, shown.isPositive else { return shown }
        let factor = max(Double(resize.width) / Double(shown.width), Double(resize.height) / Double(shown.height))
        guard factor > 1 else { return shown }
        let whole = factor.rounded(.up) + 1
        return PixelSize(
            width: Int(clamping: Double(shown.width) * whole, rounding: .up),
            height: Int(clamping: Double(shown.height) * whole, rounding: .up))
    }

    private func outputFormat() throws -> ImageFormat {
        if let format { return format.imageFormat }
        let ext = URL(fileURLWithPath: output).pathExtension
        // `.heif` names the container; what is written into it is HEIC (HEVC-coded HEIF).
        let fromExtension = ImageFormat(fileExtension: ext) == .heif ? .heic : ImageFormat(fileExtension: ext)
        guard OutputFormat.allCases.contains(where: { $0.imageFormat == fromExtension }) else {
            throw CommandFailure(
                "cannot tell the output format from '\(output)'; use --format png|jpeg|gif|webp|avif|heic|jxl|tiff|bmp|ico"
            )
        }
        return fromExtension
    }
}
