// swift-tools-version:6.2
import Foundation
import PackageDescription

/// The codec libraries a build can do without: each is used when its header is installed, and
/// otherwise left out, with its format reported as unsupported (the Swift code checks
/// `canImport(<module>)`). `WEBIMAGE_WITHOUT=avif,heic,jxl,tiff,lcms2` leaves them out on purpose
/// (SwiftPM caches the evaluated manifest: touch Package.swift after changing it).
let optionalLibraries: [(module: String, name: String, header: String)] = [
    ("CAVIF", "avif", "avif/avif.h"), ("CHEIF", "heic", "libheif/heif.h"), ("CTIFF", "tiff", "tiffio.h"),
    ("CJXL", "jxl", "jxl/decode.h"), ("CLCMS2", "lcms2", "lcms2.h"),
]
let leftOut = Set(
    (ProcessInfo.processInfo.environment["WEBIMAGE_WITHOUT"] ?? "").split(separator: ",").map {
        $0.trimmingCharacters(in: .whitespaces).lowercased()
    })
/// Where headers are looked for: Debian puts some (libtiff's) in its multiarch directory.
let includeDirectories =
    ["/usr/include", "/usr/local/include", "/opt/homebrew/include"]
    + ((try? FileManager.default.contentsOfDirectory(atPath: "/usr/include")) ?? [])
    .filter { $0.hasSuffix("-linux-gnu") }.map { "/usr/include/\($0)" }
let availableLibraries = optionalLibraries.filter { library in
    !leftOut.contains(library.name)
        && includeDirectories.contains { FileManager.default.fileExists(atPath: "\($0)/\(library.header)") }
}.map(\.module)
/// What a target that uses the optional coders depends on (it checks `canImport` for each).
let optionalDependencies = availableLibraries.map { Target.Dependency.target(name: $0) }
/// The sources that need a missing library, left out of their targets.
func excluded(_ byModule: [String: [String]]) -> [String] {
    byModule.filter { !availableLibraries.contains($0.key) }.flatMap(\.value).sorted()
}

/// The libFuzzer targets under Fuzz/, run by scripts/fuzz.
let fuzzTargets = [
    "fuzz-format", "fuzz-jpeg", "fuzz-png", "fuzz-apng", "fuzz-gif", "fuzz-webp", "fuzz-avif", "fuzz-heic",
    "fuzz-jxl", "fuzz-tiff", "fuzz-bmp", "fuzz-cache-entry", "fuzz-service-url",
]

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
    ] + fuzzTargets.map { .executable(name: $0, targets: [$0]) },
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
        // Little CMS 2: ICC profiles to sRGB.
        .systemLibrary(
            name: "CLCMS2", pkgConfig: "lcms2",
            providers: [.apt(["liblcms2-dev"]), .brew(["little-cms2"])]),
        .target(
            name: "CWebImageShims",
            dependencies: ["CJPEG", "CPNG"] + (availableLibraries.contains("CTIFF") ? ["CTIFF"] : []),
            cSettings: availableLibraries.contains("CTIFF") ? [.define("WEBIMAGE_TIFF")] : []),
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
            exclude: excluded([
                "CAVIF": ["Coding/AVIF"], "CHEIF": ["Coding/HEIC"], "CJXL": ["Coding/JPEGXL"], "CTIFF": ["Coding/TIFF"],
                "CLCMS2": [
                    "Coding/Color/SRGBConversion.swift", "Coding/Color/SRGBConverter.swift",
                    "Coding/Color/ConversionProbe.swift", "Coding/Color/MatrixShaperTables.swift",
                    "Coding/Color/Matrix3.swift", "Coding/Color/RowBands.swift",
                ],
            ]),
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
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Crypto", package: "swift-crypto"),
                // The S3 tier's client.
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                // The threads host name lookups block on.
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "CoreMetrics", package: "swift-metrics"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Tracing", package: "swift-distributed-tracing"),
            ],
            swiftSettings: [.swiftLanguageMode(.v6)]),
        .executableTarget(
            name: "webimage",
            dependencies: [
                "WebImage", "WebImageDisplay", "WebImageServer", "WebImageTestOrigin",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "OTel", package: "swift-otel"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Tracing", package: "swift-distributed-tracing"),
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
            dependencies: ["WebImage"],
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
            exclude: excluded([
                "CAVIF": ["AVIF"], "CHEIF": ["HEIC"], "CJXL": ["JPEGXL"], "CTIFF": ["TIFF"],
                "CLCMS2": ["Coding/ColorManagementTests.swift"],
            ]),
            swiftSettings: [.swiftLanguageMode(.v6)]),
        // The fuzz bodies, in a library so that WebImageTests replays saved inputs through them.
        .target(
            name: "WebImageFuzzing", dependencies: ["WebImage", "WebImageServer"] + optionalDependencies,
            swiftSettings: [.swiftLanguageMode(.v6)]),
    ]
        // libFuzzer targets: one file each defining LLVMFuzzerTestOneInput, no main. Built by
        // scripts/fuzz with --sanitize=fuzzer; in an ordinary build they link with an empty main.
        + fuzzTargets.map {
            .executableTarget(
                name: $0, dependencies: ["WebImageFuzzing"], path: "Fuzz/\($0)",
                swiftSettings: [.swiftLanguageMode(.v6)])
        }
)
