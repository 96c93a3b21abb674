import Foundation
import WebImage
import WebImageServer

extension FuzzBodies {
    /// What the image service does with a request path before it fetches anything: split it,
    /// parse the options, check a signature, and plan the geometry for a few source sizes.
    /// Every failure must be a 400, 403 or 404 ``ServiceError``; the canonical options string
    /// must parse back to itself; a plan's sizes must be positive and within the limit.
    public static func serviceURL(_ data: Data) -> FuzzReport {
        var report = FuzzReport()
        let text = String(decoding: data, as: UTF8.self)
        do {
            let path = try ProcessingPath(text)
            report.expect(text.hasSuffix(path.signedPath), "the signed path is not the end of the path")
            let signer = URLSigner(keyPairs: [URLSigner.KeyPair(key: [1, 2, 3], salt: [4])])
            report.expect(
                (try? signer.verify(path.signature, for: path.signedPath)) == nil || path.signature.count == 43,
                "a signature of the wrong length passed")
            let options = try ProcessingOptions(segments: path.optionSegments)
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
                    let result = plan.extendedSize(options)
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
        } catch {
            report.expect([400, 403, 404].contains(error.status), "failed with \(error)")
        }
        return report
    }
}
