import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing
import WebImage

@_spi(Internals) @testable import WebImageServer

/// Numbers from a URL reach arithmetic only once they are checked: each one outside its stated
/// range is a 400 naming the option, each inside it (however large) is processed, and no
/// request can end the process.
@Suite("Hostile numbers in processing options")
struct HostileNumberServiceTests {
    /// The table every numeric argument gets.
    static let hostileValues = [
        "nan", "inf", "-inf", "1e308", "-1e308", "9223372036854775808", "-9223372036854775808", "0", "-0", "-1",
    ]

    /// What an argument accepts, as documented on ``ProcessingOptions`` and in the README.
    enum Domain {
        case wholeNumber(atLeast: Int)
        case anyWholeNumber
        case quality
        case rightAngle
        case channel
        case number(ClosedRange<Double>)
        case positiveNumber

        func accepts(_ text: String) -> Bool {
            switch self {
            case .wholeNumber(let minimum): Int(text).map { $0 >= minimum } ?? false
            case .anyWholeNumber: Int(text) != nil
            case .quality: Int(text).map { (0...100).contains($0) } ?? false
            case .rightAngle: Int(text).map { $0 % 90 == 0 } ?? false
            case .channel: UInt8(text) != nil
            case .number(let range): Double(text).map { range.contains($0) } ?? false
            case .positiveNumber: Double(text).map { $0.isFinite && $0 > 0 } ?? false
            }
        }
    }

    static let finite = Domain.number(-Double.greatestFiniteMagnitude...Double.greatestFiniteMagnitude)
    static let finiteAtLeastZero = Domain.number(0...Double.greatestFiniteMagnitude)

    /// Every numeric argument of every option: `{}` is where the hostile value goes.
    static let arguments: [(template: String, domain: Domain)] = [
        ("w:{}", .wholeNumber(atLeast: 0)), ("h:{}", .wholeNumber(atLeast: 0)),
        ("rs:fit:{}:8", .wholeNumber(atLeast: 0)), ("rs:fill:8:{}", .wholeNumber(atLeast: 0)),
        ("s:{}:8", .wholeNumber(atLeast: 0)), ("s:8:{}", .wholeNumber(atLeast: 0)),
        ("dpr:{}/w:4", .positiveNumber),
        ("c:{}:4", finiteAtLeastZero), ("c:4:{}", finiteAtLeastZero),
        ("c:4:4:nowe:{}:0", finite), ("c:4:4:nowe:0:{}", finite),
        ("g:soea:{}:0/rs:fill:4:4", finite), ("g:soea:0:{}/rs:fill:4:4", finite),
        ("g:fp:{}:0.5/rs:fill:4:4", .number(0...1)), ("g:fp:0.5:{}/rs:fill:4:4", .number(0...1)),
        ("ex:1:ce:{}:0/rs:fit:20:20", finite), ("ex:1:ce:0:{}/rs:fit:20:20", finite),
        ("q:{}/f:jpg", .quality), ("mb:{}/f:jpg", .wholeNumber(atLeast: 0)),
        ("bg:{}:0:0", .channel), ("bg:0:{}:0", .channel), ("bg:0:0:{}", .channel),
        ("bl:{}", .number(0...1000)), ("sh:{}", .number(0...1000)),
        ("rot:{}", .rightAngle), ("exp:{}", .anyWholeNumber), ("wirc:{}", finiteAtLeastZero),
    ]

    static func withServer(
        _ body: @Sendable (TestClientProtocol, _ source: String) async throws -> Void
    ) async throws {
        var configuration = ServiceConfiguration()
        configuration.allowsLoopbackSources = true
        try await withServingImageService(configuration) { _, client, origin in
            try await body(client, origin.url("/fixtures/jpeg/photo_800x600.jpg").absoluteString)
            try await client.execute(uri: "/health", method: .get) { response in
                #expect(response.status == .ok, "the server still answers after the table")
            }
        }
    }

    /// Asks for `/unsafe/<options><suffix>/plain/<source>` and checks the answer: an image that
    /// decodes when the value is `accepted`, else a 400 whose message names the option.
    static func expectAnswer(
        _ client: any TestClientProtocol, options: String, suffix: String = "", source: String, accepted: Bool
    ) async throws {
        try await client.execute(uri: "/unsafe/\(options)\(suffix)/plain/\(source)", method: .get) { response in
            #expect(response.status == (accepted ? .ok : .badRequest), "\(options)")
            if accepted {
                #expect(throws: Never.self, "\(options)") {
                    try ImageCodersManager.shared.decode(Data(buffer: response.body), options: .init())
                }
            } else {
                let name = String(options.prefix { $0 != ":" })
                #expect(String(buffer: response.body).contains("'\(name)'"), "\(options) names the option")
            }
        }
    }

    @Test func everyNumericArgumentRefusesOrProcessesEveryHostileValue() async throws {
        try await Self.withServer { client, source in
            for (template, domain) in Self.arguments {
                for value in Self.hostileValues {
                    let options = template.replacingOccurrences(of: "{}", with: value)
                    let accepted = domain.accepts(value)
                    try await Self.expectAnswer(client, options: options, source: source, accepted: accepted)
                }
            }
        }
    }

    /// The single requests that once ended the process, each with its outcome: a 400, or the
    /// documented clamp (a crop larger than the image is the whole side; an offset beyond the
    /// image puts the region against the far edge).
    @Test(
        arguments: [
            ("bl:1e308", nil), ("sh:1e308", nil), ("c:1e308:1e308", PixelSize(width: 800, height: 600)),
            ("c:0.5:0.5:ce:1e308:1e308", PixelSize(width: 400, height: 300)),
            ("g:ce:1e308:1e308/rs:fill:100:100", PixelSize(width: 100, height: 100)),
            ("ex:1:ce:1e308:1e308/rs:fit:2000:2000", PixelSize(width: 2000, height: 2000)),
            ("dpr:2/c:0.5:66666666666666666666666666666666660.5", PixelSize(width: 400, height: 600)),
        ] as [(String, PixelSize?)])
    func aRequestThatOnceTrappedIsAnsweredAndTheServerLives(options: String, size: PixelSize?) async throws {
        try await Self.withServer { client, source in
            try await client.execute(uri: "/unsafe/\(options)/plain/\(source)", method: .get) { response in
                guard let size else {
                    #expect(response.status == .badRequest)
                    let name = String(options.prefix { $0 != ":" })
                    #expect(String(buffer: response.body).contains("'\(name)'"))
                    return
                }
                #expect(response.status == .ok)
                let image = try ImageCodersManager.shared.decode(Data(buffer: response.body), options: .init())
                #expect(image.bitmap.size == size)
            }
        }
    }

    /// Where the offset pushes the crop: at the far edge, the crop of the far corner.
    @Test func aHugeGravityOffsetPutsTheCropAgainstTheFarEdge() async throws {
        let source = try ImageCodersManager.shared.decode(
            Fixtures.data("jpeg/photo_800x600.jpg"), options: .init())
        var options = ProcessingOptions()
        options.crop = .init(width: 100, height: 50, gravity: .anchored(.center, x: 1e308, y: -1e308))
        let plan = try ProcessingPlan(source: source.bitmap.size, options: options)
        let result = try ImageProcessor(options: options, plan: plan).transformedImage(source, forKey: "")
        let corner = try source.bitmap.cropped(to: PixelRect(x: 700, y: 0, width: 100, height: 50))
        #expect(result.bitmap == corner)
    }
}
