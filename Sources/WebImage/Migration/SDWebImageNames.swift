import Foundation

// SDWebImage's names, each unavailable and pointing at its replacement, so that code ported from
// SDWebImage fails to compile with a message that says what to write instead (a fix-it where the
// replacement is one name). The map is the migration guide's (MigratingFromSDWebImage.md).

@available(*, unavailable, renamed: "ImageManager")
public typealias SDWebImageManager = ImageManager

@available(*, unavailable, renamed: "ImageManagerDelegate")
public typealias SDWebImageManagerDelegate = ImageManagerDelegate

@available(*, unavailable, renamed: "CombinedOperation")
public typealias SDWebImageCombinedOperation = CombinedOperation

@available(*, unavailable, renamed: "ImageLoadingOperation")
public typealias SDWebImageOperation = ImageLoadingOperation

@available(*, unavailable, renamed: "ImageOptionsProcessor")
public typealias SDWebImageOptionsProcessor = ImageOptionsProcessor

@available(*, unavailable, renamed: "ImageOptionsResult")
public typealias SDWebImageOptionsResult = ImageOptionsResult

@available(*, unavailable, renamed: "ImageCacheKeyFilter")
public typealias SDWebImageCacheKeyFilter = ImageCacheKeyFilter

@available(*, unavailable, renamed: "ImageCacheSerializer")
public typealias SDWebImageCacheSerializer = ImageCacheSerializer

@available(*, unavailable, renamed: "ImageCache")
public typealias SDImageCache = ImageCache

@available(*, unavailable, renamed: "ImageCacheConfig")
public typealias SDImageCacheConfig = ImageCacheConfig

@available(*, unavailable, renamed: "ImageCacheType")
public typealias SDImageCacheType = ImageCacheType

@available(*, unavailable, renamed: "ImageCacheToken")
public typealias SDImageCacheToken = ImageCacheToken

@available(*, unavailable, renamed: "ImageCaching")
public typealias SDImageCacheProtocol = ImageCaching

@available(*, unavailable, renamed: "MemoryCache")
public typealias SDMemoryCache = MemoryCache

@available(*, unavailable, renamed: "MemoryCaching")
public typealias SDMemoryCacheProtocol = MemoryCaching

@available(*, unavailable, renamed: "DiskCache")
public typealias SDDiskCache = DiskCache

@available(*, unavailable, renamed: "DiskCaching")
public typealias SDDiskCacheProtocol = DiskCaching

@available(*, unavailable, renamed: "ImageCachesManager")
public typealias SDImageCachesManager = ImageCachesManager

@available(*, unavailable, renamed: "ImageDownloader")
public typealias SDWebImageDownloader = ImageDownloader

@available(*, unavailable, renamed: "ImageDownloaderConfig")
public typealias SDWebImageDownloaderConfig = ImageDownloaderConfig

@available(*, unavailable, renamed: "ImageDownloaderOptions")
public typealias SDWebImageDownloaderOptions = ImageDownloaderOptions

@available(*, unavailable, renamed: "ImageDownloadToken")
public typealias SDWebImageDownloadToken = ImageDownloadToken

@available(*, unavailable, renamed: "ImageDownloadRequestModifier")
public typealias SDWebImageDownloaderRequestModifier = ImageDownloadRequestModifier

@available(*, unavailable, renamed: "ImageDownloadResponseModifier")
public typealias SDWebImageDownloaderResponseModifier = ImageDownloadResponseModifier

@available(*, unavailable, renamed: "ImageDownloadBlockDecryptor")
public typealias SDWebImageDownloaderDecryptor = ImageDownloadBlockDecryptor

@available(*, unavailable, renamed: "ImageLoading")
public typealias SDImageLoader = ImageLoading

@available(*, unavailable, renamed: "ImageLoadersManager")
public typealias SDImageLoadersManager = ImageLoadersManager

@available(*, unavailable, renamed: "ImageCoding")
public typealias SDImageCoder = ImageCoding

@available(*, unavailable, renamed: "ProgressiveImageCoding")
public typealias SDProgressiveImageCoder = ProgressiveImageCoding

@available(*, unavailable, renamed: "AnimatedImageCoding")
public typealias SDAnimatedImageCoder = AnimatedImageCoding

@available(*, unavailable, renamed: "AnimatedImageProvider")
public typealias SDAnimatedImageProvider = AnimatedImageProvider

@available(*, unavailable, renamed: "ImageCodersManager")
public typealias SDImageCodersManager = ImageCodersManager

@available(*, unavailable, renamed: "GIFCoder")
public typealias SDImageGIFCoder = GIFCoder

@available(*, unavailable, renamed: "WebPCoder")
public typealias SDImageAWebPCoder = WebPCoder

