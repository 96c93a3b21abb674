import Foundation
@_spi(Internals) import WebImage
@_spi(Internals) import WebImageServer

extension FuzzBodies {
    /// Presets the service URL target may name, two of them naming each other.
    static let servicePresets = try? ProcessingPresets(definitions: [
        "thumb=rs:fill:50:50/q:70", "loop=pr:loop2/bl:1", "loop2=pr:loop:thumb/sh:1",
    ])

    /// What the image service does with a request path: split it, parse the options, check a
    /// signature, plan the geometry for a few source sizes, and then make the result from a
    /// small in-memory source, as the service would once it had fetched it (decode, process,
    /// encode). Every failure must be a 400, 403, 404 or 422 ``ServiceError``; the canonical
    /// options string must parse back to itself; a plan's sizes must be positive and within the
    /// limit; a result must decode to the size its plan promised.
    public static func serviceURL(_ data: Data) -> FuzzReport {
        var report = FuzzReport()
        guard let presets = servicePresets else {
            report.expect(false, "the fuzz target's presets do not parse")
            return report
        }
        let text = String(decoding: data, as: UTF8.self)
        if text.hasPrefix("/info/") {
            infoURL(String(text.dropFirst("/info".count)), report: &report)
            return report
        }
        do {
            let path = try ProcessingPath(text)
            let restored = String(path.signedPath.dropFirst())
            report.expect(ProcessingPath.restored(restored) == restored, "restoring the path twice changes it")
            let signer = URLSigner(keyPairs: [URLSigner.KeyPair(key: [1, 2, 3], salt: [4])])
            report.expect(
                (try? signer.verify(path.signature, for: path.signedPath)) == nil || path.signature.count == 43,
                "a signature of the wrong length passed")
            let options = try ProcessingOptions(segments: path.optionSegments, presets: presets)
            let canonical = options.canonicalString
            let reparsed = try ProcessingOptions(segments: canonical.split(separator: "/").map(String.init))
            report.expect(
                reparsed.canonicalString == canonical,
                "canonical '\(canonical)' parses to '\(reparsed.canonicalString)'")
            for size in [
                PixelSize(width: 1, height: 1), PixelSize(width: 1000, height: 800),
                PixelSize(width: 65_500, height: 3),
            ] {
                do {
                    let plan = try ProcessingPlan(source: size, options: options)
                    report.countSuccess()
                    let result = plan.finalSize
                    report.expect(
                        plan.scaledSize.isPositive && result.isPositive
                            && result.pixelCount <= ProcessingPlan.maxResultPixels,
                        "plan for \(size): \(plan.scaledSize) → \(result)")
                    if let decode = plan.decodeSize(turned: false) {
                        report.expect(decode.isPositive, "decode size \(decode)")
                    }
                } catch {
                    report.expect(error.status == 400, "plan failed with \(error)")
                }
            }
            produceResult(options: options, report: &report)
        } catch {
            report.expect([400, 403, 404].contains(error.status), "failed with \(error)")
        }
        return report
    }
}

extension FuzzBodies {
    /// Info presets the `/info` paths may name.
    static let infoPresets = try? ProcessingPresets(definitions: ["hashes=bh:4:3/th:1/ph:1"], forInfo: true)

    /// What `/info` does with a path: split it, parse the info options (whose canonical string
    /// must parse back to itself), and make the JSON for the fuzzer's source as the service would.
    /// Every failure must be a 400 (or a 422 for what the source cannot give).
    static func infoURL(_ path: String, report: inout FuzzReport) {
        guard let presets = infoPresets else {
            report.expect(false, "the fuzz target's info presets do not parse")
            return
        }
        do {
            let parsed = try ProcessingPath(path)
            let options = try InfoOptions(segments: parsed.optionSegments, presets: presets)
            let canonical = options.canonicalString
            let reparsed = try InfoOptions(segments: canonical.split(separator: "/").map(String.init))
            report.expect(reparsed.canonicalString == canonical, "info canonical '\(canonical)' does not parse back")
            let json = try InfoReport.make(from: Data(serviceSourceBytes), options: options, maxPixels: maxPixelCount)
            report.expect(json.hasPrefix("{") && json.hasSuffix("}"), "info answer \(json)")
            report.countSuccess()
        } catch {
            report.expect([400, 422].contains(error.status), "info failed with \(error)")
        }
    }

    /// The source the service-URL fuzzer processes: 13×9 with a gradient and transparent
    /// corners, so that crops, gravity, alpha and flattening all have something to act on. Kept
    /// as an array: LeakSanitizer cannot see a `Data` held by a global (its storage pointer is
    /// packed with tag bits) and reported it as leaked.
    static let serviceSourceBytes: [UInt8] = {
        let bitmap = ImageBitmap(width: 13, height: 9) { pixels in
            for y in 0..<9 {
                for x in 0..<13 {
                    let i = (y * 13 + x) * 4
                    pixels[i] = UInt8(x * 19)
                    pixels[i + 1] = UInt8(y * 28)
                    pixels[i + 2] = UInt8((x + y) * 11)
                    pixels[i + 3] = (x == 0 || x == 12) && (y == 0 || y == 8) ? 0 : 255
                }
            }
        }
        let image = Image(bitmap: bitmap, format: .png, hasAlpha: true)
        return [UInt8](
            (try? ImageCodersManager.shared.encode(image, as: .png, options: ImageEncodeOptions())) ?? Data())
    }()

    /// Results up to this many pixels are made (and encoded as PNG); larger plans are only
    /// checked, so that one input cannot spend the fuzzer's time on a huge canvas.
    static let maxProcessedPixels = 1 << 18

    /// Makes the result of `options` from ``serviceSourceBytes`` (a PNG) as the service does, when its
    /// plans are small enough, and checks it decodes to the planned size (the last chained
    /// pipeline's, each planned from the one before); to the source's own size when
    /// `skip_processing` names PNG; and after a `trim`, which plans again from what it kept, only to
    /// some positive size.
    static func produceResult(options: ProcessingOptions, report: inout FuzzReport) {
        var canvas = PixelSize(width: 13, height: 9)
        for pipeline in options.pipelines {
            guard let plan = try? ProcessingPlan(source: canvas, options: pipeline) else { return }
            canvas = plan.finalSize
            guard canvas.pixelCount <= maxProcessedPixels, plan.scaledSize.pixelCount <= maxProcessedPixels else {
                return
            }
        }
        let trims = options.pipelines.contains { $0.trim != nil }
        var configuration = ServiceConfiguration()
        configuration.maxSourcePixels = maxPixelCount
        do {
            let result = try ResultProducer(untracedWith: configuration, options: options)
                .produce(from: Data(serviceSourceBytes), format: .png)
            let image = try ImageCodersManager.shared.decode(result.data, options: fullOptions)
            report.countSuccess()
            let skipped = options.skipProcessingFormats.contains(.png) && (options.format ?? .png) == .png
            let expected = skipped ? PixelSize(width: 13, height: 9) : canvas
            report.expect(
                image.bitmap.size == expected || (trims && !skipped && image.bitmap.size.isPositive),
                "result \(image.bitmap.size), planned \(expected)")
        } catch let error as ServiceError {
            report.expect([400, 422].contains(error.status), "processing failed with \(error)")
        } catch {
            report.expect(false, "processing failed with an untyped \(error)")
        }
    }
}
