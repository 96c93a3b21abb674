import Foundation
import Testing

@testable import WebImage

/// The one way a floating-point value becomes an integer (Support/Primitives.swift), the
/// guard that makes every other way a warning, and a scan of the sources for what the
/// compiler cannot see.
@Suite("Floating-point to integer conversion")
struct FloatingPointConversionTests {
    static let hostile: [Double] = [
        .nan, .infinity, -.infinity, 1e308, -1e308, 0x1p63, -0x1p63, 0, -0.0, -1.5,
    ]

    @Test func clampingSaturatesAndNeverTraps() {
        let expected: [Int] = [0, .max, .min, .max, .min, .max, .min, 0, 0, -1]
        #expect(Self.hostile.map { Int(clamping: $0) } == expected)
        #expect(Self.hostile.map { UInt8(clamping: $0) } == [0, 255, 0, 255, 0, 255, 0, 0, 0, 0])
        #expect(Self.hostile.map { Int32(clamping: Float($0)) } == [0, .max, .min, .max, .min, .max, .min, 0, 0, -1])
        // The largest Double below 2^63 is a valid Int64; 2^63 itself is not.
        #expect(Int64(clamping: 0x1.fffffffffffffp62) == 0x7FFF_FFFF_FFFF_FC00)
        #expect(UInt64(clamping: 0x1p64) == .max)
        #expect(UInt8(clamping: 254.99) == 254 && UInt8(clamping: 255.0) == 255 && UInt8(clamping: -0.99) == 0)
    }

    @Test func clampingRoundsByTheNamedRule() {
        #expect(Int(clamping: 2.5, rounding: .toNearestOrAwayFromZero) == 3)
        #expect(Int(clamping: 2.5, rounding: .toNearestOrEven) == 2)
        #expect(Int(clamping: -2.5, rounding: .down) == -3)
        #expect(Int(clamping: 2.000001, rounding: .up) == 3)
        #expect(Int(clamping: -2.9) == -2)
        #expect(UInt8(clamping: Float(254.5), rounding: .toNearestOrAwayFromZero) == 255)
    }

    /// The per-pixel channel forms read the integer part from the float's bits; every float on a
    /// 1/1024 grid over -2...258, each exponent's edges and the hostile values agree with the
    /// generic conversion (halves rounding up).
    @Test func channelConversionsAgreeWithTheGenericOneOnEveryExponent() {
        var values: [Float] = (-2048...(258 * 1024)).map { Float($0) / 1024 }
        for power in 0...8 {
            let edge = Float(1 << power)
            values += [edge, edge.nextDown, edge.nextUp, edge - 0.5, edge + 0.5]
        }
        values += Self.hostile.map { Float($0) }
        values += [.greatestFiniteMagnitude, .leastNonzeroMagnitude, Float(0.5).nextDown]
        let truncatedWrong = values.filter { UInt8(truncatingChannel: $0) != UInt8(clamping: $0) }
        let roundedWrong = values.filter { UInt8(channel: $0) != UInt8(clamping: ($0 + 0.5).rounded(.down)) }
        #expect(truncatedWrong.isEmpty && roundedWrong.isEmpty, "\(truncatedWrong.prefix(5)) \(roundedWrong.prefix(5))")
        #expect(values.count > 260_000)
        #expect(UInt8(channel: 127.5) == 128 && UInt8(channel: 254.49) == 254 && UInt8(channel: 254.5) == 255)
        #expect(UInt8(channel: -0.4) == 0 && UInt8(channel: .nan) == 0 && UInt8(channel: .infinity) == 255)
    }

    @Test func checkingThrowsANamedInvalidArgument() throws {
        for value in [Double.nan, .infinity, -.infinity, 1e308, -1e308, 0x1p63] {
            let error = #expect(throws: WebImageError.self) { try Int(checking: value, "the crop width") }
            #expect(error?.code == .invalidArgument)
            #expect(error?.message.contains("the crop width") == true)
        }
        #expect(try Int(checking: -0x1p63, "x") == .min)
        #expect(try Int(checking: -0.0, "x") == 0)
        #expect(try UInt8(checking: 255.4, rounding: .toNearestOrAwayFromZero, "x") == 255)
        #expect(throws: WebImageError.self) { try UInt8(checking: 255.5, rounding: .toNearestOrAwayFromZero, "x") }
        #expect(throws: WebImageError.self) { try UInt8(checking: -1, "x") }
    }

