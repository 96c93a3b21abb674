import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing
import WebImage

@_spi(Internals) @testable import WebImageServer

/// The hostile-number table (``HostileNumberServiceTests``) for imgproxy Pro's colour and detail
/// options: each value outside an argument's documented range is a 400 naming the option, each
/// inside it is processed into an image.
@Suite("Hostile numbers in colour and detail options")
struct ColourFilterHostileNumberTests {
    static func within(_ range: ClosedRange<Double>) -> @Sendable (String) -> Bool {
        { Double($0).map { range.contains($0) } ?? false }
    }

    static let brightness: @Sendable (String) -> Bool = { Int($0).map { (-255...255).contains($0) } ?? false }
    static let finite: @Sendable (String) -> Bool = { Double($0)?.isFinite ?? false }
    static let weight: @Sendable (String) -> Bool = { Double($0).map { $0 > 0 && $0 <= 1000 } ?? false }

    /// Every numeric argument: `{}` is where the hostile value goes. `w:64` keeps each result small.
    static let arguments: [(template: String, accepts: @Sendable (String) -> Bool)] = [
        ("br:{}", brightness), ("a:{}:1:1", brightness), ("co:{}", within(0...100)), ("sa:{}", within(0...100)),
        ("a:0:{}:1", within(0...100)), ("a:0:1:{}", within(0...100)),
        ("mc:{}", within(0...1)), ("dt:{}", within(0...1)), ("col:{}", within(0...1)),
        ("ush:always:{}", weight), ("ush:always:1:{}", within(0.001...1_000_000)),
        ("ba:{}:0:0:1:1", within(0...1000)), ("ba:2:{}:0:0.5:0.5", within(0...1)),
        ("ba:2:0:0:{}:0.5", within(0...1)),
        ("pbl:{}", within(0...1000)), ("pbl:2:{}", finite), ("pbl:2:0:{}", within(0...1)),
        ("gr:{}", within(0...1)), ("gr:1:000:{}", finite), ("gr:1:000:0:0:{}", within(0...1)),
        ("bga:{}/bg:fff", within(0...1)),
    ]

    @Test func everyNumericArgumentRefusesOrProcessesEveryHostileValue() async throws {
        try await HostileNumberServiceTests.withServer { client, source in
            for (template, accepts) in Self.arguments {
                for value in HostileNumberServiceTests.hostileValues {
                    let options = template.replacingOccurrences(of: "{}", with: value)
                    try await HostileNumberServiceTests.expectAnswer(
                        client, options: options, suffix: "/w:64", source: source, accepted: accepts(value))
                }
            }
        }
    }
}
