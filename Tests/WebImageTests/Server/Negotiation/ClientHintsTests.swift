import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing
import WebImage
import WebImageTestOrigin

@_spi(Internals) @testable import WebImageServer

/// imgproxy's `IMGPROXY_ENABLE_CLIENT_HINTS`: `dpr` and `width` from `Sec-CH-DPR`/`DPR` and
/// `Sec-CH-Width`/`Width`.
@Suite("Image service: Client Hints")
struct ClientHintsTests {
    @Test func ofEachPairTheFirstValidHintCounts() {
        let hints = ClientHints(secCHDPR: "9", dpr: "1.5", secCHWidth: "wide", width: "300")
        #expect(hints == ClientHints(dpr: 1.5, width: 300))
        #expect(ClientHints(secCHDPR: "2", dpr: "3", secCHWidth: "120", width: "80") == ClientHints(dpr: 2, width: 120))
        #expect(ClientHints(secCHDPR: "0", dpr: "-1", secCHWidth: "0", width: "-4").isEmpty)
        #expect(ClientHints(secCHDPR: "nan", dpr: "inf", secCHWidth: "1e3", width: nil).isEmpty)
    }

    @Test func hintsAreDefaultsThatTheURLAndPresetsOverride() throws {
        let hints = ClientHints(dpr: 2, width: 301)
        let hinted = try ProcessingOptions(segments: [], hints: hints)
        // 301 device pixels at a ratio of 2 are 151 CSS pixels (150.5 rounded away from zero).
        #expect(hinted.dpr == 2 && hinted.width == 151)
        let own = try ProcessingOptions(segments: ["w:40", "dpr:1"], hints: hints)
        #expect(own.dpr == 1 && own.width == 40)
        let presets = try ProcessingPresets(definitions: ["default=w:60"])
        #expect(try ProcessingOptions(segments: [], presets: presets, hints: hints).width == 60)
        // A huge width and a tiny ratio saturate, never trap.
        #expect(try ProcessingOptions(segments: [], hints: ClientHints(dpr: 1e-300, width: Int.max)).width == Int.max)
    }

    @Test func overHTTPTheHintsSizeTheResultAndTheResponseVariesOnThem() async throws {
        try await withOrigin { origin in
            var configuration = ServiceConfiguration()
            configuration.allowsLoopbackSources = true
            configuration.readsClientHints = true
            let source = origin.url("/fixtures/jpeg/photo_800x600.jpg").absoluteString
            try await withImageService(configuration) { service in
                try await ImageServer.application(service: service, host: "127.0.0.1", port: 0).test(.router) {
                    client in
                    var headers = HTTPFields()
                    headers[HTTPField.Name("Sec-CH-DPR")!] = "2"
                    headers[HTTPField.Name("Width")!] = "200"
                    try await client.execute(uri: "/_/rs:fit/plain/\(source)@png", method: .get, headers: headers) {
                        response in
                        #expect(response.status == .ok)
                        let info = try ImageCodersManager.shared.imageInfo(for: Data(buffer: response.body))
                        // Width 200 at DPR 2: 100 CSS pixels, drawn at 200.
                        #expect(info.width == 200 && info.height == 150)
                        #expect(response.headers[.vary] == "Sec-CH-DPR, DPR, Sec-CH-Width, Width")
                    }
                }
            }
            configuration.readsClientHints = false
            try await withImageService(configuration) { service in
                var request = ServiceRequest(path: "/_/rs:fit/plain/\(source)@png")
                request.clientHints = ClientHints(dpr: 2, width: 200)
                let response = await service.respond(to: request)
                let info = try ImageCodersManager.shared.imageInfo(for: response.body)
                #expect(info.width == 800)
                #expect(response.header("Vary") == nil)
            }
        }
    }

    @Test func theSettingReadsTheFlagAndImgproxysVariable() throws {
        func reads(_ flags: [String: String], _ environment: [String: String]) throws -> Bool {
            try ServeOptions(ServeSettings(flags: flags, environment: environment)).configuration.readsClientHints
        }
        #expect(try !reads([:], [:]))
        #expect(try reads(["client-hints": "true"], [:]))
        #expect(try reads([:], ["IMGPROXY_ENABLE_CLIENT_HINTS": "true"]))
        #expect(try reads([:], ["WEBIMAGE_CLIENT_HINTS": "1"]))
    }
}
