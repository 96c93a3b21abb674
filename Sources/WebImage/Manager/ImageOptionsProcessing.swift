import Foundation

/// Options and context after an ``ImageOptionsProcessing`` has seen them.
public struct ImageOptionsResult: Sendable {
    public var options: WebImageOptions
    public var context: WebImageContext?

    public init(options: WebImageOptions, context: WebImageContext?) {
        self.options = options
        self.context = context
    }
}

/// Rewrites every load's options and context in one place (SDWebImage's
/// `SDWebImageOptionsProcessor`), for example to add ``WebImageOptions/scaleDownLargeImages``
/// globally. It runs after the manager has put its transformer, key filter and serializer in the
/// context.
public protocol ImageOptionsProcessing: Sendable {
    /// The options and context to use for `url`; nil keeps the input.
    func processedResult(for url: URL, options: WebImageOptions, context: WebImageContext?) -> ImageOptionsResult?
}

/// An options processor made of a closure.
public struct ImageOptionsProcessor: ImageOptionsProcessing {
    private let body: @Sendable (URL, WebImageOptions, WebImageContext?) -> ImageOptionsResult?

    public init(_ body: @escaping @Sendable (URL, WebImageOptions, WebImageContext?) -> ImageOptionsResult?) {
        self.body = body
    }

    public func processedResult(for url: URL, options: WebImageOptions, context: WebImageContext?)
        -> ImageOptionsResult?
    {
        body(url, options, context)
    }
}
