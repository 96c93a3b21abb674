import Foundation
import Testing

@testable import WebImageServer

/// imgproxy's two URL forms and its signatures.
@Suite("Service URLs: paths and signatures")
struct ProcessingPathTests {
    /// imgproxy's documented signing example: key "secret", salt "hello" (hex below).
    static let documentedPair = URLSigner.KeyPair(hexKey: "736563726574", hexSalt: "68656C6C6F")!
    static let documentedPath =
        "/rs:fill:300:400:0/g:sm/aHR0cDovL2V4YW1w/bGUuY29tL2ltYWdl/cy9jdXJpb3NpdHku/anBn.png"

    @Test func theDocumentedSigningExampleGivesTheDocumentedSignature() {
        #expect(
            URLSigner.signature(of: Self.documentedPath, with: Self.documentedPair)
                == "oKfUtW34Dvo2BGQehJFR4Nr0_rIjOtdtzJ3QFsUcXH8")
    }

    @Test func aBase64SourceSplitBySlashesDecodesWithItsExtension() throws {
        let path = try ProcessingPath("/sig" + Self.documentedPath)
        #expect(path.signature == "sig")
        #expect(path.signedPath == Self.documentedPath)
        #expect(path.optionSegments == ["rs:fill:300:400:0", "g:sm"])
        #expect(path.source == "http://example.com/images/curiosity.jpg")
        #expect(path.formatExtension == "png")
    }

    @Test func aPlainSourceIsPercentDecodedAndItsExtensionFollowsTheAt() throws {
        let path = try ProcessingPath("/_/w:100/plain/http://host/a%20b.jpg%3Fv%3D1@webp")
        #expect(path.optionSegments == ["w:100"])
        #expect(path.source == "http://host/a b.jpg?v=1")
        #expect(path.formatExtension == "webp")
        let bare = try ProcessingPath("/_/plain/http://host/x.png")
        #expect(bare.optionSegments.isEmpty)
        #expect(bare.source == "http://host/x.png")
        #expect(bare.formatExtension == nil)
    }

    @Test func decodedSourcesWithSpacesOrPercentSignsAreEncodedAgainForTheFetch() throws {
        let policy = SourcePolicy(configuration: ServiceConfiguration())
        let path = try ProcessingPath("/_/w:1/plain/http://host/my%20photo%25.jpg")
        #expect(try policy.url(for: path.source).absoluteString == "http://host/my%20photo%25.jpg")
        #expect(try policy.url(for: "https://host/a.jpg?v=1").absoluteString == "https://host/a.jpg?v=1")
        #expect(throws: ServiceError.self) { try policy.url(for: "not a url") }
    }

    @Test func paddedBase64AndNoOptionsAreAccepted() throws {
        let source = Data("https://h/i.gif".utf8).base64EncodedString()
        let path = try ProcessingPath("/x/" + source)
        #expect(path.source == "https://h/i.gif")
        #expect(path.formatExtension == nil)
    }

    @Test(arguments: [
        "no-leading-slash", "/onlysignature", "/sig/rs:fit:1:1", "/sig/rs:fit:1:1/", "/sig/plain/a@b@c",
        "/sig/plain/%zz", "/sig/!!!notbase64", "/sig/aGk.png.jpg",
    ])
    func malformedPathsAreBadRequests(path: String) {
        #expect(throws: ServiceError.self) { try ProcessingPath(path) }
        do {
            _ = try ProcessingPath(path)
        } catch {
            #expect(error.status == 400)
        }
    }

    @Test func anyOfSeveralKeyPairsPassesAndAnythingElseIsForbidden() throws {
        let other = URLSigner.KeyPair(hexKey: "00ff", hexSalt: "ab")!
        let signer = URLSigner(keyPairs: [other, Self.documentedPair])
        let good = URLSigner.signature(of: Self.documentedPath, with: Self.documentedPair)
        let rotated = URLSigner.signature(of: Self.documentedPath, with: other)
        try signer.verify(good, for: Self.documentedPath)
        try signer.verify(rotated, for: Self.documentedPath)
        for bad in ["", "unsafe", String(good.dropLast()) + "A", good + "A"] {
            #expect(throws: ServiceError.forbidden("invalid signature")) {
                try signer.verify(bad, for: Self.documentedPath)
            }
        }
        #expect(throws: ServiceError.self) { try signer.verify(good, for: Self.documentedPath + "x") }
    }

    @Test func signedPathPutsTheFirstPairsSignatureInFront() throws {
        let signer = URLSigner(keyPairs: [Self.documentedPair])
        #expect(
            signer.signedPath(Self.documentedPath) == "/oKfUtW34Dvo2BGQehJFR4Nr0_rIjOtdtzJ3QFsUcXH8"
                + Self.documentedPath)
        #expect(URLSigner().signedPath("/w:1/plain/x") == "/insecure/w:1/plain/x")
        let parsed = try ProcessingPath(signer.signedPath(Self.documentedPath))
        try signer.verify(parsed.signature, for: parsed.signedPath)
    }

    @Test func withoutKeysAnySignatureSegmentPasses() throws {
        let signer = URLSigner()
        #expect(!signer.isEnabled)
        try signer.verify("unsafe", for: "/anything")
        try signer.verify("_", for: "/anything")
    }

    @Test(arguments: [("", "ab"), ("0g", "ab"), ("abc", "ab"), ("ab", "zz")])
    func keyPairsMustBeHex(key: String, salt: String) {
        #expect(URLSigner.KeyPair(hexKey: key, hexSalt: salt) == nil)
    }
}
