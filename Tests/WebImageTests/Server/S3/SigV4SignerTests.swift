import Crypto
import Foundation
import Testing

@testable import WebImageServer

/// Signature Version 4 against AWS's published vectors: the `aws-sig-v4-test-suite` cases
/// (AKIDEXAMPLE, us-east-1, service `service`, 20150830T123600Z), the S3 documentation's
/// `GET /test.txt` with `Range`, its signing-key example, and one S3 `PUT` whose signature
/// botocore computed.
@Suite("SigV4 signer: AWS's test vectors")
struct SigV4SignerTests {
    static let suiteSigner = SigV4Signer(
        credentials: S3Credentials(
            accessKeyID: "AKIDEXAMPLE", secretAccessKey: "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY"),
        region: "us-east-1", service: "service")
    static let suiteDate = "20150830T123600Z"

    static func suiteRequest(
        _ method: String, _ path: String, query: [(String, String)] = [], headers: [(String, String)] = [],
        body: String = ""
    ) -> SigV4Request {
        SigV4Request(
            method: method, path: path, query: query.map { (name: $0.0, value: $0.1) },
            headers: [(name: "Host", value: "example.amazonaws.com")] + headers.map { (name: $0.0, value: $0.1) }
                + [(name: "X-Amz-Date", value: suiteDate)],
            payloadHash: SigV4Signer.hex(SHA256.hash(data: Data(body.utf8))))
    }

    static func signature(_ authorization: String) -> String {
        String(authorization.split(separator: "=").last ?? "")
    }

    struct Vector: Sendable, CustomTestStringConvertible {
        var name: String
        var request: @Sendable () -> SigV4Request
        var signedHeaders: String
        var signature: String
        var testDescription: String { name }
    }

    static let vectors: [Vector] = [
        Vector(
            name: "get-vanilla", request: { suiteRequest("GET", "/") }, signedHeaders: "host;x-amz-date",
            signature: "5fa00fa31553b73ebf1942676e86291e8372ff2a2260956d9b8aae1d763fbf31"),
        Vector(
            name: "get-vanilla-query-order-key-case",
            request: { suiteRequest("GET", "/", query: [("Param2", "value2"), ("Param1", "value1")]) },
            signedHeaders: "host;x-amz-date",
            signature: "b97d918cfa904a5beff61c982a1b6f458b799221646efd99d3219ec94cdf2500"),
        Vector(
            name: "get-unreserved",
            request: { suiteRequest("GET", "/-._~0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz") },
            signedHeaders: "host;x-amz-date",
            signature: "07ef7494c76fa4850883e2b006601f940f8a34d404d0cfa977f52a65bbf5f24f"),
        Vector(
            name: "post-vanilla", request: { suiteRequest("POST", "/") }, signedHeaders: "host;x-amz-date",
            signature: "5da7c1a2acd57cee7505fc6676e4e544621c30862966e37dddb68e92efbe5d6b"),
        Vector(
            name: "post-x-www-form-urlencoded",
            request: {
                suiteRequest(
                    "POST", "/", headers: [("Content-Type", "application/x-www-form-urlencoded")],
                    body: "Param1=value1")
            },
            signedHeaders: "content-type;host;x-amz-date",
            signature: "ff11897932ad3f4e8b18135d722051e5ac45fc38421b1da7b9d196a0fe09473a"),
        Vector(
            name: "get-header-value-trim",
            request: {
                suiteRequest("GET", "/", headers: [("My-Header1", " value1"), ("My-Header2", " \"a   b   c\"")])
            },
            signedHeaders: "host;my-header1;my-header2;x-amz-date",
            signature: "acc3ed3afb60bb290fc8d2dd0098b9911fcaa05412b367055dee359757a9c736"),
    ]

