import ArgumentParser
import Foundation
import WebImage
import WebImageTestOrigin

/// `webimage demo [--out DIR]`: the whole pipeline against a loopback origin, no internet needed.
struct DemoCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "demo",
        abstract: "Run the library against a built-in local image server and draw a contact sheet.",
        discussion: """
            Starts an HTTP origin on 127.0.0.1 serving generated JPEG (baseline and progressive), PNG, GIF, WebP, AVIF and APNG images (animated \
            ones, broken ones, a slow one), loads them through one ImageManager twice (cold, then warm) with \
            many duplicate URLs, prints what happened, and writes contact-sheet.png to --out.
            """)

    @Option(
        help: ArgumentHelp("Where to write contact-sheet.png (default: a new temporary directory).", valueName: "DIR"))
    var out: String?

    func validate() throws {
        if let out, out.isEmpty || out.contains("\0") { throw ValidationError("--out needs a directory path") }
    }

    func run() async throws {
        let outDirectory = try outputDirectory()
        let cacheDirectory = FileManager.default.temporaryDirectory
            .appendingPathComponent("webimage-demo-cache-\(UUID().uuidString)", isDirectory: true)
        defer { try? FileManager.default.removeItem(at: cacheDirectory) }

        let origin = try await TestOrigin.start()
        do {
            try await run(origin: origin, cacheDirectory: cacheDirectory, outDirectory: outDirectory)
            try await origin.shutdown()
        } catch {
            try? await origin.shutdown()
            throw error
        }
    }

    private func run(origin: TestOrigin, cacheDirectory: URL, outDirectory: URL) async throws {
        let items = try DemoImages.register(on: origin)
        let urls = items.map { origin.url($0.path + ($0.query.isEmpty ? "" : "?" + $0.query)) }
        // Every URL several times, interleaved, as a scrolling list would ask for them.
        let maxCopies = items.map(\.copies).max() ?? 1
        let loads = (0..<maxCopies).flatMap { copy in urls.indices.filter { copy < items[$0].copies } }

        let cache = try ImageCache(directory: cacheDirectory)
        let downloader = ImageDownloader(config: .default)
        let manager = ImageManager(cache: cache, loader: downloader)
        let formats = Set(items.filter { !$0.isBroken }.map { $0.caption.split(separator: " ")[0] }).sorted()
        print(
            "webimage demo: origin \(origin.baseURL.absoluteString), \(items.count) images "
                + "(\(formats.joined(separator: ", ")); animated, broken and slow ones), \(loads.count) loads")

        let cold = await DemoPass.run(manager: manager, downloader: downloader, urls: urls, loads: loads)
        print(cold.line(name: "cold pass"))
        for (index, message) in cold.errors.sorted(by: { $0.key < $1.key }) {
            print("  failed \(urls[index].path): \(message)")
        }
        let blocked = urls.filter { manager.isFailedURL($0) }
        print(
            "blocklisted after the cold pass: \(blocked.count)"
                + (blocked.isEmpty ? "" : " (" + blocked.map(\.path).joined(separator: ", ") + ")"))

        // Drop every other image from memory so the warm pass shows disk hits as well as memory hits.
        for (index, url) in urls.enumerated() where index % 2 == 1 {
            await cache.removeImage(forKey: manager.cacheKey(for: url), cacheType: .memory)
        }
        // The origin's own counts, to show the warm pass asks nothing for what loaded cold.
        let loadedPaths = items.indices.filter { cold.images[$0] != nil }.map { items[$0].path }
        let requestsBefore = loadedPaths.reduce(0) { $0 + origin.requestCount(path: $1) }
        let warm = await DemoPass.run(manager: manager, downloader: downloader, urls: urls, loads: loads)
        let requestsAfter = loadedPaths.reduce(0) { $0 + origin.requestCount(path: $1) }
        print(warm.line(name: "warm pass") + " (every other image dropped from memory first)")
        print(
            "warm pass: \(requestsAfter - requestsBefore) HTTP requests for the \(loadedPaths.count) images that "
                + "loaded cold; failed URLs not blocklisted are asked again")
        await downloader.shutdown()

        let tiles = items.indices.map { index in
            ContactSheet.Tile(caption: items[index].caption, image: cold.images[index] ?? warm.images[index])
        }
        let sheet = try ContactSheet.render(tiles)
        let png = try ImageCodersManager.shared.encode(sheet, as: .png, options: ImageEncodeOptions())
        let file = outDirectory.appendingPathComponent("contact-sheet.png")
        do {
            try png.write(to: file, options: .atomic)
        } catch {
            throw CommandFailure("\(file.path): cannot write (\(error.localizedDescription))")
        }
        print("contact sheet: \(file.path) (\(sheet.width)x\(sheet.height), \(tiles.count) tiles)")
    }

    private func outputDirectory() throws -> URL {
        let directory =
            out.map { URL(fileURLWithPath: $0, isDirectory: true) }
            ?? FileManager.default.temporaryDirectory.appendingPathComponent(
                "webimage-demo-\(UUID().uuidString.prefix(8))", isDirectory: true)
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        } catch {
            throw CommandFailure("--out \(directory.path): cannot create the directory (\(error.localizedDescription))")
        }
        return directory
    }
}
