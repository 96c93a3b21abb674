#if Server
    import Crypto
    import Foundation
    import WebImage

    /// imgproxy's URL signatures: base64url, without padding, of HMAC-SHA256(key, salt ‖ path),
    /// where the path is everything after the signature segment, leading `/` included.
    ///
    /// Several key/salt pairs may be active at once (key rotation): a signature made with any of
    /// them passes. With none, signing is off and any signature segment passes.
    public struct URLSigner: Sendable {
        /// One key and the salt that goes with it.
        public struct KeyPair: Sendable, Equatable {
            public var key: [UInt8]
            public var salt: [UInt8]

            public init(key: [UInt8], salt: [UInt8]) {
                self.key = key
                self.salt = salt
            }

            /// From hex strings, as imgproxy's `IMGPROXY_KEY` and `IMGPROXY_SALT` take them; nil
            /// unless both are non-empty, even-length hex.
            public init?(hexKey: String, hexSalt: String) {
                guard let key = Self.bytes(hex: hexKey), let salt = Self.bytes(hex: hexSalt), !key.isEmpty else {
                    return nil
                }
                self.init(key: key, salt: salt)
            }

            static func bytes(hex: String) -> [UInt8]? {
                let digits = Array(hex.utf8)
                guard digits.count % 2 == 0 else { return nil }
                var bytes: [UInt8] = []
                bytes.reserveCapacity(digits.count / 2)
                for index in stride(from: 0, to: digits.count, by: 2) {
                    guard let high = digits[index].hexDigitValue, let low = digits[index + 1].hexDigitValue else {
                        return nil
                    }
                    bytes.append(high << 4 | low)
                }
                return bytes
            }
        }

        /// The pairs a signature may be made with; empty means signing is off.
        public var keyPairs: [KeyPair]

        public init(keyPairs: [KeyPair] = []) {
            self.keyPairs = keyPairs
        }

        /// Whether signatures are checked.
        public var isEnabled: Bool { !keyPairs.isEmpty }

        /// The signature of `path` under `pair`.
        public static func signature(of path: String, with pair: KeyPair) -> String {
            var hmac = HMAC<SHA256>(key: SymmetricKey(data: pair.key))
            hmac.update(data: pair.salt)
            hmac.update(data: Array(path.utf8))
            return Data(hmac.finalize()).base64URLEncodedWithoutPadding()
        }

        /// `path` (`/{options}/…`, leading `/` included) with its signature segment in front, made
        /// with the first pair; `/insecure` in front when signing is off.
        public func signedPath(_ path: String) -> String {
            guard let pair = keyPairs.first else { return "/insecure" + path }
            return "/" + Self.signature(of: path, with: pair) + path
        }

        /// Throws 403 unless signing is off or `signature` is `path`'s under one of the pairs.
        /// Each comparison takes the same time wherever the strings differ.
        public func verify(_ signature: String, for path: String) throws(ServiceError) {
            guard isEnabled else { return }
            let given = Array(signature.utf8)
            for pair in keyPairs where Self.constantTimeEqual(Array(Self.signature(of: path, with: pair).utf8), given) {
                return
            }
            throw .forbidden("invalid signature")
        }

        static func constantTimeEqual(_ a: [UInt8], _ b: [UInt8]) -> Bool {
            guard a.count == b.count else { return false }
            var difference: UInt8 = 0
            for index in a.indices { difference |= a[index] ^ b[index] }
            return difference == 0
        }
    }

    extension Data {
        /// Decodes RFC 4648 §5 base64url text, with or without `=` padding.
        init?(base64URLEncoded text: some StringProtocol) {
            var base64 = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
            while base64.hasSuffix("=") { base64.removeLast() }
            base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
            self.init(base64Encoded: base64)
        }

        /// RFC 4648 §5 base64url, without `=` padding: how signatures and base64 sources are spelled
        /// in the service's URLs.
        public func base64URLEncodedWithoutPadding() -> String {
            var text = base64EncodedString()
            while text.hasSuffix("=") { text.removeLast() }
            return text.replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
        }
    }
#endif
