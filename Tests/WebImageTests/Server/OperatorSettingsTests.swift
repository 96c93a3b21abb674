import Foundation
import Testing
import WebImage
import WebImageTestOrigin

@testable import WebImageServer

/// imgproxy's operator settings: source rewriting, trusted signatures, the secret, the allowed
/// options, the path prefix and the redirect limit.
@Suite("Image service: operator settings from imgproxy")
struct OperatorSettingsTests {
    static func rewriting(_ pairs: [String], base: String = "") throws -> SourceURLRewriting {
        SourceURLRewriting(replacements: try SourceURLRewriting.replacements(pairs), baseURL: base)
    }

    @Test func replacementsRewriteTheStartWithWildcardsAndTheFirstMatchWins() throws {
        let rewriting = try Self.rewriting([
            "mys3://=https://mybucket.s3.amazonaws.com/", "cdn://*/*/=https://${2}.${1}.example/",
            "cdn://=https://never.example/",
        ])
        #expect(rewriting.rewrite("mys3://a/b.png") == "https://mybucket.s3.amazonaws.com/a/b.png")
        #expect(rewriting.rewrite("cdn://eu/img/x/y.png") == "https://img.eu.example/x/y.png")
        #expect(rewriting.rewrite("https://other/x.png") == "https://other/x.png")
        let tail = try Self.rewriting(["local://*=http://files/${1}"])
        #expect(tail.rewrite("local://a.png") == "http://files/a.png")
        #expect(tail.rewrite("local://dir/a.png") == "http://files/dir/a.png")
        #expect(throws: ServiceError.self) { try SourceURLRewriting.replacements(["no-equals-sign"]) }
        #expect(throws: ServiceError.self) { try SourceURLRewriting.replacements(["=x"]) }
    }

    @Test func theBaseURLGoesInFrontOfSourcesThatLackIt() throws {
        let base = try Self.rewriting([], base: "https://images.example/")
        #expect(base.rewrite("cats/a.jpg") == "https://images.example/cats/a.jpg")
        #expect(base.rewrite("https://images.example/cats/a.jpg") == "https://images.example/cats/a.jpg")
        let both = try Self.rewriting(["s3://=bucket/"], base: "https://images.example/")
        #expect(both.rewrite("s3://a.jpg") == "https://images.example/bucket/a.jpg")
    }

    static func respond(
        _ paths: [String], headers: [String?]? = nil, configure: (inout ServiceConfiguration, TestOrigin) -> Void
    ) async throws -> [Int] {
        try await withOrigin { origin in
            var configuration = ServiceConfiguration()
            configuration.allowsLoopbackSources = true
            configure(&configuration, origin)
            return try await withImageService(configuration) { service in
                var statuses: [Int] = []
                for (index, path) in paths.enumerated() {
                    var request = ServiceRequest(
                        path: path.replacingOccurrences(of: "{origin}", with: "\(origin.port)"))
                    request.authorization = headers?[index]
                    statuses.append(await service.respond(to: request).status)
                }
                return statuses
            }
        }
    }

    @Test func relativeSourcesLoadFromTheBaseURLAndTheAllowListSeesTheRewrittenURL() async throws {
        let statuses = try await Self.respond(["/_/w:10/plain/png/rgba8.png", "/_/w:10/plain/jpeg/gray.jpg"]) {
            configuration, origin in
            configuration.sourceRewriting.baseURL = origin.url("/fixtures/").absoluteString
            configuration.allowedSourcePrefixes = [origin.url("/fixtures/png/").absoluteString]
        }
        #expect(statuses == [200, 403])
    }

    @Test func trustedSignaturesPassUnchecked() async throws {
        let source = "plain/http://127.0.0.1:{origin}/fixtures/png/rgba8.png"
        let statuses = try await Self.respond(["/trusted/w:10/\(source)", "/forged/w:10/\(source)"]) {
            configuration, _ in
            configuration.signer = URLSigner(keyPairs: [URLSigner.KeyPair(hexKey: "00ff", hexSalt: "ab")!])
            configuration.trustedSignatures = ["trusted"]
        }
        #expect(statuses == [200, 403])
    }

