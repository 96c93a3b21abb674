import Foundation
import Testing
import WebImage
import WebImageTestOrigin

@_spi(Internals) @testable import WebImageServer

/// imgproxy's format choice: `IMGPROXY_AUTO_*`, `IMGPROXY_ENFORCE_*` and `IMGPROXY_PREFERRED_FORMATS`.
@Suite("Image service: the output format from Accept, enforced formats and preferred formats")
struct FormatNegotiationTests {
    @Test func acceptChoosesJPEGXLThenAVIFThenWebPAmongTheAutomaticFormats() {
        let all: Set<ImageFormat> = [.jpegXL, .avif, .webp]
        let both = "image/jxl,image/avif,image/webp,*/*"
        #expect(OutputFormats.negotiate(requested: nil, accept: both, automatic: all, enforced: []) == (.jpegXL, true))
        #expect(
            OutputFormats.negotiate(requested: nil, accept: both, automatic: [.avif, .webp], enforced: [])
                == (.avif, true))
        #expect(
            OutputFormats.negotiate(requested: nil, accept: "image/webp", automatic: all, enforced: []) == (.webp, true)
        )
        // A quality of 0 refuses a type, and a wildcard names none.
        #expect(
            OutputFormats.negotiate(requested: nil, accept: "image/avif;q=0, */*", automatic: all, enforced: [])
                == (nil, true))
        #expect(OutputFormats.negotiate(requested: nil, accept: both, automatic: [], enforced: []) == (nil, false))
    }

    @Test func anEnforcedFormatWinsOverTheURLsOnlyWhenAcceptNamesIt() {
        #expect(
            OutputFormats.negotiate(requested: .png, accept: "image/webp", automatic: [.webp], enforced: [])
                == (.png, false))
        #expect(
            OutputFormats.negotiate(requested: .png, accept: "image/webp", automatic: [], enforced: [.webp])
                == (.webp, true))
        #expect(
            OutputFormats.negotiate(requested: .png, accept: "image/jpeg", automatic: [], enforced: [.webp])
                == (.png, true))
        // Enforcing also detects: a URL without a format gets it too.
        #expect(
            OutputFormats.negotiate(requested: nil, accept: "image/avif", automatic: [], enforced: [.avif])
                == (.avif, true))
    }

    @Test func withoutAChoiceASourceKeepsAPreferredFormatElseGetsTheFirstThatFits() {
        let imgproxys: [ImageFormat] = [.jpeg, .png, .gif]
        #expect(OutputFormats.fallback(source: .png, hasAlpha: true, animated: false, preferred: imgproxys) == .png)
        #expect(OutputFormats.fallback(source: .webp, hasAlpha: false, animated: false, preferred: imgproxys) == .jpeg)
        #expect(OutputFormats.fallback(source: .webp, hasAlpha: true, animated: false, preferred: imgproxys) == .png)
        #expect(
            OutputFormats.fallback(source: .tiff, hasAlpha: false, animated: true, preferred: [.jpeg, .gif]) == .gif)
        // Nothing fits: the first preferred format.
        #expect(OutputFormats.fallback(source: .tiff, hasAlpha: true, animated: false, preferred: [.jpeg]) == .jpeg)
        // Ours keep WebP and AVIF sources as they are.
        #expect(
            OutputFormats.fallback(
                source: .webp, hasAlpha: false, animated: false, preferred: OutputFormats.defaultPreferred) == .webp)
    }

    /// Each request's content type and `Vary`, from a service `configure` sets up.
    static func answers(
        _ requests: [(path: String, accept: String?)], configure: (inout ServiceConfiguration) -> Void
    ) async throws -> [(type: String?, vary: String?)] {
        try await withOrigin { origin in
            var configuration = ServiceConfiguration()
            configuration.allowsLoopbackSources = true
            configure(&configuration)
            return try await withImageService(configuration) { service in
                var answers: [(String?, String?)] = []
                for (path, accept) in requests {
                    let parts = path.split(separator: "@").map(String.init)
                    let source = origin.url("/fixtures/" + parts[0]).absoluteString
                    let full = "/_/w:16/plain/" + source + (parts.count == 2 ? "@" + parts[1] : "")
                    let response = await service.respond(to: ServiceRequest(path: full, accept: accept))
                    #expect(response.status == 200, "\(path): \(String(decoding: response.body, as: UTF8.self))")
                    answers.append((response.header("Content-Type"), response.header("Vary")))
                }
                return answers
            }
        }
    }

    @Test func theServiceEnforcesNegotiatesJPEGXLAndFallsBackToItsPreferredFormats() async throws {
        let enforced = try await Self.answers([
            ("jpeg/baseline.jpg@png", "image/webp,*/*"), ("jpeg/baseline.jpg@png", "*/*"),
            ("jpeg/baseline.jpg", "image/jxl,image/avif"),
        ]) {
            $0.enforcedFormats = [.webp]
            $0.automaticFormats = [.jpegXL, .avif]
        }
        #expect(enforced.map(\.type) == ["image/webp", "image/png", "image/jxl"])
        #expect(enforced.map(\.vary) == ["Accept", "Accept", "Accept"])
        let preferred = try await Self.answers([("webp/lossy.webp", nil), ("webp/lossless_alpha.webp", nil)]) {
            $0.preferredFormats = [.jpeg, .png, .gif]
        }
        #expect(preferred.map(\.type) == ["image/jpeg", "image/png"])
        #expect(preferred.map(\.vary) == ["Accept", "Accept"])
        // Without negotiation a URL's own format does not vary.
        let plain = try await Self.answers([("jpeg/baseline.jpg@png", "image/webp")]) { $0.automaticFormat = false }
        #expect(plain.map(\.type) == ["image/png"] && plain.map(\.vary) == [nil])
    }

    @Test func theFormatSettingsReadFlagsVariablesAndImgproxysNames() throws {
        func configuration(_ flags: [String: String], _ environment: [String: String] = [:]) throws
            -> ServiceConfiguration
        {
            try ServeOptions(ServeSettings(flags: flags, repeatedFlags: [:], environment: environment)).configuration
        }
        let flags = try configuration([
            "auto-format": "jxl,webp", "enforce-avif": "true", "preferred-formats": "png,jpg",
        ])
        #expect(flags.automaticFormats == [.jpegXL, .webp] && flags.enforcedFormats == [.avif])
        #expect(flags.preferredFormats == [.png, .jpeg])
        let imgproxy = try configuration(
            [:],
            [
                "IMGPROXY_ENFORCE_JXL": "true", "IMGPROXY_ENFORCE_WEBP": "1",
                "IMGPROXY_PREFERRED_FORMATS": "gif,png",
            ])
        #expect(imgproxy.enforcedFormats == [.jpegXL, .webp] && imgproxy.preferredFormats == [.gif, .png])
        #expect(try configuration(["auto-format": ""]).automaticFormats.isEmpty)
        #expect(throws: ServeSettingError.self) { try configuration(["auto-format": "png"]) }
        #expect(throws: ServeSettingError.self) { try configuration(["preferred-formats": "png,nope"]) }
        #expect(throws: ServeSettingError.self) { try configuration(["preferred-formats": " , "]) }
    }
}
