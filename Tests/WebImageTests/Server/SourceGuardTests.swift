import Dispatch
import Foundation
import Testing
import WebImage
import WebImageTestOrigin

@testable import WebImageServer

/// Sources on addresses users could not reach themselves are refused, and never contacted.
@Suite("Image service: the source address guard")
struct SourceGuardTests {
    static func ipv4(_ text: String) -> [UInt8] { text.split(separator: ".").map { UInt8($0)! } }

    static func ipv6(_ text: String) -> [UInt8] {
        var address = in6_addr()
        precondition(inet_pton(AF_INET6, text, &address) == 1, text)
        return withUnsafeBytes(of: &address) { Array($0) }
    }

    @Test(arguments: [
        ("127.0.0.1", "loopback"), ("127.255.0.9", "loopback"), ("0.0.0.0", "unspecified"), ("10.1.2.3", "private"),
        ("172.16.0.1", "private"), ("172.31.255.255", "private"), ("192.168.1.1", "private"),
        ("100.64.0.1", "shared"), ("100.127.255.255", "shared"), ("169.254.169.254", "link-local"),
        ("224.0.0.1", "multicast"), ("255.255.255.255", "reserved"), ("8.8.8.8", "public"),
        ("172.32.0.1", "public"), ("100.128.0.1", "public"), ("93.184.216.34", "public"),
    ])
    func ipv4AddressesAreClassified(address: String, kind: String) {
        #expect(SourceAddressGuard.kind(of: Self.ipv4(address)).rawValue == kind)
    }

    @Test(arguments: [
        ("::1", "loopback"), ("::", "unspecified"), ("fd00::1", "unique-local"), ("fe80::1", "link-local"),
        ("ff02::1", "multicast"), ("::ffff:127.0.0.1", "loopback"), ("::ffff:10.0.0.1", "private"),
        ("::ffff:8.8.8.8", "IPv4-mapped"), ("64:ff9b::7f00:1", "loopback"), ("64:ff9b::a9fe:a9fe", "link-local"),
        ("2002:c0a8:0101::1", "private"), ("2606:4700::1111", "public"),
    ])
    func ipv6AddressesAreClassifiedWithTheIPv4TheyEmbed(address: String, kind: String) {
        #expect(SourceAddressGuard.kind(of: Self.ipv6(address)).rawValue == kind)
    }

    /// Every way an IPv6 address carries an IPv4 one is judged by the IPv4 address: the mapped
    /// and compatible forms, both NAT64 prefixes, 6to4, Teredo (server, and client with its bits
    /// inverted) and ISATAP under any prefix. The IPv6 prefix's own kind still counts.
    @Test(arguments: [
        ("::127.0.0.1", "loopback"), ("::10.0.0.1", "private"), ("::a9fe:a9fe", "link-local"),
        ("::8.8.8.8", "IPv4-compatible"), ("64:ff9b::10.0.0.1", "private"), ("64:ff9b::100.64.0.1", "shared"),
        ("64:ff9b::8.8.8.8", "public"), ("64:ff9b:1::127.0.0.1", "loopback"), ("64:ff9b:1::a9fe:a9fe", "link-local"),
        ("64:ff9b:1::8.8.8.8", "public"), ("2002:7f00:1::", "loopback"), ("2002:6440:1::", "shared"),
        ("2002:808:808::1", "public"), ("2001:0:4136:e378:8000:63bf:80ff:fffe", "loopback"),
        ("2001:0:4136:e378:8000:63bf:f5ff:fffe", "private"), ("2001:0:a00:1:8000:63bf:f7f7:f7f7", "private"),
        ("2001:0:4136:e378:8000:63bf:f7f7:f7f7", "public"), ("2606:4700::5efe:127.0.0.1", "loopback"),
        ("2606:4700::200:5efe:169.254.169.254", "link-local"), ("2606:4700::5efe:8.8.8.8", "public"),
        ("fe80::5efe:8.8.8.8", "link-local"), ("fd00::5efe:127.0.0.1", "loopback"), ("fec0::1", "unique-local"),
        ("2001:db8::1", "reserved"), ("100::1", "reserved"),
    ])
    func ipv4CarriedInIPv6IsJudgedAsIPv4(address: String, kind: String) {
        #expect(SourceAddressGuard.kind(of: Self.ipv6(address)).rawValue == kind, "\(address)")
    }

    /// The service refuses a source written as such an address, and one a redirect points to,
    /// before contacting it, even with loopback sources allowed.
    @Test(arguments: [
        "[::10.0.0.1]", "[64:ff9b::a00:1]", "[64:ff9b:1::a9fe:a9fe]", "[2002:a9fe:a9fe::1]",
        "[2001:0:4136:e378:8000:63bf:f5ff:fffe]", "[2606:4700::5efe:10.0.0.1]",
    ])
    func sourcesOnIPv4InIPv6AreRefusedDirectlyAndAfterARedirect(host: String) async throws {
        var configuration = ServiceConfiguration()
        configuration.allowsLoopbackSources = true
        try await withImageService(configuration) { service in
            let direct = await Self.respond(service, "http://\(host)/x.png")
            #expect(direct.status == 403, "\(host)")
            try await withOrigin { origin in
                let source = origin.url("/hop?status=302&header=Location:http://\(host)/x.png").absoluteString
                let redirected = await Self.respond(service, source)
                #expect(redirected.status == 403, "\(host) after a redirect")
                #expect(origin.requestCount(path: "/hop") == 1)
            }
        }
    }

