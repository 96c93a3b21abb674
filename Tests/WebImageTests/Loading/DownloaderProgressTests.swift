import Foundation
import Testing
import WebImageTestOrigin

@testable import WebImage

@Suite("ImageDownloader progress and progressive loading")
struct DownloaderProgressTests {
    typealias Support = DownloaderTestSupport

    @Test("Progress starts at (0, -1), then (0, total), grows monotonically and ends at the total")
    func progressMonotonic() async throws {
        try await Support.withOrigin { origin, downloader in
            let total = try Support.fixtureSize("jpeg/photo_800x600.jpg")
            let recorder = ResultRecorder()
            downloader.downloadImage(
                with: origin.url(Support.jpegPath + "?drip=8192:5"), progress: recorder.progress,
                completion: recorder.completion)
            #expect(await recorder.result().value != nil)
            let reports = recorder.progressReports
            #expect(reports.first! == (0, -1))
            #expect(reports.dropFirst().first! == (0, total))
            #expect(reports.count > 3)
            #expect(zip(reports, reports.dropFirst()).allSatisfy { $0.received <= $1.received })
            #expect(reports.dropFirst().allSatisfy { $0.expected == total })
            #expect(reports.last! == (total, total))
        }
    }

    @Test("With an unknown length, progress reports -1 until the last report, which equals the total")
    func progressChunked() async throws {
        try await Support.withOrigin { origin, downloader in
            let total = try Support.fixtureSize("jpeg/photo_800x600.jpg")
            let recorder = ResultRecorder()
            downloader.downloadImage(
                with: origin.url(Support.jpegPath + "?chunked=1"), progress: recorder.progress,
                completion: recorder.completion)
            #expect(await recorder.result().value != nil)
            let reports = recorder.progressReports
            #expect(reports.dropLast().allSatisfy { $0.expected == -1 })
            #expect(reports.last! == (total, total))
        }
    }

    @Test("A minimum progress interval thins reports but keeps the last one")
    func throttledProgress() async throws {
        var config = ImageDownloaderConfig()
        config.minimumProgressInterval = 5  // clamped to 1 s
        try await Support.withOrigin(config: config) { origin, downloader in
            let total = try Support.fixtureSize("jpeg/photo_800x600.jpg")
            let recorder = ResultRecorder()
            downloader.downloadImage(
                with: origin.url(Support.jpegPath + "?drip=1024:2"), progress: recorder.progress,
                completion: recorder.completion)
            #expect(await recorder.result().value != nil)
            let reports = recorder.progressReports
            let chunks = total / 1024
            #expect(reports.count < chunks)
            #expect(reports.last! == (total, total))
        }
    }

    @Test("Progressive loading delivers partial images before the final one, never after it")
    func progressiveJPEG() async throws {
        try await Support.withOrigin { origin, downloader in
            let path = "/fixtures/jpeg/progressive.jpg"
            let total = try Support.fixtureSize("jpeg/progressive.jpg")
            let chunk = max(total / 12, 256)
            let recorder = ResultRecorder()
            downloader.downloadImage(
                with: origin.url(path + "?drip=\(chunk):80"), options: .progressiveLoad, completion: recorder.completion
            )
            let final = try await recorder.result().get()
            #expect(!final.image.isIncremental)
            let partials = recorder.partials
            #expect(!partials.isEmpty)
            #expect(partials.allSatisfy { $0.image.isIncremental && $0.data == nil && !$0.isFinished })
            #expect(partials.allSatisfy { $0.image.width == final.image.width })
            #expect(recorder.callsAfterTerminal == 0)
        }
    }

    @Test(
        "Progressive loading shows AVIF grid rows and the JPEG XL DC image before the final image",
        arguments: ["avif/grid.avif", "jxl/progressive.jxl"])
    func progressiveAVIFAndJPEGXL(fixture: String) async throws {
        try await Support.withOrigin { origin, downloader in
            let total = try Support.fixtureSize(fixture)
            let recorder = ResultRecorder()
            downloader.downloadImage(
                with: origin.url("/fixtures/\(fixture)?drip=\(max(total / 12, 256)):80"), options: .progressiveLoad,
                completion: recorder.completion)
            let final = try await recorder.result().get()
            #expect(!final.image.isIncremental)
            let partials = recorder.partials
            #expect(!partials.isEmpty)
            #expect(partials.allSatisfy { $0.image.isIncremental && $0.image.width == final.image.width })
            #expect(recorder.callsAfterTerminal == 0)
        }
    }

    @Test("A decryptor turns progressive loading off")
    func decryptorDisablesProgressive() async throws {
        try await Support.withOrigin { origin, downloader in
            let jpeg = try Fixtures.data("jpeg/progressive.jpg")
            origin.register(path: "/identity.jpg", body: jpeg, contentType: "image/jpeg")
            var context = WebImageContext()
            context.downloadDecryptor = ImageDownloadBlockDecryptor { data, _, _ in data }
            let recorder = ResultRecorder()
            downloader.downloadImage(
                with: origin.url("/identity.jpg?drip=\(max(jpeg.count / 12, 256)):20"), options: .progressiveLoad,
                context: context, completion: recorder.completion)
            #expect(await recorder.result().value != nil)
            #expect(recorder.partials.isEmpty)
        }
    }
}