@available(*, unavailable, renamed: "PNGCoder")
public typealias SDImageAPNGCoder = PNGCoder

@available(*, unavailable, renamed: "ImageTransforming")
public typealias SDImageTransformer = ImageTransforming

@available(*, unavailable, renamed: "ImageResizingTransformer")
public typealias SDImageResizingTransformer = ImageResizingTransformer

@available(*, unavailable, renamed: "ImageCroppingTransformer")
public typealias SDImageCroppingTransformer = ImageCroppingTransformer

@available(*, unavailable, renamed: "ImageRoundCornerTransformer")
public typealias SDImageRoundCornerTransformer = ImageRoundCornerTransformer

@available(*, unavailable, renamed: "ImageRotationTransformer")
public typealias SDImageRotationTransformer = ImageRotationTransformer

@available(*, unavailable, renamed: "ImageFlippingTransformer")
public typealias SDImageFlippingTransformer = ImageFlippingTransformer

@available(*, unavailable, renamed: "ImageTintTransformer")
public typealias SDImageTintTransformer = ImageTintTransformer

@available(*, unavailable, renamed: "ImageBlurTransformer")
public typealias SDImageBlurTransformer = ImageBlurTransformer

@available(*, unavailable, renamed: "ImagePipelineTransformer")
public typealias SDImagePipelineTransformer = ImagePipelineTransformer

@available(*, unavailable, renamed: "ImagePrefetcher")
public typealias SDWebImagePrefetcher = ImagePrefetcher

@available(*, unavailable, renamed: "ImagePrefetchToken")
public typealias SDWebImagePrefetchToken = ImagePrefetchToken

@available(*, unavailable, renamed: "ImagePrefetcherDelegate")
public typealias SDWebImagePrefetcherDelegate = ImagePrefetcherDelegate

@available(*, unavailable, renamed: "ImageFormat")
public typealias SDImageFormat = ImageFormat

@available(*, unavailable, renamed: "WebImageOptions")
public typealias SDWebImageOptions = WebImageOptions

@available(*, unavailable, renamed: "WebImageContext")
public typealias SDWebImageContext = WebImageContext

@available(*, unavailable, renamed: "WebImageError")
public typealias SDWebImageError = WebImageError

#if AVIF
    @available(*, unavailable, renamed: "AVIFCoder")
    public typealias SDImageAVIFCoder = AVIFCoder
#endif

#if HEIC
    @available(*, unavailable, renamed: "HEICCoder")
    public typealias SDImageHEICCoder = HEICCoder
#endif

#if JPEGXL
    @available(*, unavailable, renamed: "JPEGXLCoder")
    public typealias SDImageJPEGXLCoder = JPEGXLCoder
#endif

@available(
    *, unavailable,
    message: "ImageIO is Apple-only: JPEGCoder, PNGCoder and the other built-in coders replace it"
)
public typealias SDImageIOCoder = JPEGCoder

@available(
    *, unavailable,
    message: "ImageIO is Apple-only: GIFCoder, WebPCoder, PNGCoder, AVIFCoder, JPEGXLCoder decode animations"
)
public typealias SDImageIOAnimatedCoder = GIFCoder

@available(
    *, unavailable,
    message: "Core Image is Apple-only: write the filter as an ImageClosureTransformer"
)
public typealias SDImageFilterTransformer = ImageClosureTransformer

// swift-format-ignore: LineLength
@available(
    *, unavailable,
    message:
        "ImageDecodeOptions.targetSize(storedSize:orientation:frameCount:) or ImageResizingTransformer.outputSize(forSourceSize:)"
)
public typealias SDImageCoderHelper = ImageDecodeOptions

@available(
    *, unavailable,
    message: "transfers are not operations: use ImageDownloadRequestModifier, ImageDownloadResponseModifier"
)
public typealias SDWebImageDownloaderOperation = ImageDownloader

@available(
    *, unavailable,
    message: "an animated Image holds its frames in Image.animation; WebImageDisplay's AnimatedImagePlayer plays it"
)
public typealias SDAnimatedImage = Image

@available(
    *, unavailable,
    message: "context keys are WebImageContext's typed properties, with the same names, and its custom"
)
public typealias SDWebImageContextOption = WebImageContext

@available(*, unavailable, renamed: "ImageLoaderProgress")
public typealias SDImageLoaderProgressBlock = ImageLoaderProgress

@available(
    *, unavailable,
    message: "a loader implements loadImage(with:options:context:events:); a requestImage override is never called"
)
public typealias SDImageLoaderCompletedBlock = ImageLoaderCompletion

@available(*, unavailable, renamed: "ImageManagerCompletion")
public typealias SDInternalCompletionBlock = ImageManagerCompletion