    @Test func theFlagsRelaxTheirKindsOnly() {
        let strict = SourceAddressGuard(resolver: { _ in [] })
        let open = SourceAddressGuard(allowsLoopback: true, allowsPrivate: true, resolver: { _ in [] })
        for kind: SourceAddressGuard.Kind in [.loopback, .unspecified, .private, .shared, .uniqueLocal, .mapped] {
            #expect(!strict.allows(kind) && open.allows(kind))
        }
        for kind: SourceAddressGuard.Kind in [.linkLocal, .multicast, .reserved] {
            #expect(!open.allows(kind))
        }
        #expect(strict.allows(.public))
    }

    static func respond(_ service: ImageService, _ source: String) async -> ServiceResponse {
        let encoded = Data(source.utf8).base64URLEncodedWithoutPadding()
        return await service.respond(to: ServiceRequest(path: "/_/w:10/" + encoded))
    }

    @Test func loopbackSourcesByAddressOrNameAreRefusedUntouchedByDefault() async throws {
        try await withImageService(ServiceConfiguration()) { service in
            try await withOrigin { origin in
                for source in [
                    origin.url("/fixtures/png/rgba8.png").absoluteString,
                    "http://localhost:\(origin.port)/fixtures/png/rgba8.png",
                    "http://[::1]:\(origin.port)/fixtures/png/rgba8.png",
                ] {
                    let response = await Self.respond(service, source)
                    #expect(response.status == 403, "\(source)")
                    #expect(String(decoding: response.body, as: UTF8.self).contains("loopback"), "\(source)")
                }
                #expect(origin.totalRequestCount == 0)
            }
        }
    }

    @Test func aRedirectToAPrivateAddressIsRefusedBeforeItIsFollowed() async throws {
        var configuration = ServiceConfiguration()
        configuration.allowsLoopbackSources = true
        try await withImageService(configuration) { service in
            try await withOrigin { origin in
                let source = origin.url("/hop?status=302&header=Location:http://10.255.0.1/x.png").absoluteString
                let response = await Self.respond(service, source)
                #expect(response.status == 403)
                #expect(String(decoding: response.body, as: UTF8.self).contains("private"))
                #expect(origin.requestCount(path: "/hop") == 1)
            }
        }
    }

    /// The resolver is injected: a real lookup of a missing name waits on the machine's DNS.
    @Test func aNameThatDoesNotResolveIsABadGateway() async throws {
        var configuration = ServiceConfiguration()
        configuration.sourceHostResolver = { _ in [] }
        try await withImageService(configuration) { service in
            let response = await Self.respond(service, "http://no-such-host.invalid/x.png")
            #expect(response.status == 502)
        }
    }

    /// The name is resolved once, by the guard: the fetch connects to the address it checked.
    /// `rebound.invalid` has no DNS answer at all, so a second lookup at connect time would
    /// fail; the source loads only because the connection goes where the check looked.
    @Test func theFetchConnectsToTheAddressTheGuardCheckedNotASecondLookup() async throws {
        let lookups = Locked([String]())
        var configuration = ServiceConfiguration()
        configuration.allowsLoopbackSources = true
        configuration.sourceHostResolver = { host in
            lookups.withLock { $0.append(host) }
            return [[127, 0, 0, 1]]
        }
        try await withImageService(configuration) { service in
            try await withOrigin { origin in
                let response = await Self.respond(
                    service, "http://rebound.invalid:\(origin.port)/fixtures/png/rgba8.png")
                #expect(response.status == 200)
                #expect(origin.requestCount(path: "/fixtures/png/rgba8.png") == 1)
                #expect(lookups.withLock { $0 } == ["rebound.invalid"])
            }
        }
    }

    @Test func aNameWhoseAnswerIsPrivateIsRefusedUntouched() async throws {
        var configuration = ServiceConfiguration()
        configuration.sourceHostResolver = { _ in [[93, 184, 216, 34], [127, 0, 0, 1]] }
        try await withImageService(configuration) { service in
            try await withOrigin { origin in
                let response = await Self.respond(service, "http://mixed.invalid:\(origin.port)/fixtures/png/rgba8.png")
                #expect(response.status == 403)
                #expect(origin.totalRequestCount == 0)
            }
        }
    }

