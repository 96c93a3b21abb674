// swift-tools-version:6.2
import PackageDescription

/// Two programs that use swift-web-image as a dependency, the way a package of yours does. Your
/// manifest names it by URL and version; this one by path, so that it builds the checkout it
/// sits in (CI runs both against the test origin: `scripts/examples`). The target dependencies
/// are the README's, line for line.
let package = Package(
    name: "swift-web-image-examples",
    dependencies: [
        // In your package: .package(url: "https://github.com/swift-web-image/swift-web-image", from: "0.1.0"),
        .package(name: "swift-web-image", path: ".."),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1", traits: []),
        .package(url: "https://github.com/apple/swift-http-types", from: "1.8.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
    ],
    targets: [
        // Fetches one image, thumbnails it and caches it on disk.
        .executableTarget(
            name: "thumbnail",
            dependencies: [
                .product(name: "WebImage", package: "swift-web-image")
            ],
            swiftSettings: [.swiftLanguageMode(.v6)]),
        // A Hummingbird app of its own with the image service mounted under /images.
        .executableTarget(
            name: "embedded-server",
            dependencies: [
                .product(name: "WebImage", package: "swift-web-image"),
                .product(name: "WebImageServer", package: "swift-web-image"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "NIOCore", package: "swift-nio"),
            ],
            swiftSettings: [.swiftLanguageMode(.v6)]),
    ]
)