    @Test(arguments: vectors)
    func theTestSuiteVectorsSignAsPublished(_ vector: Vector) {
        let authorization = Self.suiteSigner.authorization(for: vector.request(), amzDate: Self.suiteDate)
        #expect(
            authorization
                == "AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/20150830/us-east-1/service/aws4_request, "
                + "SignedHeaders=\(vector.signedHeaders), Signature=\(vector.signature)")
    }

    @Test func getVanillaHasThePublishedCanonicalRequest() {
        let canonical = Self.suiteSigner.canonicalRequest(Self.suiteRequest("GET", "/")).text
        #expect(
            canonical == """
                GET
                /

                host:example.amazonaws.com
                x-amz-date:20150830T123600Z

                host;x-amz-date
                e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855
                """)
    }

    @Test func theS3DocumentationsRangedGetSignsAsPublished() {
        let signer = SigV4Signer(
            credentials: S3Credentials(
                accessKeyID: "AKIAIOSFODNN7EXAMPLE", secretAccessKey: "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"),
            region: "us-east-1", service: "s3")
        let request = SigV4Request(
            method: "GET", path: "/test.txt",
            headers: [
                ("Host", "examplebucket.s3.amazonaws.com"), ("Range", "bytes=0-9"),
                ("x-amz-content-sha256", SigV4Signer.emptyPayloadHash), ("x-amz-date", "20130524T000000Z"),
            ],
            payloadHash: SigV4Signer.emptyPayloadHash)
        let authorization = signer.authorization(for: request, amzDate: "20130524T000000Z")
        #expect(
            authorization
                == "AWS4-HMAC-SHA256 Credential=AKIAIOSFODNN7EXAMPLE/20130524/us-east-1/s3/aws4_request, "
                + "SignedHeaders=host;range;x-amz-content-sha256;x-amz-date, "
                + "Signature=f0e8bdb87c964420e857bd35b5d6ed310bd44f0170aba48dd91039c6036bdb41")
    }

    @Test func theSigningKeyIsTheDocumentedHMACChain() {
        let signer = SigV4Signer(credentials: Self.suiteSigner.credentials, region: "us-east-1", service: "iam")
        let key = signer.signingKey(day: "20120215").withUnsafeBytes { SigV4Signer.hex($0) }
        #expect(key == "f4780e2d9f65fa895f9c67b32ce1baf0b0d8a43505a000a1a9e090d414db404d")
    }

    /// Reference computed with botocore's `S3SigV4Auth` (path encoded once, session token signed).
    @Test func anS3PutWithASessionTokenAndAnEncodedKeyMatchesBotocore() {
        let signer = SigV4Signer(
            credentials: S3Credentials(
                accessKeyID: "AKIDEXAMPLE", secretAccessKey: "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY",
                sessionToken: "TOKEN/+="),
            region: "us-east-1", service: "s3")
        let hash = SigV4Signer.hex(SHA256.hash(data: Data("hello".utf8)))
        let request = SigV4Request(
            method: "PUT", path: "/bucket/results/a b+c.bin",
            headers: [
                ("Host", "127.0.0.1:9000"), ("x-amz-content-sha256", hash), ("x-amz-date", Self.suiteDate),
                ("x-amz-security-token", "TOKEN/+="),
            ],
            payloadHash: hash)
        let authorization = signer.authorization(for: request, amzDate: Self.suiteDate)
        #expect(authorization.contains("SignedHeaders=host;x-amz-content-sha256;x-amz-date;x-amz-security-token,"))
        #expect(Self.signature(authorization) == "f8df97bea8e6dab169770985320a84c51718252fbbac0b53ae13f80d995d998d")
    }

    @Test func encodingKeepsUnreservedBytesAndSlashesOnlyInPaths() {
        #expect(SigV4Signer.encode("a b+c/ü~", keepSlash: true) == "a%20b%2Bc/%C3%BC~")
        #expect(SigV4Signer.encode("a/b=c", keepSlash: false) == "a%2Fb%3Dc")
    }

    @Test func timestampsAreUTCBasicFormat() {
        let stamp = SigV4Signer.timestamp(Date(timeIntervalSince1970: 1_440_938_160))
        #expect(stamp.amzDate == "20150830T123600Z" && stamp.day == "20150830")
    }

    @Test func credentialsComeFromTheStandardVariables() {
        let full = S3Credentials(environment: [
            "AWS_ACCESS_KEY_ID": "id", "AWS_SECRET_ACCESS_KEY": "secret", "AWS_SESSION_TOKEN": "token",
        ])
        #expect(full == S3Credentials(accessKeyID: "id", secretAccessKey: "secret", sessionToken: "token"))
        #expect(S3Credentials(environment: ["AWS_ACCESS_KEY_ID": "id"]) == nil)
        #expect(S3Credentials(environment: ["AWS_ACCESS_KEY_ID": "id", "AWS_SECRET_ACCESS_KEY": ""]) == nil)
    }
}
