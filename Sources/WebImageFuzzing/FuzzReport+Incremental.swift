import Foundation
import WebImage

extension FuzzReport {
    /// Feeds `data` to `decoder` as a download would: growing prefixes, asking for the current
    /// image after each, then the whole data as final. The first byte picks how many pieces
    /// (1 to 16) the data arrives in. Returns the final image, if any.
    @discardableResult
    mutating func feedIncrementally(
        _ data: Data, to decoder: any IncrementalImageDecoding, step: String
    ) -> Image? {
        let pieces = 1 + Int(data.first ?? 0) % 16
        let chunk = max(1, data.count / pieces)
        var received = 0
        while received + chunk < data.count {
            received += chunk
            decoder.update(Data(data.prefix(received)), isFinal: false)
            if let partial = self.step("\(step) partial \(received)", { try decoder.currentImage() }) {
                inspect(partial, step: "\(step) partial \(received)")
            }
        }
        decoder.update(data, isFinal: true)
        guard let image = self.step("\(step) final", { try decoder.currentImage() }) else { return nil }
        inspect(image, step: "\(step) final")
        expect(!image.isIncremental, "\(step): the final image is still flagged incremental")
        return image
    }
}
