import Dispatch
import WebImage

// SDWebImage's display names, each unavailable and pointing at its replacement, so that ported
// code fails to compile with a message that says what to write instead.

@available(*, unavailable, renamed: "WebImageLoadState")
public typealias SDWebImageLoadState = WebImageLoadState

@available(*, unavailable, renamed: "WebImageIndicator")
public typealias SDWebImageIndicator = WebImageIndicator

@available(*, unavailable, renamed: "WebImageTransition")
public typealias SDWebImageTransition = WebImageTransition

@available(*, unavailable, renamed: "AnimatedImagePlayer")
public typealias SDAnimatedImagePlayer = AnimatedImagePlayer

@available(
    *, unavailable,
    message: "there are no view classes: adopt AnimatedWebImageTarget and draw the AnimatedImagePlayer's frames"
)
public typealias SDAnimatedImageView = AnimatedWebImageTarget

@available(
    *, unavailable,
    message: "callbacks run on a DispatchQueue: WebImageContext.callbackQueue, WebImageBinding.defaultQueue"
)
public typealias SDCallbackQueue = DispatchQueue

@available(*, unavailable, renamed: "WebImageTargetCompletion")
public typealias SDExternalCompletionBlock = WebImageTargetCompletion