    @Test func addressLiteralsAreNotResolvedAndNamesArePinnedToTheirFirstAnswer() async throws {
        let guarded = SourceAddressGuard(
            allowsLoopback: true, allowsPrivate: true, resolver: { _ in [[10, 0, 0, 7], [10, 0, 0, 8]] })
        #expect(try await guarded.check(URL(string: "http://127.0.0.1:9/x")!) == .resolveAsUsual)
        #expect(try await guarded.check(URL(string: "http://[::1]:9/x")!) == .resolveAsUsual)
        #expect(try await guarded.check(URL(string: "http://images.invalid/x")!) == .connect(to: "10.0.0.7"))
        let v6 = SourceAddressGuard(allowsPrivate: true, resolver: { _ in [Self.ipv6("fd00::5")] })
        #expect(try await v6.check(URL(string: "https://images.invalid/x")!) == .connect(to: "fd00::5"))
    }

    /// One host, two sources: the second fetch takes the answer the first one's lookup left.
    @Test func aSecondFetchFromAHostWithinTheAnswersLifetimeMakesNoNewLookup() async throws {
        for lifetime in [30.0, 0] {
            let lookups = Locked(0)
            var configuration = ServiceConfiguration()
            configuration.allowsLoopbackSources = true
            configuration.sourceHostResolution.answerLifetime = lifetime
            configuration.sourceHostResolver = { _ in
                lookups.withLock { $0 += 1 }
                return [[127, 0, 0, 1]]
            }
            try await withImageService(configuration) { service in
                try await withOrigin { origin in
                    for path in ["/fixtures/png/rgba8.png", "/fixtures/png/rgb8.png"] {
                        let response = await Self.respond(service, "http://cached.invalid:\(origin.port)\(path)")
                        #expect(response.status == 200, "\(path)")
                    }
                }
            }
            #expect(lookups.withLock { $0 } == (lifetime > 0 ? 1 : 2), "answers kept for \(lifetime) s")
        }
    }

    /// Only the answer is cached, never the verdict: once it expires, the new answer is checked.
    @Test func anAnswerThatChangesToAPrivateAddressIsRefusedOnceTheOldOneExpires() async throws {
        let answer = Locked<[UInt8]>([127, 0, 0, 1])
        let clock = SteppedClock()
        let resolver = SourceHostResolver(
            SourceHostResolution(), lookup: { _ in [answer.withLock { $0 }] }, now: { clock.now })
        let guarded = SourceAddressGuard(
            allowsLoopback: true, resolver: { host throws(WebImageError) in try await resolver.addresses(for: host) })
        let url = URL(string: "http://moving.invalid/x.png")!
        #expect(try await guarded.check(url) == .connect(to: "127.0.0.1"))
        answer.withLock { $0 = [10, 0, 0, 1] }
        clock.advance(by: .seconds(29))
        #expect(try await guarded.check(url) == .connect(to: "127.0.0.1"), "the old answer, still fresh")
        clock.advance(by: .seconds(2))
        let refusal = await loadError { () throws(WebImageError) in try await guarded.check(url) }
        #expect(refusal?.code == .requestRefused && refusal?.message.contains("private") == true)
        await resolver.shutdown()
    }

    /// Each fetch checks the answer it uses: with nothing cached, the changed answer is refused
    /// before the origin is contacted again.
    @Test func aServiceRefusesAHostWhoseAnswerTurnedPrivateWithoutContactingIt() async throws {
        let answer = Locked<[UInt8]>([127, 0, 0, 1])
        var configuration = ServiceConfiguration()
        configuration.allowsLoopbackSources = true
        configuration.sourceHostResolution.answerLifetime = 0
        configuration.sourceHostResolver = { _ in [answer.withLock { $0 }] }
        try await withImageService(configuration) { service in
            try await withOrigin { origin in
                let first = await Self.respond(service, "http://moving.invalid:\(origin.port)/fixtures/png/rgba8.png")
                #expect(first.status == 200)
                answer.withLock { $0 = [10, 0, 0, 1] }
                let second = await Self.respond(service, "http://moving.invalid:\(origin.port)/fixtures/png/rgb8.png")
                #expect(second.status == 403)
                #expect(origin.totalRequestCount == 1)
            }
        }
    }

    /// A name server that never answers for one host: its requests get 504 after the lookup
    /// timeout, while sources on other hosts keep loading.
    @Test func aHostWhoseLookupHangsGetsAGatewayTimeoutWhileOtherHostsLoad() async throws {
        let hung = DispatchSemaphore(value: 0)
        var configuration = ServiceConfiguration()
        configuration.allowsLoopbackSources = true
        configuration.sourceHostResolution.lookupTimeout = 2
        configuration.sourceHostResolver = { host in
            if host == "stuck.invalid" { hung.wait() }
            return [[127, 0, 0, 1]]
        }
        try await withImageService(configuration) { service in
            try await withOrigin { origin in
                let stuck = Task {
                    await Self.respond(service, "http://stuck.invalid:\(origin.port)/fixtures/png/rgba8.png")
                }
                let fine = await Self.respond(service, "http://fine.invalid:\(origin.port)/fixtures/png/rgb8.png")
                #expect(fine.status == 200)
                let timedOut = await stuck.value
                #expect(timedOut.status == 504)
                #expect(origin.requestCount(path: "/fixtures/png/rgba8.png") == 0)
            }
            hung.signal()
        }
    }
}