    @Test func durationsFromSecondsSaturate() {
        #expect(Duration(clampingSeconds: .nan) == .zero)
        #expect(Duration(clampingSeconds: 1.5) == .milliseconds(1500))
        #expect(Duration(clampingSeconds: -0.25) == .milliseconds(-250))
        #expect(Duration(clampingSeconds: .infinity) == .seconds(9_000_000_000_000_000))
        #expect(Duration(clampingSeconds: -1e308) == .seconds(-9_000_000_000_000_000))
    }

    @Test func pixelSizesAndRectsFromFloatingPointRefuseWhatIsNotAPixelCount() throws {
        #expect(try PixelSize(width: 99.5, height: 0.4) == PixelSize(width: 100, height: 0))
        #expect(try PixelSize(width: 99.5, height: 10, rounding: .down) == PixelSize(width: 99, height: 10))
        for bad in [Double.nan, .infinity, -.infinity, 1e308, -1e308, 0x1p63, -0x1p63, -1] {
            #expect(throws: WebImageError.self) { try PixelSize(width: bad, height: 1) }
            #expect(throws: WebImageError.self) { try PixelSize(width: 1, height: bad) }
            #expect(throws: WebImageError.self) { try PixelRect(x: 0, y: 0, width: bad, height: 1) }
        }
        #expect(try PixelRect(x: -3.2, y: 7.7, width: 2, height: 3) == PixelRect(x: -3, y: 8, width: 2, height: 3))
        let tooFar = #expect(throws: WebImageError.self) { try PixelRect(x: 1e308, y: 0, width: 1, height: 1) }
        #expect(tooFar?.code == .invalidArgument)
        #expect(try PixelSize(width: Double(Int32.max), height: 0).width == PixelSize.maximumSide)
        #expect(throws: WebImageError.self) { try PixelSize(width: Double(Int32.max) + 1, height: 0) }
    }

    // MARK: The guard and the scan

    static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()  // Support
        .deletingLastPathComponent()  // WebImageTests
        .deletingLastPathComponent()  // Tests
        .deletingLastPathComponent()

    static let integerTypes = ["Int", "Int8", "Int16", "Int32", "Int64", "UInt", "UInt8", "UInt16", "UInt32", "UInt64"]

