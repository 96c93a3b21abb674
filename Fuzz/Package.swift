// swift-tools-version:6.2
import PackageDescription

/// The libFuzzer targets, in a package of their own so that they are no product of
/// swift-web-image: only `scripts/fuzz` builds them (release, `--sanitize=fuzzer,address`). Each
/// is one file defining `LLVMFuzzerTestOneInput` over a body in `WebImageFuzzing`, whose sources
/// are the main package's `Sources/WebImageFuzzing` (through the `Bodies` symlink), where the
/// tests replay saved findings through the same bodies.
let fuzzTargets = [
    "fuzz-format", "fuzz-jpeg", "fuzz-png", "fuzz-apng", "fuzz-gif", "fuzz-webp", "fuzz-avif", "fuzz-heic",
    "fuzz-jxl", "fuzz-tiff", "fuzz-bmp", "fuzz-ico", "fuzz-svg",
    "fuzz-cache-entry", "fuzz-service-url",
]

let package = Package(
    name: "swift-web-image-fuzz",
    dependencies: [
        // Every trait on (the default), as in the main package's own build.
        .package(name: "swift-web-image", path: "..")
    ],
    targets: [
        .target(
            name: "WebImageFuzzing",
            dependencies: [
                .product(name: "WebImage", package: "swift-web-image"),
                .product(name: "WebImageServer", package: "swift-web-image"),
            ],
            path: "Bodies",
            // The bodies check the main package's traits; its default build, used here, has them all.
            swiftSettings: [.swiftLanguageMode(.v6)] + ["AVIF", "HEIC", "JPEGXL", "TIFF", "SVG"].map { .define($0) })
    ]
        + fuzzTargets.map {
            .executableTarget(
                name: $0, dependencies: ["WebImageFuzzing"], path: $0,
                swiftSettings: [.swiftLanguageMode(.v6)])
        }
)
