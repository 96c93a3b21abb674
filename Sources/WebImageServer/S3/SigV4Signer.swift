#if Server
    import Crypto
    import Foundation
    import WebImage

    /// The keys an S3 request is signed with: `AWS_ACCESS_KEY_ID`, `AWS_SECRET_ACCESS_KEY` and,
    /// for temporary credentials, `AWS_SESSION_TOKEN`.
    public struct S3Credentials: Sendable, Equatable {
        public var accessKeyID: String
        public var secretAccessKey: String
        /// Sent as `x-amz-security-token` when set.
        public var sessionToken: String?

        public init(accessKeyID: String, secretAccessKey: String, sessionToken: String? = nil) {
            self.accessKeyID = accessKeyID
            self.secretAccessKey = secretAccessKey
            self.sessionToken = sessionToken
        }

        /// The credentials in `environment`'s standard AWS variables; nil unless both the key ID
        /// and the secret are set and not empty.
        public init?(environment: [String: String]) {
            guard let id = environment["AWS_ACCESS_KEY_ID"], !id.isEmpty,
                let secret = environment["AWS_SECRET_ACCESS_KEY"], !secret.isEmpty
            else { return nil }
            let token = environment["AWS_SESSION_TOKEN"].flatMap { $0.isEmpty ? nil : $0 }
            self.init(accessKeyID: id, secretAccessKey: secret, sessionToken: token)
        }
    }

    /// One request as Signature Version 4 sees it. `path` and the query are not yet encoded: the
    /// signer encodes each path segment (keeping `/`) and each query name and value once, as S3
    /// expects.
    struct SigV4Request {
        var method: String
        var path: String
        var query: [(name: String, value: String)] = []
        /// Every header sent, `Host` included; all of them are signed.
        var headers: [(name: String, value: String)]
        /// Lowercase hex SHA-256 of the body, or `UNSIGNED-PAYLOAD`.
        var payloadHash: String
    }

    /// AWS Signature Version 4 (`AWS4-HMAC-SHA256`): canonical request, string to sign, signing key
    /// and the `Authorization` header, as in AWS's SigV4 documentation and test suite.
    struct SigV4Signer: Sendable {
        var credentials: S3Credentials
        var region: String
        var service: String

        /// SHA-256 of nothing, the payload hash of a request without a body.
        static let emptyPayloadHash = hex(SHA256.hash(data: Data()))

        /// `x-amz-date` (`20150830T123600Z`) and the credential scope's day (`20150830`) of `date`.
        static func timestamp(_ date: Date) -> (amzDate: String, day: String) {
            var calendar = Calendar(identifier: .gregorian)
            calendar.timeZone = TimeZone(identifier: "UTC") ?? calendar.timeZone
            let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
            func pad(_ value: Int?, _ width: Int) -> String {
                let text = String(value ?? 0)
                return String(repeating: "0", count: max(0, width - text.count)) + text
            }
            let day = pad(parts.year, 4) + pad(parts.month, 2) + pad(parts.day, 2)
            return (day + "T" + pad(parts.hour, 2) + pad(parts.minute, 2) + pad(parts.second, 2) + "Z", day)
        }

        /// The `Authorization` header value for `request`, whose headers must already hold
        /// `x-amz-date: amzDate` (and the token and payload-hash headers, when sent).
        func authorization(for request: SigV4Request, amzDate: String) -> String {
            let day = String(amzDate.prefix(8))
            let scope = "\(day)/\(region)/\(service)/aws4_request"
            let (canonical, signedHeaders) = canonicalRequest(request)
            let stringToSign = [
                "AWS4-HMAC-SHA256", amzDate, scope, Self.hex(SHA256.hash(data: Data(canonical.utf8))),
            ].joined(separator: "\n")
            let signature = HMAC<SHA256>.authenticationCode(for: Data(stringToSign.utf8), using: signingKey(day: day))
            return "AWS4-HMAC-SHA256 Credential=\(credentials.accessKeyID)/\(scope), "
                + "SignedHeaders=\(signedHeaders), Signature=\(Self.hex(signature))"
        }

        /// The canonical request and its signed-header list (`host;x-amz-date`).
        func canonicalRequest(_ request: SigV4Request) -> (text: String, signedHeaders: String) {
            var merged: [String: [String]] = [:]
            for (name, value) in request.headers {
                merged[name.lowercased(), default: []].append(Self.trimmed(value))
            }
            let names = merged.keys.sorted()
            let headerLines = names.map { "\($0):\(merged[$0, default: []].joined(separator: ","))\n" }.joined()
            let signedHeaders = names.joined(separator: ";")
            let pairs: [(name: String, value: String)] = request.query.map { pair in
                (Self.encode(pair.name, keepSlash: false), Self.encode(pair.value, keepSlash: false))
            }
            let sorted = pairs.sorted { left, right in
                left.name == right.name ? left.value < right.value : left.name < right.name
            }
            let query = sorted.map { $0.name + "=" + $0.value }.joined(separator: "&")
            let path = request.path.isEmpty ? "/" : Self.encode(request.path, keepSlash: true)
            let text = [request.method, path, query, headerLines, signedHeaders, request.payloadHash]
                .joined(separator: "\n")
            return (text, signedHeaders)
        }

        /// HMAC chain: secret → day → region → service → `aws4_request`.
        func signingKey(day: String) -> SymmetricKey {
            var key = SymmetricKey(data: Data(("AWS4" + credentials.secretAccessKey).utf8))
            for part in [day, region, service, "aws4_request"] {
                key = SymmetricKey(data: Data(HMAC<SHA256>.authenticationCode(for: Data(part.utf8), using: key)))
            }
            return key
        }

        /// AWS's URI encoding: every byte but `A-Z a-z 0-9 - . _ ~` (and `/` when kept) as `%XX`,
        /// hex in upper case.
        static func encode(_ text: String, keepSlash: Bool) -> String {
            var out = ""
            out.reserveCapacity(text.utf8.count)
            for byte in text.utf8 {
                switch byte {
                case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                    UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
                    UInt8(ascii: "~"):
                    out.unicodeScalars.append(Unicode.Scalar(byte))
                case UInt8(ascii: "/") where keepSlash:
                    out.append("/")
                default:
                    let digits = Array("0123456789ABCDEF")
                    out.append("%")
                    out.append(digits[Int(byte >> 4)])
                    out.append(digits[Int(byte & 0xf)])
                }
            }
            return out
        }

        /// A header value with leading and trailing space removed and inner runs of spaces made one.
        static func trimmed(_ value: String) -> String {
            value.split(separator: " ", omittingEmptySubsequences: true).joined(separator: " ")
                .trimmingCharacters(in: .whitespaces)
        }

        static func hex<D: Sequence>(_ bytes: D) -> String where D.Element == UInt8 {
            bytes.map { byte in
                let text = String(byte, radix: 16)
                return byte < 16 ? "0" + text : text
            }.joined()
        }
    }
#endif
