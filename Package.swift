// swift-tools-version:6.2
import PackageDescription

/// Optional pieces, one trait each, all on by default. A consumer drops one with
/// `.package(url: …, from: …, traits: […])`; a checkout builds without one with
/// `swift build --disable-default-traits --traits …`. A coder whose trait is off is not built in:
/// its format is refused with `WebImageError.unsupportedFormat`, and `webimage info --build` lists
/// what was built. The manifest never looks at the machine: a missing system library is a build
/// error that names its package (see `scripts/bootstrap`), not a silently smaller library.
let codecTraits: [(trait: String, module: String, description: String)] = [
    ("AVIF", "CAVIF", "AVIF decoding and encoding, with libavif (libavif-dev)."),
    ("HEIC", "CHEIF", "HEIC decoding and encoding, with libheif (libheif-dev)."),
    ("JPEGXL", "CJXL", "JPEG XL decoding and encoding, with libjxl (libjxl-dev)."),
    ("TIFF", "CTIFF", "TIFF decoding and encoding, with libtiff (libtiff-dev)."),
    ("SVG", "CRSVG", "SVG rasterising, with librsvg (librsvg2-dev) and cairo."),
    ("ColorManagement", "CLCMS2", "ICC profiles converted to sRGB on decode, with Little CMS 2 (liblcms2-dev)."),
]
let serverTrait = "Server"
/// What a target that uses the optional coders depends on: each library only with its trait on.
let optionalDependencies: [Target.Dependency] = codecTraits.map {
    .target(name: $0.module, condition: .when(traits: [$0.trait]))
}

/// A product that only the image service and the `serve` command use.
func serverOnly(_ name: String, _ package: String) -> Target.Dependency {
    .product(name: name, package: package, condition: .when(traits: [serverTrait]))
}

