#if Server
    import Foundation
    import Tracing
    import WebImage

    /// How an ``ImageService`` behaves: signing, sources, quality defaults, caching and limits.
    public struct ServiceConfiguration: Sendable {
        /// The key/salt pairs URLs are signed with; none turns signing off.
        public var signer = URLSigner()
        /// Fetch sources on loopback addresses (refused by default; see the source guard).
        public var allowsLoopbackSources = false
        /// Fetch sources on private, shared (CGNAT), unique-local and IPv4-mapped addresses
        /// (refused by default). Link-local, multicast and reserved addresses are always refused.
        public var allowsPrivateSources = false
        /// How source host names are resolved for the address check: cache times, timeout, threads.
        public var sourceHostResolution = SourceHostResolution()
        /// Resolves source host names in place of `getaddrinfo` (when not nil), blocking one of the
        /// resolver's threads as `getaddrinfo` does; the fetch then connects to the address checked.
        /// For tests that need a name to mean an address, or a name server that hangs.
        package var sourceHostResolver: (@Sendable (String) -> [[UInt8]])?
        /// When not empty, only sources starting with one of these prefixes are fetched (403
        /// otherwise). A `*` in a prefix matches any run of characters but `/`, as in imgproxy's
        /// `IMGPROXY_ALLOWED_SOURCES` (`https://*.example.com/`).
        public var allowedSourcePrefixes: [String] = []
        /// Signatures accepted as they are, without checking (imgproxy's `IMGPROXY_TRUSTED_SIGNATURES`).
        public var trustedSignatures: Set<String> = []
        /// When set, image requests must carry `Authorization: Bearer <secret>` (403 otherwise),
        /// as imgproxy's `IMGPROXY_SECRET`; `/health` and `/metrics` do not need it.
        public var secret: String?
        /// Serve under this path: `/prefix/{signature}/…`, `/prefix/health`, `/prefix/metrics`
        /// (imgproxy's `IMGPROXY_PATH_PREFIX`); other paths are a 404. Empty: no prefix.
        public var pathPrefix = ""
        /// When not empty, only these option names (as the URL spells them) are accepted in a
        /// URL, others are a 403; presets' own options are not checked (imgproxy's
        /// `IMGPROXY_ALLOWED_PROCESSING_OPTIONS`).
        public var allowedOptions: Set<String> = []
        /// How a decoded source is rewritten before it is checked and fetched: replacements and a
        /// base URL.
        public var sourceRewriting = SourceURLRewriting()
        /// Redirects a source fetch follows at most (imgproxy's `IMGPROXY_MAX_REDIRECTS`).
        public var maxRedirects = 10
        /// The image `watermark`/`wm` places: bytes, or a URL fetched like a source (nil: `wm` does
        /// nothing, as in imgproxy without a watermark).
        public var watermark: ConfiguredImage?
        /// The watermark's base opacity, 0…1, which `wm`'s opacity multiplies (imgproxy's
        /// `IMGPROXY_WATERMARK_OPACITY`).
        public var watermarkOpacity: Double = 1
        /// The font `watermark_text` is drawn in (`--watermark-font`; imgproxy has no such setting).
        public var watermarkFont = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"
        /// How many `watermark_url` and `watermark_text` marks are kept decoded (imgproxy's
        /// `IMGPROXY_WATERMARKS_CACHE_SIZE`); 0 keeps none.
        public var watermarksCacheSize = 256
        /// Rewrite `watermark_url` values with the base URL and URL replacements, as sources are
        /// (imgproxy's `IMGPROXY_WATERMARK_PREPROCESS_URL`).
        public var watermarkPreprocessesURL = false
        /// Named option lists URLs may refer to with `preset`/`pr`; `default` applies to every request.
        public var presets = ProcessingPresets()
        /// Accept presets alone: the options part of a path is a `:`-separated list of preset names
        /// (imgproxy's `IMGPROXY_ONLY_PRESETS`).
        public var onlyPresets = false
        /// Named `/info` option lists (imgproxy's `IMGPROXY_INFO_PRESETS`); `default` applies to
        /// every `/info` request.
        public var infoPresets = ProcessingPresets()
        /// `/info` paths name presets alone (imgproxy's `IMGPROXY_INFO_ONLY_PRESETS`); nil follows
        /// ``onlyPresets``.
        public var infoOnlyPresets: Bool?
        /// When not empty, the only `/info` options a URL may use (imgproxy's
        /// `IMGPROXY_ALLOWED_INFO_OPTIONS`); presets' own options are not checked.
        public var allowedInfoOptions: Set<String> = []
        /// Sources in these formats are answered with their own bytes when the URL names no other
        /// output format, as if every URL said `skip_processing` (imgproxy's
        /// `IMGPROXY_SKIP_PROCESSING_FORMATS`).
        public var skipProcessingFormats: Set<ImageFormat> = []
        /// Whether stripping metadata keeps the copyright and author when the URL does not say
        /// (`keep_copyright`; imgproxy's `IMGPROXY_KEEP_COPYRIGHT`, true by default).
        public var keepsCopyright = true
        /// Whether HEIC and AVIF sources are decoded from their embedded thumbnail when the URL does
        /// not say (`enforce_thumbnail`; imgproxy's `IMGPROXY_ENFORCE_THUMBNAIL`, false by default).
        public var enforcesThumbnail = false
        /// Whether a request keeps a deep source's 16 bits per channel when its URL does not say
        /// (`preserve_hdr`; imgproxy's `IMGPROXY_PRESERVE_HDR`, false by default).
        public var preservesHDR = false
        /// Whether an SVG source answered as SVG has its scripts, event handlers and links into
        /// code removed first (``SVGSanitizer``; imgproxy's `IMGPROXY_SANITIZE_SVG`, true by default).
        public var sanitizesSVG = true
        /// Whether an SVG source is rasterised even when the URL asks for nothing and names no
        /// format, unless `skip_processing` names SVG (imgproxy's `IMGPROXY_ALWAYS_RASTERIZE_SVG`,
        /// false by default).
        public var alwaysRasterizesSVG = false
        /// Quality for lossy output when the URL gives none (imgproxy's `IMGPROXY_QUALITY`).
        public var defaultQuality = 80
        /// Per-format defaults that win over ``defaultQuality`` (imgproxy: WebP 79, AVIF 63).
        public var formatQualities: [ImageFormat: Int] = [.webp: 79, .avif: 63]
        /// Pick a format from `Accept` when the URL names none (the formats of ``automaticFormats``).
        public var automaticFormat = true
        /// The formats `Accept` may choose when the URL names none, tried JPEG XL, AVIF, WebP in
        /// that order (imgproxy's `IMGPROXY_AUTO_WEBP`, `_AVIF`, `_JXL`); AVIF and WebP by default.
        public var automaticFormats: Set<ImageFormat> = [.avif, .webp]
        /// The formats `Accept` chooses even over a format the URL names (imgproxy's
        /// `IMGPROXY_ENFORCE_WEBP`, `_AVIF`, `_JXL`); none by default.
        public var enforcedFormats: Set<ImageFormat> = []
        /// With no format from the URL or `Accept`: a source in one of these formats keeps it, and
        /// any other gets the first of them that holds its alpha and animation (imgproxy's
        /// `IMGPROXY_PREFERRED_FORMATS`; here JPEG, PNG, GIF, WebP and AVIF by default).
        public var preferredFormats: [ImageFormat] = OutputFormats.defaultPreferred
        /// Quality chosen per image by size or DSSIM (imgproxy's `IMGPROXY_AUTOQUALITY_*`); off by default.
        public var autoquality = Autoquality()
        /// How `best` chooses (imgproxy's `IMGPROXY_BEST_FORMAT_*`).
        public var bestFormat = BestFormatSettings()
        /// Read the Client Hints `Sec-CH-DPR`/`DPR` and `Sec-CH-Width`/`Width` as the defaults of
        /// `dpr` and `width` (imgproxy's `IMGPROXY_ENABLE_CLIENT_HINTS`); off by default.
        public var readsClientHints = false
        /// `Cache-Control: max-age` of successful responses, in seconds (a year by default); 0
        /// sends `no-cache`.
        public var timeToLive = 31_536_000
        /// Send the source's `Cache-Control` (or its `Expires`, as a `max-age`) instead of
        /// ``timeToLive`` when it sent one (imgproxy's `IMGPROXY_CACHE_CONTROL_PASSTHROUGH`).
        public var passesSourceCacheControl = false
        /// The image answered, processed with the request's options, when the source cannot be
        /// fetched (imgproxy's `IMGPROXY_FALLBACK_IMAGE_DATA`, `_PATH`, `_URL`); nil answers the error.
        public var fallbackImage: ConfiguredImage?
        /// The status of a fallback image's response; 0 sends the fetch error's status (imgproxy's
        /// `IMGPROXY_FALLBACK_IMAGE_HTTP_CODE`, 200 by default).
        public var fallbackImageStatus = 200
        /// The longest `max-age` of a fallback image's response, in seconds; 0 is ``timeToLive``
        /// (imgproxy's `IMGPROXY_FALLBACK_IMAGE_TTL`).
        public var fallbackImageTimeToLive = 0
        /// Refuse sources larger than this many bytes.
        public var maxSourceBytes = 64 << 20
        /// Refuse sources with more pixels than this per frame, before decoding them.
        public var maxSourcePixels = 50_000_000
        /// The most frames of an animation a result keeps, the first ones; 1 makes a still of the
        /// first frame (imgproxy's `IMGPROXY_MAX_ANIMATION_FRAMES`, whose default is 1). Every frame
        /// kept counts against ``maxSourcePixels`` unless ``maxAnimationFramePixels`` is set.
        public var maxAnimationFrames = 1000
        /// Refuse animations whose frames have more pixels than this (nil: only ``maxSourcePixels``;
        /// imgproxy's `IMGPROXY_MAX_ANIMATION_FRAME_RESOLUTION`).
        public var maxAnimationFramePixels: Int?
        /// Scale results down until neither side is longer than this (nil: no limit; imgproxy's
        /// `IMGPROXY_MAX_RESULT_DIMENSION`). A URL's `max_result_dimension` replaces it.
        public var maxResultDimension: Int?
        /// Accept imgproxy's security options in URLs (`max_src_resolution`, `max_src_file_size`,
        /// `max_animation_frames`, `max_animation_frame_resolution`, `max_result_dimension`), which
        /// replace the service's limits for that request; off by default (403), as in imgproxy.
        public var allowsSecurityOptions = false
        /// Bytes of decoded animation frames one request may hold.
        public var maxAnimationBytes = 256 << 20
        /// Bytes of recent results kept in memory (a result above a quarter of it is not kept).
        public var memoryCacheBytes = 256 << 20
        /// Results made at once (decode, process, encode); the core count by default.
        public var workers = ProcessInfo.processInfo.activeProcessorCount
        /// Sources with at least this many pixels (a frame, as stored) count as large: they wait in
        /// a lane of their own (4 megapixels by default: a 12-megapixel photo is large, a 2000×1500
        /// web image is not).
        public var largeSourcePixels = 4_000_000
        /// The most workers large sources may hold at once (``largeSourcePixels``), so that the
        /// rest stay free for small ones; half the workers by default, at least one.
        public var largeSourceWorkers = max(1, ProcessInfo.processInfo.activeProcessorCount / 2)
        /// The threads results are made on (shared with the library's decoding).
        package var executor = ThreadPoolExecutor.cpu
        /// Results that may wait for a worker; one more is refused with 429.
        public var queueLimit = 256
        /// How long a result may wait for a worker before the request gets 503, in seconds.
        public var queueTimeout: Double = 10
        /// Where sources and results are cached; nil keeps nothing on disk.
        public var cacheDirectory: URL?
        /// A second cache tier in S3 behind the disk, for results and optionally sources; nil
        /// keeps nothing in S3.
        public var s3: S3Configuration?
        /// Where the service's spans go: one server span per request, continuing the request's W3C
        /// `traceparent`, with `cache.lookup`, `source.fetch`, `decode`, `process`, `encode`,
        /// `s3.get` and `s3.put` below it. Nil (the default) traces nothing and costs nothing.
        public var tracer: (any Tracer)?
        /// Whether source fetches carry the trace context (`traceparent`, naming the `source.fetch`
        /// span) when tracing; S3 requests always do. imgproxy's `IMGPROXY_OPEN_TELEMETRY_PROPAGATE_EXTERNAL`.
        public var propagatesTraceToSources = true

        public init() {}

        /// The quality for `format` when the URL gives none.
        func quality(for format: ImageFormat) -> Int {
            formatQualities[format] ?? defaultQuality
        }
    }
#endif
