import Dispatch
import Foundation
import Testing

@testable import WebImage
@testable import WebImageDisplay

/// A target that records every image it is asked to show.
final class RecordingTarget: WebImageTarget {
    struct Display: Sendable {
        var image: Image?
        var cacheType: ImageCacheType
        var url: URL?
    }
    let imageManager: ImageManager
    private let displays = Locked<[Display]>([])

    init(manager: ImageManager) { imageManager = manager }

    func displayWebImage(_ image: Image?, cacheType: ImageCacheType, url: URL?) {
        displays.withLock { $0.append(Display(image: image, cacheType: cacheType, url: url)) }
    }

    var all: [Display] { displays.withLock { $0 } }
    var images: [Display] { all.filter { $0.image != nil } }
}

/// Records a target's completions.
final class TargetCompletionLog: Sendable {
    struct Call: Sendable {
        var image: Image?
        var error: WebImageError?
        var cacheType: ImageCacheType
        var url: URL?
    }
    private let calls = Locked<[Call]>([])
    var all: [Call] { calls.withLock { $0 } }
    var completion: WebImageTargetCompletion {
        { image, error, cacheType, url in
            self.calls.withLock { $0.append(Call(image: image, error: error, cacheType: cacheType, url: url)) }
        }
    }
}

/// Counts indicator calls.
final class RecordingIndicator: WebImageIndicator {
    private let events = Locked<[String]>([])
    var all: [String] { events.withLock { $0 } }
    func startAnimating() { events.withLock { $0.append("start") } }
    func stopAnimating() { events.withLock { $0.append("stop") } }
    func updateProgress(_ fraction: Double) { events.withLock { $0.append("progress \(fraction)") } }
}

enum BindingFixtures {
    /// A placeholder nothing else looks like: 3×3.
    static let placeholder = Image(bitmap: ImageBitmap(width: 3, height: 3, fill: .white), hasAlpha: false)

    /// A PNG `width` pixels wide, so a displayed image tells which URL it came from.
    static func png(width: Int) throws -> Data {
        let image = Image(bitmap: ImageBitmap(width: width, height: 1, fill: .white), hasAlpha: false)
        return try ImageCodersManager.shared.encode(image, as: .png, options: .init())
    }

    /// Waits until the default binding queue ran everything queued so far.
    static func drain(_ queue: DispatchQueue = WebImageBinding.defaultQueue) { queue.sync {} }
}