let package = Package(
    name: "swift-web-image",
    products: [
        // The core: images, coders, transformers, caches, loaders, the manager and the prefetcher.
        .library(name: "WebImage", targets: ["WebImage"]),
        // Showing images: the binding layer, the animation player and the terminal renderers.
        .library(name: "WebImageDisplay", targets: ["WebImageDisplay"]),
        // The image service: imgproxy's URL API over the core.
        .library(name: "WebImageServer", targets: ["WebImageServer"]),
        .executable(name: "webimage", targets: ["webimage"]),
    ],
    traits: Set(
        [
            .default(enabledTraits: Set(codecTraits.map(\.trait) + [serverTrait])),
            .trait(
                name: serverTrait,
                description:
                    "The WebImageServer product and `webimage serve`: Hummingbird, Prometheus, service lifecycle and OTLP tracing."
            ),
        ] + codecTraits.map { .trait(name: $0.trait, description: $0.description) }),
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-crypto", from: "4.5.2"),
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-nio-extras", from: "1.35.2"),
        .package(url: "https://github.com/apple/swift-nio-ssl", from: "2.37.6"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-metrics", from: "2.13.0"),
        // The image service (`webimage serve`); no traits: it needs neither swift-configuration
        // nor the Foundation extras.
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1", traits: []),
        .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.4.1"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        // Traces: the service's spans (swift-distributed-tracing), exported over OTLP/HTTP by
        // swift-otel. Only its HTTP exporter: the gRPC one would add grpc-swift and HTTP/2 to every build.
        .package(url: "https://github.com/apple/swift-distributed-tracing", from: "1.7.3"),
        .package(url: "https://github.com/swift-otel/swift-otel", from: "1.6.0", traits: ["OTLPHTTP"]),
        // `swift package generate-documentation --target WebImage` builds the DocC catalog.
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
    ],
    targets: [
        // One system library target per C library. The modulemap's `link` line is what links;
        // pkgConfig and providers only add flags and an install hint.
        .systemLibrary(
            name: "CJPEG", pkgConfig: "libjpeg",
            providers: [.apt(["libjpeg62-turbo-dev"]), .brew(["jpeg-turbo"])]),
        .systemLibrary(
            name: "CPNG", pkgConfig: "libpng16",
            providers: [.apt(["libpng-dev"]), .brew(["libpng"])]),
        .systemLibrary(
            name: "CWebP", pkgConfig: "libwebpmux",
            providers: [.apt(["libwebp-dev"]), .brew(["webp"])]),
        // No pkgConfig: libavif's .pc file adds -DAVIF_DLL, a flag SwiftPM warns about.
        .systemLibrary(
            name: "CAVIF",
            providers: [.apt(["libavif-dev"]), .brew(["libavif"])]),
        // libheif's .pc file adds only -I and -l flags, which SwiftPM takes without a warning.
        .systemLibrary(
            name: "CHEIF", pkgConfig: "libheif",
            providers: [.apt(["libheif-dev"]), .brew(["libheif"])]),
        // No pkgConfig: libjxl's .pc file adds -DHWY_SHARED_DEFINE, a flag SwiftPM warns about.
        .systemLibrary(
            name: "CJXL",
            providers: [.apt(["libjxl-dev"]), .brew(["jpeg-xl"])]),
        .systemLibrary(
            name: "CZlib", pkgConfig: "zlib",
            providers: [.apt(["zlib1g-dev"]), .brew(["zlib"])]),
        // giflib ships no pkg-config file upstream; the modulemap links it.
        .systemLibrary(
            name: "CGIF",
            providers: [.apt(["libgif-dev"]), .brew(["giflib"])]),
        // C code that owns setjmp/longjmp for libjpeg and libpng (Swift cannot call setjmp), and
        // libtiff's memory I/O and variadic tag calls (Swift cannot call C variadic functions).
        .systemLibrary(
            name: "CTIFF",
            providers: [.apt(["libtiff-dev"]), .brew(["libtiff"])]),
        // librsvg (and the cairo, GIO and GObject it is used through): SVG sources. No pkgConfig: its
        // .pc file adds -pthread, a flag SwiftPM refuses; shim.h declares what is used.
        .systemLibrary(
            name: "CRSVG",
            providers: [.apt(["librsvg2-dev"]), .brew(["librsvg"])]),
        // Little CMS 2: ICC profiles to sRGB.
        .systemLibrary(
            name: "CLCMS2", pkgConfig: "lcms2",
            providers: [.apt(["liblcms2-dev"]), .brew(["little-cms2"])]),
        // FreeType: the service's text watermarks (`watermark_text`); only with the Server trait.
        .systemLibrary(
            name: "CFreeType", pkgConfig: "freetype2",
            providers: [.apt(["libfreetype-dev"]), .brew(["freetype"])]),
        .target(
            name: "CWebImageShims",
            dependencies: ["CJPEG", "CPNG", .target(name: "CTIFF", condition: .when(traits: ["TIFF"]))],
            cSettings: [.define("WEBIMAGE_TIFF", .when(traits: ["TIFF"]))]),
        .target(
            name: "WebImage",
            dependencies: [
                "CWebImageShims", "CJPEG", "CPNG", "CWebP", "CGIF", "CZlib",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                // Bodies are collected in a ByteBuffer and handed out as Data without a copy.
                .product(name: "NIOFoundationCompat", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Metrics", package: "swift-metrics"),
            ] + optionalDependencies,
            swiftSettings: [.swiftLanguageMode(.v6)]),
        // What shows images: targets bound to loads, the animation player, terminal renderers.
        .target(
            name: "WebImageDisplay",
            dependencies: [
                "WebImage",
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: [.swiftLanguageMode(.v6)]),
        // imgproxy's URL API over the library: parsing, signatures, processing, negotiation.
        .target(
            name: "WebImageServer",
            dependencies: [
                "WebImage",
                // malloc_trim, for the periodic release of free memory.
                "CWebImageShims",
                serverOnly("Hummingbird", "hummingbird"),
                .product(name: "Crypto", package: "swift-crypto"),
                // The S3 tier's client.
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                // The threads host name lookups block on.
                .product(name: "NIOPosix", package: "swift-nio"),
                serverOnly("Prometheus", "swift-prometheus"),
                .product(name: "CoreMetrics", package: "swift-metrics"),
                .product(name: "Logging", package: "swift-log"),
                serverOnly("ServiceLifecycle", "swift-service-lifecycle"),
                serverOnly("Tracing", "swift-distributed-tracing"),
                .target(name: "CFreeType", condition: .when(traits: [serverTrait])),
            ],
            swiftSettings: [.swiftLanguageMode(.v6)]),
        .executableTarget(
            name: "webimage",
            dependencies: [
                "WebImage", "WebImageDisplay", "WebImageTestOrigin",
                .target(name: "WebImageServer", condition: .when(traits: [serverTrait])),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Metrics", package: "swift-metrics"),
                serverOnly("Hummingbird", "hummingbird"),
                serverOnly("Prometheus", "swift-prometheus"),
                serverOnly("OTel", "swift-otel"),
                serverOnly("ServiceLifecycle", "swift-service-lifecycle"),
                serverOnly("Tracing", "swift-distributed-tracing"),
            ],
            swiftSettings: [.swiftLanguageMode(.v6)]),
        .executableTarget(
            name: "webimage-bench",
            dependencies: [
                "WebImage", "WebImageDisplay", "WebImageServer", "WebImageTestOrigin",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "Tracing", package: "swift-distributed-tracing"),
            ] + optionalDependencies,
            path: "Benchmarks/Sources/webimage-bench",
            swiftSettings: [.swiftLanguageMode(.v6)]),
        // Writes and verifies disk-cache entries in a child process, so tests can SIGKILL it or run two at once.
        .executableTarget(
            name: "webimage-cache-torture",
            dependencies: ["WebImage", "WebImageTestOrigin"],
            path: "Tests/CacheTorture",
            swiftSettings: [.swiftLanguageMode(.v6)]),
        // A loopback HTTP server with fault injection, for tests, the demo and benchmarks.
        .target(
            name: "WebImageTestOrigin",
            dependencies: [
                "WebImage",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOEmbedded", package: "swift-nio"),
                .product(name: "NIOHTTPCompression", package: "swift-nio-extras"),
            ],
            swiftSettings: [.swiftLanguageMode(.v6)]),
        .testTarget(
            name: "WebImageTests",
            dependencies: [
                "WebImage", "WebImageDisplay", "WebImageServer", "WebImageTestOrigin", "WebImageFuzzing",
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "MetricsTestKit", package: "swift-metrics"),
                .product(name: "InMemoryTracing", package: "swift-distributed-tracing"),
                .product(name: "Tracing", package: "swift-distributed-tracing"),
            ] + optionalDependencies,
            swiftSettings: [.swiftLanguageMode(.v6)]),
        // The fuzz bodies, in a library so that WebImageTests replays saved inputs through them.
        // The libFuzzer executables are in their own package under Fuzz/ (built by scripts/fuzz),
        // which compiles these same files through a symlink: they are no product of this one.
        .target(
            name: "WebImageFuzzing", dependencies: ["WebImage", "WebImageServer"] + optionalDependencies,
            swiftSettings: [.swiftLanguageMode(.v6)]),
        // Serves a directory on loopback, for scripts that need the test origin outside a test
        // (the Examples run in CI).
        .executableTarget(
            name: "webimage-test-origin",
            dependencies: ["WebImageTestOrigin"],
            path: "Tests/TestOriginServer",
            swiftSettings: [.swiftLanguageMode(.v6)]),
    ]
)
