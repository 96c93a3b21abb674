import Foundation
import WebImage

// `thumbnail URL SIZE OUTPUT.png CACHE-DIRECTORY`: loads URL through a manager whose disk cache is
// in CACHE-DIRECTORY, fits the image into SIZE×SIZE pixels, writes it as PNG to OUTPUT.png and
// prints where the pixels came from: the network the first time, the disk cache from then on
// (each run is a new process, so its memory cache starts empty).
let arguments = Array(CommandLine.arguments.dropFirst())
guard arguments.count == 4, let url = URL(string: arguments[0]), let side = Int(arguments[1]), (1...4096).contains(side)
else {
    FileHandle.standardError.write(Data("usage: thumbnail URL SIZE(1-4096) OUTPUT.png CACHE-DIRECTORY\n".utf8))
    exit(2)
}
let output = URL(fileURLWithPath: arguments[2])
let cacheDirectory = URL(fileURLWithPath: arguments[3], isDirectory: true)

let downloader = ImageDownloader()
do {
    let cache = try ImageCache(namespace: "thumbnail-example", directory: cacheDirectory)
    let manager = ImageManager(cache: cache, loader: downloader)
    var context = WebImageContext()
    context.imageTransformer = .transformer(
        ImageResizingTransformer(size: PixelSize(width: side, height: side), scaleMode: .aspectFit))
    // .waitStoreCache: the thumbnail is on disk before the load returns (and this process exits).
    let result = try await manager.loadImage(with: url, options: [.waitStoreCache], context: context)
    let png = try ImageCodersManager.shared.encode(result.image, as: .png, options: ImageEncodeOptions())
    try png.write(to: output)
    let source = result.cacheType == .none ? "network" : "\(result.cacheType) cache"
    print("\(result.image.width)x\(result.image.height) from \(source), \(png.count) bytes to \(output.path)")
    await downloader.shutdown()
} catch {
    FileHandle.standardError.write(Data("error: \(error)\n".utf8))
    await downloader.shutdown()
    exit(1)
}
