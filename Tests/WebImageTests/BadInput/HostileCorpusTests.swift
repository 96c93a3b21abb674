import Foundation
import Testing

@testable import WebImage

@Suite("A hostile corpus made at test time")
struct HostileCorpusTests {
    /// Decoding any of these must stay under this much resident memory in a fresh process
    /// (the process itself takes about 30 MB).
    static let peakMemoryLimit = 160 << 20

    @Test("Each hostile input ends in a typed error or a sane image, in this process")
    func typedErrorOrImage() throws {
        for input in try HostileCorpus.inputs() {
            var options = ImageDecodeOptions()
            options.maxPixelCount = 16_000_000
            do {
                let image = try ImageCodersManager.shared.decode(input.data, options: options)
                #expect(image.width > 0 && image.height > 0, "\(input.name)")
                #expect(image.width * image.height <= options.maxPixelCount, "\(input.name)")
                #expect(image.bitmap.pixels.count == image.width * image.height * 4, "\(input.name)")
            } catch {
                // A WebImageError: the coders' typed throws rule out any other error.
            }
        }
    }

    @Test("The huge-size claims are refused before any allocation")
    func hugeClaimsAreRefused() throws {
        let inputs = try HostileCorpus.inputs()
        for name in [
            "png-100000x100000-tiny-idat", "gif-65535x65535-screen", "jpeg-65500x65500-sof", "webp-16384x16384-canvas",
        ] {
            let input = try #require(inputs.first { $0.name == name })
            #expect(throws: WebImageError.self, "\(name)") {
                try ImageCodersManager.shared.decode(input.data, options: ImageDecodeOptions())
            }
        }
    }

    @Test("Decoding and re-encoding the whole corpus in a fresh process stays within bounded memory")
    func boundedMemoryInAChildProcess() async throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let inputs = try HostileCorpus.inputs()
        for input in inputs { try input.data.write(to: directory.appendingPathComponent(input.name)) }
        let (status, output) = try await onOwnThread { try CacheTorture.run(["decode", directory.path]) }
        #expect(status == 0, "\(output)")
        let lines = output.split(separator: "\n")
        let outcomes = lines.filter { $0.contains(" ok ") || $0.contains(" error ") }
        #expect(outcomes.count == inputs.count, "\(output)")
        #expect(outcomes.contains { $0.contains(" ok ") } && outcomes.contains { $0.contains(" error ") })
        let peak = lines.first { $0.hasPrefix("peak=") }.flatMap { Int($0.dropFirst(5)) } ?? .max
        #expect(peak < Self.peakMemoryLimit, "the decoding process peaked at \(peak >> 20) MiB")
    }
}
