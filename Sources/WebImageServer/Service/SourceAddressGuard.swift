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
    /// multicast and reserved. IPv4 embedded in NAT64 and 6to4 addresses is judged as IPv4.
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
            case linkLocal = "link-local"
            case multicast, reserved
            case `public`
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
            case .private, .shared, .uniqueLocal, .mapped: allowsPrivate
            case .linkLocal, .multicast, .reserved: false
            }
        }

        /// 4 bytes (IPv4) or 16 (IPv6).
        static func kind(of address: [UInt8]) -> Kind {
            if address.count == 4 { return kind(ipv4: address) }
            guard address.count == 16 else { return .reserved }
            let a = address
            if a.allSatisfy({ $0 == 0 }) { return .unspecified }
            if a[0..<15].allSatisfy({ $0 == 0 }) && a[15] == 1 { return .loopback }
            if a[0..<10].allSatisfy({ $0 == 0 }) && a[10] == 0xFF && a[11] == 0xFF {
                // ::ffff:a.b.c.d — refused as such unless private sources are allowed; then as IPv4.
                let embedded = kind(ipv4: Array(a[12..<16]))
                return embedded == .public ? .mapped : embedded
            }
            if a[0] == 0x00, a[1] == 0x64, a[2] == 0xFF, a[3] == 0x9B, a[4..<12].allSatisfy({ $0 == 0 }) {
                return kind(ipv4: Array(a[12..<16]))  // NAT64 64:ff9b::/96
            }
            if a[0] == 0x20, a[1] == 0x02 { return kind(ipv4: Array(a[2..<6])) }  // 6to4 2002::/16
            if a[0] & 0xFE == 0xFC { return .uniqueLocal }
            if a[0] == 0xFE, a[1] & 0xC0 == 0x80 { return .linkLocal }
            if a[0] == 0xFF { return .multicast }
            return .public
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