    @Test func theSecretIsRequiredAsABearerToken() async throws {
        let path = "/_/w:10/plain/http://127.0.0.1:{origin}/fixtures/png/rgba8.png"
        let statuses = try await Self.respond(
            [path, path, path, path], headers: [nil, "Bearer wrong", "Bearer s3cret", "s3cret"]
        ) { configuration, _ in configuration.secret = "s3cret" }
        #expect(statuses == [403, 403, 200, 403])
    }

    @Test func onlyTheAllowedOptionNamesPassButPresetsMayHoldOthers() async throws {
        let source = "plain/http://127.0.0.1:{origin}/fixtures/png/rgba8.png"
        let statuses = try await Self.respond([
            "/_/w:10/\(source)", "/_/width:10/\(source)", "/_/w:10/q:50/\(source)", "/_/pr:small/\(source)",
        ]) { configuration, _ in
            configuration.allowedOptions = ["w", "pr"]
            configuration.presets = try! ProcessingPresets(definitions: ["small=rs:fit:5:5/q:50"])
        }
        #expect(statuses == [200, 403, 403, 200])
    }

    @Test func aFetchFollowsNoMoreRedirectsThanAllowed() async throws {
        let path =
            "/_/w:10/plain/http://127.0.0.1:{origin}/hop%3Fstatus%3D302%26header%3DLocation:/fixtures/png/rgba8.png"
        let once = try await Self.respond([path]) { configuration, _ in configuration.maxRedirects = 1 }
        let never = try await Self.respond([path]) { configuration, _ in configuration.maxRedirects = 0 }
        #expect(once == [200])
        #expect(never.first.map { $0 >= 400 } == true, "\(never)")
    }

    @Test func thePathPrefixRoutesWhatIsBelowItAndNothingElse() {
        #expect(ImageServerResponder.route("/img/_/w:1/plain/x", under: "/img") == "/_/w:1/plain/x")
        #expect(ImageServerResponder.route("/img/health", under: "/img") == "/health")
        #expect(ImageServerResponder.route("/img", under: "/img") == "/")
        #expect(ImageServerResponder.route("/imgx/health", under: "/img") == nil)
        #expect(ImageServerResponder.route("/health", under: "/img") == nil)
        #expect(ImageServerResponder.route("/health", under: "") == "/health")
    }

    @Test func theSettingsComeFromImgproxysVariablesAndBadOnesStopTheServer() throws {
        let options = try ServeOptions(
            ServeSettings(environment: [
                "IMGPROXY_TRUSTED_SIGNATURES": "a,b", "IMGPROXY_SECRET": "s", "IMGPROXY_PATH_PREFIX": "/img",
                "IMGPROXY_ALLOWED_PROCESSING_OPTIONS": "w,rs", "IMGPROXY_BASE_URL": "https://images.example/",
                "IMGPROXY_URL_REPLACEMENTS": "a://=https://a/;b://*=https://b/${1}", "IMGPROXY_MAX_REDIRECTS": "3",
            ]))
        let configuration = options.configuration
        #expect(configuration.trustedSignatures == ["a", "b"] && configuration.secret == "s")
        #expect(configuration.pathPrefix == "/img" && configuration.allowedOptions == ["w", "rs"])
        #expect(configuration.sourceRewriting.baseURL == "https://images.example/")
        #expect(configuration.sourceRewriting.replacements.count == 2 && configuration.maxRedirects == 3)
        #expect(options.notices.isEmpty, "\(options.notices)")
        for (flag, value) in [
            ("path-prefix", "img"), ("path-prefix", "/img/"), ("url-replacement", "nothing"), ("max-redirects", "101"),
            ("secret", ""),
        ] {
            #expect(throws: ServeSettingError.self, "--\(flag) \(value)") {
                try ServeOptions(ServeSettings(flags: [flag: value], environment: [:]))
            }
        }
    }
}
