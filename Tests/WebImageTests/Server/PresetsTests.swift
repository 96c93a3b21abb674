import Foundation
import Testing
import WebImage
import WebImageTestOrigin

@testable import WebImageServer

/// imgproxy's presets: named option lists, a `default` one, `preset`/`pr`, and presets only.
@Suite("Service URLs: presets")
struct PresetsTests {
    static let presets = try! ProcessingPresets(definitions: [
        "# thumbnails", "", "thumb=rs:fill:40:30/q:70", "sharp = sh:1 ", "loop=pr:loop2/bl:1", "loop2=pr:loop/sh:2",
    ])

    @Test func definitionsSkipCommentsAndBlanksAndTrimNamesAndOptions() {
        #expect(Self.presets.segments.keys.sorted() == ["loop", "loop2", "sharp", "thumb"])
        #expect(Self.presets.segments["sharp"] == ["sh:1"])
        #expect(Self.presets.segments["thumb"] == ["rs:fill:40:30", "q:70"])
    }

    @Test(arguments: [
        "thumb", "=rs:fit:1:1", "thumb=", "a=b=c", "thumb=rs:fit:1:1/plain", "thumb=frobnicate:1", "thumb=w:-1",
        "thumb=pr:nothing",
    ])
    func aBadDefinitionIsRefusedNamingIt(definition: String) {
        #expect(throws: ServiceError.self, "\(definition)") { try ProcessingPresets(definitions: [definition]) }
    }

    @Test func presetsApplyInOrderAndTheURLsLaterOptionsWin() throws {
        let options = try ProcessingOptions(segments: ["pr:thumb:sharp", "q:90"], presets: Self.presets)
        #expect(options.resizingType == .fill && options.width == 40 && options.height == 30)
        #expect(options.sharpen == 1 && options.quality == 90)
        let long = try ProcessingOptions(segments: ["q:90", "preset:thumb"], presets: Self.presets)
        #expect(long.quality == 70)
    }

    @Test func presetsThatNameEachOtherAreAppliedOnceEach() throws {
        let options = try ProcessingOptions(segments: ["pr:loop"], presets: Self.presets)
        #expect(options.blur == 1 && options.sharpen == 2)
    }

    @Test func anUnknownPresetIsABadRequestNamingIt() {
        do {
            _ = try ProcessingOptions(segments: ["pr:thumb:nope"], presets: Self.presets)
            Issue.record("an unknown preset was accepted")
        } catch {
            #expect(error.status == 400 && error.message.contains("'nope'"))
        }
        #expect(throws: ServiceError.self) { try ProcessingOptions(segments: ["pr"], presets: Self.presets) }
    }

    @Test func theDefaultPresetAppliesFirstToEveryRequest() throws {
        let presets = try ProcessingPresets(definitions: ["default=q:55/el:1", "thumb=w:10"])
        let plain = try ProcessingOptions(segments: ["w:5"], presets: presets)
        #expect(plain.quality == 55 && plain.enlarge && plain.width == 5)
        let overridden = try ProcessingOptions(segments: ["el:0", "pr:thumb"], presets: presets)
        #expect(!overridden.enlarge && overridden.width == 10 && overridden.quality == 55)
    }

    static func request(_ service: ImageService, _ path: String) async -> ServiceResponse {
        await service.respond(to: ServiceRequest(path: path))
    }

    @Test func theServiceResolvesPresetsAndOnlyPresetsTakesNamesAlone() async throws {
        var configuration = ServiceConfiguration()
        configuration.allowsLoopbackSources = true
        configuration.presets = Self.presets
        try await withOrigin { origin in
            let source = origin.url("/fixtures/jpeg/photo_800x600.jpg").absoluteString
            try await withImageService(configuration) { service in
                let response = await Self.request(service, "/_/pr:thumb/plain/\(source)@png")
                #expect(response.status == 200)
                let image = try ImageCodersManager.shared.decode(response.body, options: ImageDecodeOptions())
                #expect(image.bitmap.size == PixelSize(width: 40, height: 30))
            }
            configuration.onlyPresets = true
            try await withImageService(configuration) { service in
                let named = await Self.request(service, "/_/thumb:sharp/plain/\(source)@png")
                #expect(named.status == 200)
                let image = try ImageCodersManager.shared.decode(named.body, options: ImageDecodeOptions())
                #expect(image.bitmap.size == PixelSize(width: 40, height: 30))
                let options = await Self.request(service, "/_/rs:fit:10:10/plain/\(source)@png")
                #expect(options.status == 400)
                #expect(String(decoding: options.body, as: UTF8.self).contains("unknown preset 'rs'"))
            }
        }
    }
}

/// What proxies and CDNs do to paths, undone as imgproxy undoes it, before the signature check.
@Suite("Service URLs: paths as proxies pass them on")
struct ProxiedPathTests {
    static let pair = URLSigner.KeyPair(hexKey: "736563726574", hexSalt: "68656C6C6F")!

    @Test func anEncodedColonInTheOptionsIsAColon() throws {
        let path = try ProcessingPath("/_/rs%3Afit%3A300%3A200/q:80/plain/http://host/a%3Ab.jpg")
        #expect(path.optionSegments == ["rs:fit:300:200", "q:80"])
        #expect(path.source == "http://host/a:b.jpg")
        #expect(path.signedPath == "/rs:fit:300:200/q:80/plain/http://host/a%3Ab.jpg")
        let encoded = try ProcessingPath("/_/w%3A10/aHR0cDovL2gvaS5naWY")
        #expect(encoded.optionSegments == ["w:10"] && encoded.source == "http://h/i.gif")
    }

    @Test func aSchemeWithOneSlashGetsItsSecondBack() throws {
        #expect(try ProcessingPath("/_/w:10/plain/http:/host/a.jpg").source == "http://host/a.jpg")
        #expect(try ProcessingPath("/_/plain/https:/host/a.jpg@png").source == "https://host/a.jpg")
        #expect(try ProcessingPath("/_/plain/http://host/a:/b.jpg").source == "http://host/a:/b.jpg")
    }

    /// The signature is made over the path as written; what the proxy changed does not break it.
    @Test func theSignatureOfTheOriginalPathPassesAfterTheProxyRewroteIt() throws {
        let signer = URLSigner(keyPairs: [Self.pair])
        let original = "/rs:fit:300:200/plain/http://host/a.jpg"
        let signature = URLSigner.signature(of: original, with: Self.pair)
        for sent in ["/rs%3Afit%3A300%3A200/plain/http:/host/a.jpg", "/rs:fit:300:200/plain/http:/host/a.jpg"] {
            let path = try ProcessingPath("/" + signature + sent)
            try signer.verify(path.signature, for: path.signedPath)
        }
        let tampered = try ProcessingPath("/" + signature + "/rs:fit:300:201/plain/http:/host/a.jpg")
        #expect(throws: ServiceError.self) { try signer.verify(tampered.signature, for: tampered.signedPath) }
    }

    @Test func onlyPresetsTakesTheFirstSegmentAsPresetNames() throws {
        let path = try ProcessingPath("/_/thumb:sharp/plain/http://host/a.jpg", onlyPresets: true)
        #expect(path.optionSegments == ["preset:thumb:sharp"] && path.source == "http://host/a.jpg")
        #expect(throws: ServiceError.self) { try ProcessingPath("/_/thumb", onlyPresets: true) }
    }
}
