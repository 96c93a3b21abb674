import Foundation
import Testing
import WebImage

@_spi(Internals) @testable import WebImageServer

/// The `/info` options: imgproxy Pro's names, defaults and checks.
@Suite("Service info: options")
struct InfoOptionsTests {
    @Test func theDefaultsAreImgproxys() throws {
        let options = try InfoOptions(segments: [])
        #expect(options.size && options.format && options.dimensions && options.exif && options.iptc && options.xmp)
        #expect(!options.exifCanonicalNames && !options.colorspace && !options.alpha && options.paletteColors == 0)
        #expect(options.averageIgnoresTransparent && options.blurHash == nil && options.hashsums.isEmpty)
        #expect(!options.needsWholeSource && options.canonicalString.isEmpty)
    }

    @Test func longAndShortNamesSetTheSameFields() throws {
        let long = try InfoOptions(segments: [
            "size:0", "format:f", "dimensions:false", "colorspace:1", "bands:t", "sample_format:1", "pages_number:1",
            "alpha:1:1", "palette:16", "average:1:0", "dominant_colors:1:1", "blurhash:4:3", "thumb_hash:1",
            "perceptual_hash:1", "calc_hashsums:sha1:md5", "page:2", "cachebuster:x", "exif:1:1",
        ])
        let short = try InfoOptions(segments: [
            "s:0", "f:f", "d:false", "cs:1", "b:t", "sf:1", "pn:1", "a:1:1", "p:16", "avg:1:0", "dc:1:1", "bh:4:3",
            "th:1", "ph:1", "chs:sha1:md5", "pg:2", "cb:x", "exif:1:1",
        ])
        #expect(long == short)
        #expect(try InfoOptions(segments: ["phash:1"]) == InfoOptions(segments: ["ph:1"]))
        #expect(long.blurHash?.x == 4 && long.blurHash?.y == 3 && long.hashsums == [.sha1, .md5])
        #expect(long.needsWholeSource && long.needsPixels)
        let reparsed = try InfoOptions(segments: long.canonicalString.split(separator: "/").map(String.init))
        #expect(reparsed == long)
    }

    @Test func zeroComponentsOrColoursTurnAFieldOff() throws {
        #expect(try InfoOptions(segments: ["bh:0:3"]).blurHash == nil)
        #expect(try InfoOptions(segments: ["p:0"]).paletteColors == 0)
        #expect(try InfoOptions(segments: ["c:0:100"]).crop == nil)
        #expect(try InfoOptions(segments: ["hs:none"]).expectedHashsum == nil)
    }

    @Test(arguments: [
        "bh:10:1", "bh:1", "bh:a:b", "p:1", "p:257", "p:-2", "chs:crc32", "hs:md5:abc", "hs:sha1",
        "hs:sha256:"
            + String(
                repeating: "g", count: 64), "pg:-1", "a:1:1:1", "exif:x", "s", "frobnicate:1", "do:1", "cl:3",
        "rs:fit:10:10",
    ])
    func aBadInfoOptionIsABadRequestNamingIt(segment: String) {
        do {
            _ = try InfoOptions(segments: [segment])
            Issue.record("\(segment) was accepted")
        } catch {
            let name = String(segment.prefix { $0 != ":" })
            #expect(error.status == 400 && error.message.contains("'\(name)'"), "\(error.message)")
        }
    }

    @Test func videoAndDetectionOptionsThatAskForNothingAreAccepted() throws {
        let options = try InfoOptions(segments: ["vm:1", "do:0", "cl:0", "op:ce:0:0", "vts:2.5", "vtk:1"])
        #expect(options == InfoOptions())
    }

    @Test func infoPresetsAreExpandedAndCannotChain() throws {
        let presets = try ProcessingPresets(definitions: ["hashes=bh:4:3/th:1", "default=s:0"], forInfo: true)
        let options = try InfoOptions(segments: ["pr:hashes", "th:0"], presets: presets)
        #expect(!options.size && options.blurHash?.x == 4 && !options.thumbHash)
        #expect(throws: ServiceError.self) { try InfoOptions(segments: ["s:0", "-", "f:0"]) }
    }
}

/// imgproxy's `/info` variables, read as the flags they map to.
@Suite("Service info: settings")
struct InfoSettingsTests {
    @Test func imgproxysInfoVariablesSetTheInfoPresetsAndLimits() throws {
        let options = try ServeOptions(
            ServeSettings(
                flags: [:],
                environment: [
                    "IMGPROXY_INFO_PRESETS": "default=s:0,hashes=bh:4:3/th:1", "IMGPROXY_INFO_ONLY_PRESETS": "true",
                    "IMGPROXY_ALLOWED_INFO_OPTIONS": "size,s",
                ]))
        let configuration = options.configuration
        #expect(configuration.infoPresets.segments["hashes"] == ["bh:4:3", "th:1"])
        #expect(configuration.infoOnlyPresets == true && !configuration.onlyPresets)
        #expect(configuration.allowedInfoOptions == ["size", "s"])
        // Unset, /info follows --only-presets.
        #expect(try ServeOptions(ServeSettings(flags: [:], environment: [:])).configuration.infoOnlyPresets == nil)
    }
}
