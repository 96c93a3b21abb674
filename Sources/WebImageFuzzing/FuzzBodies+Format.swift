import Foundation
import WebImage

extension FuzzBodies {
    /// What a download goes through before a coder is known: format detection, then
    /// ``ImageCodersManager``'s header reading, decoding and incremental decoding.
    public static func format(_ data: Data) -> FuzzReport {
        var report = FuzzReport()
        let format = ImageFormat(detecting: data)
        let manager = ImageCodersManager.shared
        if let info = report.step("imageInfo", { try manager.imageInfo(for: data) }) {
            report.expect(info.format == format, "imageInfo says \(info.format), detection \(format)")
        }
        if let image = report.step("decode", { try manager.decode(data, options: fullOptions) }) {
            report.inspect(image, step: "decode")
            report.expect(image.format == format, "decode gives a \(image.format) image, detection says \(format)")
        }
        report.feedIncrementally(data, to: manager.makeIncrementalDecoder(options: fullOptions), step: "incremental")
        return report
    }
}
