#if Server
    import Foundation
    import WebImage

    #if canImport(Glibc)
        import Glibc
    #elseif canImport(Darwin)
        import Darwin
    #endif

    /// Keeps the service from fetching sources on addresses its users could not reach themselves
    /// (server-side request forgery): every address a source's host resolves to must be public,
    /// checked before each request the downloader sends, the first and every redirect's.
    ///
    /// Refused by default: loopback and unspecified (`--allow-loopback-sources` allows them),
    /// private, shared (CGNAT, 100.64/10), unique-local and IPv4-mapped IPv6
    /// (`--allow-private-sources`), and always link-local (cloud metadata services live there),
    /// multicast and reserved. An IPv4 address carried in an IPv6 one (mapped, compatible, NAT64,
    /// 6to4, Teredo, ISATAP) is judged as that IPv4 address.
    ///
    /// The request then connects to the address checked here (``RequestApproval/connect(to:)``),
    /// never to a second answer for the name, so DNS rebinding cannot move it elsewhere.
    struct SourceAddressGuard: Sendable {
        var allowsLoopback = false
        var allowsPrivate = false
        /// Resolves a host name to its addresses (4 or 16 bytes each): the service's
        /// ``SourceHostResolver``, which may fail with a timeout.
        var resolver: @Sendable (String) async throws(WebImageError) -> [[UInt8]]

        /// What kind of address something is, for the refusal message and the flags.
        enum Kind: String {
            case loopback, unspecified, `private`, shared
            case uniqueLocal = "unique-local"
            case mapped = "IPv4-mapped"
            case compatible = "IPv4-compatible"
            case linkLocal = "link-local"
            case multicast, reserved
            case `public`

            /// Lower is refused more: kinds no flag allows first, then those the loopback flag
            /// allows, then those the private flag allows.
            var strictness: Int {
                switch self {
                case .linkLocal, .multicast, .reserved: 0
                case .loopback, .unspecified: 1
                case .private, .shared, .uniqueLocal, .mapped, .compatible: 2
                case .public: 3
                }
            }
        }

        /// Throws ``WebImageError/Code/requestRefused`` for a URL whose host is, or resolves to, a
        /// refused address, and a transfer failure when it does not resolve (in time). Approves a
        /// name with the first address it resolved to, to connect to that one.
        func check(_ url: URL) async throws(WebImageError) -> RequestApproval {
            guard var host = url.host, !host.isEmpty else { throw .requestRefused("the source has no host") }
            if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
            let literal = Self.addressLiteral(host)
            let addresses: [[UInt8]]
            if let literal { addresses = [literal] } else { addresses = try await resolver(host) }
            guard let first = addresses.first else {
                throw .transferFailed(TransferFailure(.cannotFindHost, "\(host) does not resolve"))
            }
            for address in addresses {
                let kind = Self.kind(of: address)
                if !allows(kind) {
                    throw .requestRefused("the source's host resolves to a \(kind.rawValue) address")
                }
            }
            guard literal == nil, let pinned = Self.text(of: first) else { return .resolveAsUsual }
            return .connect(to: pinned)
        }

        /// The bytes of an IPv4 or IPv6 literal; nil for a name.
        static func addressLiteral(_ host: String) -> [UInt8]? {
            var v4 = in_addr()
            if inet_pton(AF_INET, host, &v4) == 1 { return withUnsafeBytes(of: &v4) { Array($0) } }
            var v6 = in6_addr()
            if inet_pton(AF_INET6, host, &v6) == 1 { return withUnsafeBytes(of: &v6) { Array($0) } }
            return nil
        }

        /// An address's text form (`inet_ntop`).
        static func text(of address: [UInt8]) -> String? {
            let family = address.count == 4 ? AF_INET : AF_INET6
            var buffer = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
            let written = address.withUnsafeBytes { bytes in
                inet_ntop(family, bytes.baseAddress, &buffer, socklen_t(buffer.count))
            }
            guard written != nil else { return nil }
            return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        }

        func allows(_ kind: Kind) -> Bool {
            switch kind {
            case .public: true
            case .loopback, .unspecified: allowsLoopback
            case .private, .shared, .uniqueLocal, .mapped, .compatible: allowsPrivate
            case .linkLocal, .multicast, .reserved: false
            }
        }

        /// 4 bytes (IPv4) or 16 (IPv6). An IPv6 address that carries an IPv4 address (see
        /// ``embeddedIPv4(in:)``) is judged by the strictest kind among what it carries.
        static func kind(of address: [UInt8]) -> Kind {
            if address.count == 4 { return kind(ipv4: address) }
            guard address.count == 16 else { return .reserved }
            let a = address
            if a.allSatisfy({ $0 == 0 }) { return .unspecified }
            if a[0..<15].allSatisfy({ $0 == 0 }) && a[15] == 1 { return .loopback }
            let own: Kind
            if a[0] & 0xFE == 0xFC || (a[0] == 0xFE && a[1] & 0xC0 == 0xC0) {
                own = .uniqueLocal  // fc00::/7, and the deprecated site-local fec0::/10
            } else if a[0..<4] == [0x20, 0x01, 0x0D, 0xB8] || (a[0] == 0x01 && a[1..<8].allSatisfy({ $0 == 0 })) {
                own = .reserved  // documentation 2001:db8::/32, discard-only 100::/64
            } else if a[0] == 0xFE, a[1] & 0xC0 == 0x80 {
                own = .linkLocal
            } else if a[0] == 0xFF {
                own = .multicast
            } else {
                own = .public
            }
            guard let (form, embedded) = embeddedIPv4(in: a) else { return own }
            var carried = embedded.map(kind(ipv4:)).min { $0.strictness < $1.strictness } ?? .public
            // A public IPv4 address reached through the mapped or the deprecated compatible form is
            // still a way around the IPv4 rules; the NAT64, 6to4, Teredo and ISATAP forms are routed
            // as their IPv4 address is.
            if carried == .public, form == .mapped { carried = .mapped }
            if carried == .public, form == .compatible { carried = .compatible }
            return carried.strictness < own.strictness ? carried : own
        }

        /// The ways an IPv6 address can carry an IPv4 one.
        enum EmbeddingForm: Equatable {
            /// `::ffff:a.b.c.d` (RFC 4291).
            case mapped
            /// `::a.b.c.d`, deprecated by RFC 4291 but still parsed by resolvers.
            case compatible
            /// The well-known `64:ff9b::/96` and the local-use `64:ff9b:1::/48` (RFC 6052, 8215), with
            /// the IPv4 address in the last 32 bits.
            case nat64
            /// `2002:aabb:ccdd::/48` (RFC 3056).
            case sixToFour
            /// `2001:0::/32`: the server's address, and the client's with its bits inverted
            /// (RFC 4380).
            case teredo
            /// An interface identifier `0000:5efe:a.b.c.d` or `0200:5efe:a.b.c.d` under any prefix
            /// (RFC 5214).
            case isatap
        }

        /// The IPv4 addresses a 16-byte IPv6 address carries, and how; nil when it carries none.
        static func embeddedIPv4(in a: [UInt8]) -> (EmbeddingForm, [[UInt8]])? {
            guard a.count == 16 else { return nil }
            let tail = Array(a[12..<16])
            if a[0..<10].allSatisfy({ $0 == 0 }) {
                if a[10] == 0xFF, a[11] == 0xFF { return (.mapped, [tail]) }
                if a[10] == 0, a[11] == 0 { return (.compatible, [tail]) }
            }
            // 64:ff9b::/96, and 64:ff9b:1::/48 used as NAT64 gateways are: a /96 inside it.
            if a[0..<4] == [0x00, 0x64, 0xFF, 0x9B],
                a[4..<12].allSatisfy({ $0 == 0 }) || (a[4] == 0x00 && a[5] == 0x01)
            {
                return (.nat64, [tail])
            }
            if a[0] == 0x20, a[1] == 0x02 { return (.sixToFour, [Array(a[2..<6])]) }
            if a[0] == 0x20, a[1] == 0x01, a[2] == 0x00, a[3] == 0x00 {
                return (.teredo, [Array(a[4..<8]), tail.map { $0 ^ 0xFF }])
            }
            if a[8] & 0xFD == 0x00, a[9] == 0x00, a[10] == 0x5E, a[11] == 0xFE { return (.isatap, [tail]) }
            return nil
        }

        static func kind(ipv4 a: [UInt8]) -> Kind {
            switch (a[0], a[1]) {
            case (0, _): return .unspecified
            case (127, _): return .loopback
            case (10, _), (172, 16...31), (192, 168): return .private
            case (100, 64...127): return .shared
            case (169, 254): return .linkLocal
            case (224...239, _): return .multicast
            case (240...255, _): return .reserved
            case (192, 0) where a[2] == 0: return .reserved  // IETF protocol assignments
            default: return .public
            }
        }
    }
#endif