    @Test func theGuardShadowsEveryTrappingConversion() throws {
        let text = try String(
            contentsOf: Self.root.appendingPathComponent("Sources/WebImage/Support/FloatingPointConversionGuard.swift"),
            encoding: .utf8)
        let blocks = text.components(separatedBy: "\nextension ").dropFirst()
        var shadowed: [String: Set<String>] = [:]
        for block in blocks {
            let type = String(block.prefix { $0 != " " })
            let lines = block.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
            for (index, line) in lines.enumerated() where line.hasPrefix("package ") {
                #expect(
                    index > 0 && lines[index - 1].hasPrefix("@available(*, deprecated"),
                    "\(type): '\(line)' is not deprecated")
                shadowed[type, default: []].insert(line)
            }
        }
        for type in Self.integerTypes {
            let declarations = shadowed[type] ?? []
            #expect(declarations.contains { $0.hasPrefix("package init(_ value: Double)") }, "\(type) from Double")
            #expect(declarations.contains { $0.hasPrefix("package init(_ value: Float)") }, "\(type) from Float")
        }
        let durations = shadowed["Duration"] ?? []
        for name in ["seconds", "milliseconds", "microseconds"] {
            #expect(durations.contains { $0.hasPrefix("package static func \(name)(_ value: Double)") }, "\(name)")
        }
        #expect(durations.contains { $0.hasPrefix("package static func * (lhs: Duration, rhs: Double)") })
    }

    /// The guard applies only where `WebImage` is imported; inside the module it always is.
    @Test func everySourceFileIsUnderTheGuard() throws {
        var unguarded: [String] = []
        for path in try Self.swiftFiles(under: "Sources") where !path.hasPrefix("Sources/WebImage/") {
            let text = try String(contentsOf: Self.root.appendingPathComponent(path), encoding: .utf8)
            let imports = text.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
            if !imports.contains(where: { $0.hasSuffix("import WebImage") }) { unguarded.append(path) }
        }
        #expect(unguarded.isEmpty, "these files do not import WebImage, so a raw Int(double) compiles silently")
    }

    /// Files allowed to convert raw, each with its reason.
    static let allowList: [String: String] = [
        "Sources/WebImage/Support/Primitives.swift":
            "the helpers themselves: bounds are checked before the standard conversion",
        "Sources/WebImage/Support/FloatingPointConversionGuard.swift":
            "the shadows, which call the helpers",
    ]

    @Test func noSourceConvertsAFloatingPointValueRaw() throws {
        var findings: [String] = []
        for directory in ["Sources", "Fuzz", "Benchmarks/Sources"] {
            for path in try Self.swiftFiles(under: directory) where Self.allowList[path] == nil {
                let text = try String(contentsOf: Self.root.appendingPathComponent(path), encoding: .utf8)
                findings += RawConversionScanner.findings(in: text).map { "\(path):\($0)" }
            }
        }
        #expect(findings.isEmpty, "raw floating-point conversions:\n\(findings.joined(separator: "\n"))")
    }

    @Test func theScannerFindsTheConversionsThatOnceTrapped() {
        let trapping = [
            "if value >= 1 { return min(Int(value * Double(full)), full) }",
            "let r = max(0, Int((((12 * variance + 1).squareRoot() - 1) / 2).rounded(.down)))",
            "x = Int32.init(v.rounded())",
            "let lanes = SIMD4<Int32>(vector, rounding: .toNearestOrEven)",
            "try await Task.sleep(for: .seconds(delay * 1.5))",
            "pixels[i] = UInt8(edge * 255.0)",
        ]
        for line in trapping { #expect(RawConversionScanner.findings(in: line) == [1], "\(line)") }
        let safe = [
            "let width = Int(clamping: value * Double(full), rounding: .up)",
            "let count = Int(text) ?? 0", "let exact = Int(exactly: d)", "let n = Int(someInt32)",
            "let b = UInt8(truncatingIfNeeded: word >> 8)", "try await Task.sleep(for: .seconds(2))",
        ]
        for line in safe { #expect(RawConversionScanner.findings(in: line).isEmpty, "\(line)") }
    }

    static func swiftFiles(under directory: String) throws -> [String] {
        let base = root.appendingPathComponent(directory).path
        guard let walker = FileManager.default.enumerator(atPath: base) else { return [] }
        return walker.compactMap { $0 as? String }.filter { $0.hasSuffix(".swift") }.map { "\(directory)/\($0)" }
            .sorted()
    }
}

/// Finds, by pattern, conversions to an integer type whose argument is visibly floating point:
/// the backstop for code the compiler guard does not see (a file without `import WebImage`,
/// SIMD vectors, durations). Returns the 1-based line numbers.
enum RawConversionScanner {
    static let conversionPattern =
        #"\b(U?Int(8|16|32|64)?(\.init)?|SIMD\d+<U?Int(8|16|32|64)?>|\.seconds|\.milliseconds|\.microseconds)\("#
    /// Labels that never trap (or take integers only).
    static let safeLabels = ["clamping", "checking", "exactly", "truncatingIfNeeded", "bitPattern", "ascii"]
    static let floatingMarkerPattern =
        #"\.rounded\b|\bDouble\(|\bFloat\(|squareRoot|\b(sqrt|pow|floor|ceil|round|trunc|exp|log2?|log10|sin|cos|atan2)\(|\d\.\d|\d[eE][-+]?\d|\.pi\b|timeInterval|rounding:"#

    static func findings(in text: String) -> [Int] {
        let conversion = try! Regex(conversionPattern)
        let floatingMarkers = try! Regex(floatingMarkerPattern)
        var lines: [Int] = []
        for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let code = line.components(separatedBy: "//").first ?? ""
            for match in code.matches(of: conversion) {
                let argument = balancedArgument(code[match.range.upperBound...])
                let label = argument.prefix { $0.isLetter || $0.isNumber || $0 == "_" }
                if argument.dropFirst(label.count).hasPrefix(":"), safeLabels.contains(String(label)) { continue }
                if argument.contains(floatingMarkers) {
                    lines.append(index + 1)
                    break
                }
            }
        }
        return lines
    }

    /// The text up to the parenthesis that closes the one just opened (or to the end of the line).
    static func balancedArgument(_ text: Substring) -> Substring {
        var depth = 1
        for index in text.indices {
            switch text[index] {
            case "(": depth += 1
            case ")":
                depth -= 1
                if depth == 0 { return text[..<index] }
            default: break
            }
        }
        return text
    }
}
