import Foundation
import WebImage

/// One `setImage` call on its way: everything its callbacks need, holding the target weakly.
struct TargetLoad: Sendable {
    let weakTarget: WeakTarget
    let key: String
    let url: URL?
    let placeholder: Image?
    let options: WebImageOptions
    let queue: DispatchQueue
    let progress: ImageLoaderProgress?
    let completed: WebImageTargetCompletion?
    let load = BindingLoad()
    private var registry: WebImageTargetRegistry { .shared }

    init(
        target: any WebImageTarget, key: String, url: URL?, placeholder: Image?, options: WebImageOptions,
        queue: DispatchQueue, progress: ImageLoaderProgress?, completed: WebImageTargetCompletion?
    ) {
        weakTarget = WeakTarget(target)
        self.key = key
        self.url = url
        self.placeholder = placeholder
        self.options = options
        self.queue = queue
        self.progress = progress
        self.completed = completed
    }

    /// The target, if it is alive and this is still its latest load for the key.
    private func currentTarget() -> (any WebImageTarget)? {
        guard let target = weakTarget.target, registry.isCurrent(target, key: key, load: load) else { return nil }
        return target
    }

    func start(manager: ImageManager, context: WebImageContext) {
        guard let target = weakTarget.target else { return }
        let previous = registry.begin(target, key: key, load: load, url: url)
        if !options.contains(.avoidAutoCancelImage) { previous.load?.cancel() }
        if let player = previous.player {
            player.stop()
            queue.async { (weakTarget.target as? any AnimatedWebImageTarget)?.displayWebImagePlayer(nil, url: url) }
        }
        let entry = registry.entry(of: target)
        let indicator = entry?.indicator
        let transition = entry?.transition
        if !options.contains(.delayPlaceholder) {
            queue.async { currentTarget()?.displayWebImage(placeholder, cacheType: .none, url: url) }
        }
        guard let url, !url.absoluteString.isEmpty else {
            registry.update(target, key: key, load: load) { $0.isFinished = true }
            queue.async {
                guard weakTarget.target != nil else { return }
                let target = currentTarget()
                if target != nil { indicator?.stopAnimating() }
                if options.contains(.delayPlaceholder) {
                    target?.displayWebImage(placeholder, cacheType: .none, url: url)
                }
                completed?(nil, .invalidURL(url?.absoluteString ?? ""), .none, url)
            }
            return
        }
        queue.async { if currentTarget() != nil { indicator?.startAnimating() } }
        let operation = manager.loadImage(
            with: url, options: options, context: context,
            progress: { received, expected, url in
                guard let target = weakTarget.target else { return load.cancel() }
                registry.update(target, key: key, load: load) {
                    $0.receivedSize = received
                    $0.expectedSize = expected
                }
                queue.async {
                    guard let target = currentTarget() else { return }
                    indicator?.updateProgress(registry.entry(of: target)?.keys[key]?.loadState.fractionCompleted ?? 0)
                    progress?(received, expected, url)
                }
            },
            completed: { image, _, error, cacheType, finished, _ in
                queue.async {
                    finish(image: image, error: error, cacheType: cacheType, finished: finished, indicator, transition)
                }
            })
        load.attach(operation)
    }

    /// Runs on the binding queue once the manager calls back: marks the load finished, stops
    /// the indicator, then shows the image (through the transition when one applies) and calls
    /// the completion, in SDWebImage's order.
    private func finish(
        image: Image?, error: WebImageError?, cacheType: ImageCacheType, finished: Bool,
        _ indicator: (any WebImageIndicator)?, _ transition: WebImageTransition?
    ) {
        guard let target = weakTarget.target else { return load.cancel() }
        let isCurrent = registry.isCurrent(target, key: key, load: load)
        if finished, isCurrent {
            registry.update(target, key: key, load: load) { state in
                state.isFinished = true
                if state.expectedSize <= 0, state.receivedSize <= 0, image != nil {
                    state.receivedSize = 1
                    state.expectedSize = 1
                }
            }
            indicator?.stopAnimating()
        }
        let avoidAutoSet = options.contains(.avoidAutoSetImage)
        let callCompletion = finished || avoidAutoSet
        let report: @Sendable () -> Void = { if callCompletion { completed?(image, error, cacheType, url) } }
        let noSet = (image != nil && avoidAutoSet) || (image == nil && !options.contains(.delayPlaceholder))
        guard isCurrent, !noSet else { return report() }
        let shown = image ?? placeholder
        let diskWasAsync = cacheType == .disk && !options.contains(.queryDiskDataSync)
        guard finished, let transition,
            options.contains(.forceTransition) || cacheType == .none || diskWasAsync
        else {
            target.displayWebImage(shown, cacheType: cacheType, url: url)
            if finished { play(image, on: target) }
            return report()
        }
        transition.prepare?(target, shown, cacheType)
        if !transition.avoidAutoSetImage { target.displayWebImage(shown, cacheType: cacheType, url: url) }
        play(image, on: target)
        let waits = options.contains(.waitTransition)
        let done: @Sendable () -> Void = {
            transition.completion?()
            if waits { report() }
        }
        if let animation = transition.animation { animation(target, shown, OnceBlock(done).call) } else { done() }
        if !waits { report() }
    }
}

extension TargetLoad {
    /// Hands an animated `image` to an ``AnimatedWebImageTarget`` as a player, which the
    /// registry keeps until the key's next load or the target goes away.
    fileprivate func play(_ image: Image?, on target: any WebImageTarget) {
        guard let target = target as? any AnimatedWebImageTarget, let image,
            let player = AnimatedImagePlayer(image: image, configuration: target.animatedImagePlayerConfiguration)
        else { return }
        guard registry.attach(player, to: target, key: key, load: load) else { return }
        if target.autoPlaysAnimatedImages { player.play() }
        target.displayWebImagePlayer(player, url: url)
    }
}

/// A block that runs at most once, however often it is called.
private final class OnceBlock: Sendable {
    private let block: Locked<(@Sendable () -> Void)?>
    init(_ block: @escaping @Sendable () -> Void) { self.block = Locked(block) }
    @Sendable func call() {
        let block = self.block.withLock { block in
            defer { block = nil }
            return block
        }
        block?()
    }
}
