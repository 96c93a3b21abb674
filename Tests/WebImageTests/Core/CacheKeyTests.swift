import Testing

@testable import WebImage

/// Serialized: one test sets the process-wide default scale-down limit that another reads.
@Suite("Cache keys (SDWebImage's formats)", .serialized)
struct CacheKeyTests {
    @Test(
        "SDTransformedKeyForKey's tested examples",
        arguments: [
            ("image.png", "image-T.png"),
            ("image", "image-T"),
            (".image", ".image-T"),
            ("image.", "image.-T"),
            ("Test/image.png", "Test/image-T.png"),
            ("http://foo/image.png?foo=bar#mark", "http://foo/image-T.png?foo=bar#mark"),
            ("http://foo/image", "http://foo/image-T"),
            ("file:///tmp/image.png", "file:///tmp/image-T.png"),
        ])
    func transformedKeys(key: String, expected: String) {
        #expect(CacheKeys.transformed(key, transformerKey: "T") == expected)
    }

    @Test("Thumbnail keys use %f and the aspect flag")
    func thumbnailKeys() {
        let size = PixelSize(width: 100, height: 100)
        #expect(
            CacheKeys.thumbnailTransformerKey(size, preserveAspectRatio: true) == "Thumbnail({100.000000,100.000000},1)"
        )
        #expect(
            CacheKeys.thumbnailed("http://a/b.jpg", size: size, preserveAspectRatio: false)
                == "http://a/b-Thumbnail({100.000000,100.000000},0).jpg")
    }

    @Test("Scale comes from @2x/@3x in keys of 8 characters or more")
    func scaleFromKey() {
        #expect(CacheKeys.scaleFactor(forKey: "http://x/img@2x.png") == 2)
        #expect(CacheKeys.scaleFactor(forKey: "http://x/img%403x.png") == 3)
        #expect(CacheKeys.scaleFactor(forKey: "/img@3x.png") == 3)
        #expect(CacheKeys.scaleFactor(forKey: "a@2x.png") == 2)
        #expect(CacheKeys.scaleFactor(forKey: "@2x.png") == 1)
        #expect(CacheKeys.scaleFactor(forKey: "http://x/img.png") == 1)
    }

    @Test("Decode options from the context: individual keys win, then the key's hints")
    func decodeOptionsFromContext() {
        var context = WebImageContext()
        var base = ImageDecodeOptions()
        base.thumbnailPixelSize = PixelSize(width: 9, height: 9)
        base.scaleFactor = 5
        context.imageDecodeOptions = base
        context.imageThumbnailPixelSize = PixelSize(width: 40, height: 30)
        var options = ImageDecodeOptions(
            context: context, options: [.decodeFirstFrameOnly], cacheKey: "http://x/a@2x.webp?q=1")
        #expect(options.thumbnailPixelSize == PixelSize(width: 40, height: 30))
        #expect(options.scaleFactor == 2)
        #expect(options.firstFrameOnly)
        #expect(options.fileExtensionHint == "webp")
        #expect(options.scaleDownLimitBytes == nil)
        options = ImageDecodeOptions(context: nil, options: [.scaleDownLargeImages], cacheKey: nil)
        #expect(options.scaleDownLimitBytes == ImageDecodeOptions.defaultScaleDownLimitBytes)
        context.imageScaleFactor = 3
        context.imageScaleDownLimitBytes = 1000
        options = ImageDecodeOptions(context: context, options: [.scaleDownLargeImages], cacheKey: "a@2x.png")
        #expect(options.scaleFactor == 3)
        #expect(options.scaleDownLimitBytes == 1000)
    }

    @Test func theDefaultScaleDownLimitIsSettableAndAppliesWhenTheContextSetsNone() {
        #expect(ImageDecodeOptions.defaultScaleDownLimitBytes == 90 * 1024 * 1024)
        // Larger than SDWebImage's: no other test's image is near either limit.
        ImageDecodeOptions.defaultScaleDownLimitBytes = 200 << 20
        defer { ImageDecodeOptions.defaultScaleDownLimitBytes = ImageDecodeOptions.initialScaleDownLimitBytes }
        #expect(ImageDecodeOptions.defaultScaleDownLimitBytes == 200 << 20)
        let plain = ImageDecodeOptions(context: nil, options: [.scaleDownLargeImages], cacheKey: nil)
        #expect(plain.scaleDownLimitBytes == 200 << 20)
        // Without the option nothing is scaled down; a context's limit still wins.
        #expect(ImageDecodeOptions(context: nil, options: [], cacheKey: nil).scaleDownLimitBytes == nil)
        var context = WebImageContext()
        context.imageScaleDownLimitBytes = 1000
        #expect(
            ImageDecodeOptions(context: context, options: [.scaleDownLargeImages], cacheKey: nil).scaleDownLimitBytes
                == 1000)
        // Less than one pixel is ignored, as SDWebImage does.
        ImageDecodeOptions.defaultScaleDownLimitBytes = 3
        #expect(ImageDecodeOptions.defaultScaleDownLimitBytes == 200 << 20)
    }

    @Test("Option bits match SDWebImageOptions")
    func optionBits() {
        #expect(WebImageOptions.retryFailed.rawValue == 1)
        #expect(WebImageOptions.refreshCached.rawValue == 1 << 3)
        #expect(WebImageOptions.fromCacheOnly.rawValue == 1 << 15)
        #expect(WebImageOptions.waitStoreCache.rawValue == 1 << 22)
        #expect(WebImageOptions.waitTransition.rawValue == 1 << 25)
        #expect(ImageCacheType.all.rawValue == 3 && ImageCacheType.memory.rawValue == 2)
    }
}
