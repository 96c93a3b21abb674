#if SVG
    import Foundation
    import Testing

    @testable import WebImage

    /// Hostile SVG: each ends in a typed error, fast, before librsvg can spend unbounded time or
    /// memory on it (or abort the process, which a large convolution kernel makes librsvg 2.54 do).
    @Suite("SVG hostile input")
    struct SVGHostileInputTests {
        /// What "fast" means here: far below the coder's time limit, on a loaded machine.
        static let fast: Duration = .seconds(1)

        /// The error `body` throws and how long it took.
        static func timedError<T>(_ body: () throws(WebImageError) -> T) -> (WebImageError?, Duration) {
            let clock = ContinuousClock()
            let start = clock.now
            do {
                _ = try body()
                return (nil, clock.now - start)
            } catch {
                return (error, clock.now - start)
            }
        }

        static let billionLaughs = SVGFixtures.document(
            """
            <?xml version="1.0"?>
            <!DOCTYPE svg [
              <!ENTITY a "laugh laugh laugh laugh laugh laugh laugh laugh laugh laugh">
              <!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;">
              <!ENTITY c "&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;">
              <!ENTITY d "&c;&c;&c;&c;&c;&c;&c;&c;&c;&c;">
              <!ENTITY e "&d;&d;&d;&d;&d;&d;&d;&d;&d;&d;">
              <!ENTITY f "&e;&e;&e;&e;&e;&e;&e;&e;&e;&e;">
              <!ENTITY g "&f;&f;&f;&f;&f;&f;&f;&f;&f;&f;">
              <!ENTITY h "&g;&g;&g;&g;&g;&g;&g;&g;&g;&g;">
              <!ENTITY i "&h;&h;&h;&h;&h;&h;&h;&h;&h;&h;">
            ]>
            <svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><text>&i;</text></svg>
            """)

        @Test func aBillionLaughsIsRefusedFast() {
            let (error, elapsed) = Self.timedError { () throws(WebImageError) in
                try SVGCoder().decode(Self.billionLaughs, options: ImageDecodeOptions())
            }
            #expect(error?.code == .badImageData && elapsed < Self.fast, "\(String(describing: error)) in \(elapsed)")
            // librsvg would refuse it too (libxml2's limit on entity expansion), had it been given it.
            let loaded = Self.billionLaughs.withUnsafeBytes { bytes in
                Result { () throws(WebImageError) in try SVGHandle(bytes, cancellable: nil) }
            }
            #expect(loaded.error?.code == .badImageData)
        }

        @Test(arguments: [
            ##"<g id="a"><use href="#b"/></g><g id="b"><use href="#a"/></g><use href="#a"/>"##,
            ##"<g id="a"><use xlink:href="#a"/></g>"##,
            ##"<use id="u" href="#u"/>"##,
            ##"<defs><g id="a"><g><use href=" #b"/></g></g><g id="b"><rect id="c"/><use href="#c"/><use href="#a"/></g></defs><use href="#a"/>"##,
        ])
        func aRecursiveUseIsRefusedFast(body: String) {
            let data = SVGFixtures.svg(#"xmlns:xlink="http://www.w3.org/1999/xlink" width="10" height="10""#, body)
            let (error, elapsed) = Self.timedError { () throws(WebImageError) in
                try SVGCoder().decode(data, options: ImageDecodeOptions())
            }
            #expect(error?.code == .badImageData && elapsed < Self.fast, "\(String(describing: error)) in \(elapsed)")
            #expect(error?.message.contains("<use>") == true)
        }

        @Test func useReferencesThatMultiplyAreRefusedFast() {
            // Ten uses of a group of ten uses of …, six levels: a million rectangles from 60 uses.
            var body = #"<defs><rect id="l0" width="1" height="1"/>"#
            for level in 1...6 {
                body += "<g id=\"l\(level)\">" + String(repeating: "<use href=\"#l\(level - 1)\"/>", count: 10) + "</g>"
            }
            body += ##"</defs><use href="#l6"/>"##
            let data = SVGFixtures.svg(#"width="10" height="10""#, body)
            let (error, elapsed) = Self.timedError { () throws(WebImageError) in
                try SVGCoder().decode(data, options: ImageDecodeOptions())
            }
            #expect(error?.code == .badImageData && elapsed < Self.fast, "\(String(describing: error)) in \(elapsed)")
            // Four levels, 11,111 elements, are allowed.
            let allowed = SVGFixtures.svg(
                #"width="10" height="10""#, body.replacingOccurrences(of: "#l6\"/>", with: "#l4\"/>"))
            #expect(throws: Never.self) { try SVGCoder().imageInfo(for: allowed) }
        }

        @Test func referencesAroundManyNamedElementsAreRefusedBeforeTheyCostMemory() {
            // Each <use> is recorded once for every element with an id around it: 250 levels
            // around 4,100 uses would be a million records from 80 kB.
            let open = (0..<250).map { "<g id=\"g\($0)\">" }.joined()
            let uses = String(repeating: ##"<use href="#r"/>"##, count: 4100)
            let body =
                #"<defs><rect id="r" width="1" height="1"/></defs>"# + open + uses
                + String(repeating: "</g>", count: 250)
            let data = SVGFixtures.svg(#"width="10" height="10""#, body)
            let (error, elapsed) = Self.timedError { () throws(WebImageError) in
                try SVGCoder().imageInfo(for: data)
            }
            #expect(error?.message.contains("more <use> references than can be checked") == true)
            #expect(elapsed < Self.fast, "\(elapsed)")
        }

        @Test func aHugeViewBoxFailsOnThePixelLimitBeforeAnyPixelIsAllocated() throws {
            let data = SVGFixtures.svg(#"viewBox="0 0 100000 100000""#, #"<rect width="100000" height="100000"/>"#)
            let (error, elapsed) = Self.timedError { () throws(WebImageError) in
                try SVGCoder().decode(data, options: ImageDecodeOptions())
            }
            #expect(
                error == .imageTooLarge(width: 100_000, height: 100_000, limit: ImageDecodeOptions.defaultMaxPixelCount)
                    && elapsed < Self.fast, "\(String(describing: error)) in \(elapsed)")
            // Its size is read all the same, and a thumbnail renders.
            let info = try SVGCoder().imageInfo(for: data)
            #expect(info.width == 100_000 && info.height == 100_000)
            let thumbnail = try SVGFixtures.decode(data) { $0.thumbnailPixelSize = PixelSize(width: 64, height: 64) }
            #expect(thumbnail.bitmap.size == PixelSize(width: 64, height: 64) && thumbnail.bitmap[32, 32].a == 255)
            // A side beyond cairo's is refused even under the pixel limit.
            let wide = SVGFixtures.svg(#"width="40000" height="10""#)
            expectBadImageData { try SVGCoder().decode(wide, options: ImageDecodeOptions()) }
            // A size beyond any integer is refused too.
            expectBadImageData { try SVGCoder().imageInfo(for: SVGFixtures.svg(#"viewBox="0 0 1e300 1e300""#)) }
        }

        @Test func aDocumentAboveTheByteLimitIsRefusedUnread() {
            var limits = SVGCoder.Limits()
            limits.maxDocumentBytes = 1000
            let data = SVGFixtures.svg(#"width="10" height="10""#, String(repeating: "<g/>", count: 300))
            expectSVGError(containing: "limit is 1000") {
                try SVGCoder(limits: limits).decode(data, options: ImageDecodeOptions())
            }
            #expect(SVGCoder.Limits().maxDocumentBytes == 10 << 20)
        }

        /// About three seconds of `feMorphology` (librsvg cannot stop a rendering).
        static let slowDocument = SVGFixtures.svg(
            #"width="1000" height="1000""#,
            #"<filter id="f"><feMorphology radius="100"/></filter><rect width="1000" height="1000" filter="url(#f)"/>"#)

        @Test func aSlowRenderingEndsAtTheTimeLimitAndOverrunsAreBounded() async throws {
            var limits = SVGCoder.Limits()
            limits.timeLimit = .milliseconds(300)
            limits.maxOverrunningRenders = 1
            let coder = SVGCoder(limits: limits)
            let small = SVGFixtures.svg(#"width="4" height="4""#)
            let (error, elapsed) = Self.timedError { () throws(WebImageError) in
                try coder.decode(Self.slowDocument, options: ImageDecodeOptions())
            }
            #expect(error?.code == .badImageData && error?.message.contains("time limit") == true)
            #expect(elapsed < Self.fast, "\(elapsed)")
            // While it still runs, this coder takes no more documents; once it ends, it does.
            expectSVGError(containing: "still run past their time limit") {
                try coder.decode(small, options: ImageDecodeOptions())
            }
            let deadline = ContinuousClock.now + .seconds(60)
            var accepted = false
            while !accepted, ContinuousClock.now < deadline {
                try await Task.sleep(for: .milliseconds(100))
                accepted = (try? coder.decode(small, options: ImageDecodeOptions())) != nil
            }
            #expect(accepted)
            // Another coder was never held up.
            #expect(throws: Never.self) { try SVGCoder().decode(small, options: ImageDecodeOptions()) }
        }

        /// A kernel of `count` numbers (librsvg 2.54 panics, aborting the process, from 400).
        static func kernel(_ count: Int) -> String {
            #"<filter id="f"><feConvolveMatrix order="3" kernelMatrix=""#
                + Array(repeating: "1", count: count).joined(separator: " ")
                + #""/></filter><rect width="10" height="10" filter="url(#f)"/>"#
        }

        @Test func aConvolutionKernelLibrsvgCannotHoldIsRefused() throws {
            let data = SVGFixtures.svg(#"width="10" height="10""#, Self.kernel(441))
            expectSVGError(containing: "kernel") {
                try SVGCoder().decode(data, options: ImageDecodeOptions())
            }
            // Hidden one document deeper, in an embedded SVG image, or behind an entity.
            let inner = SVGFixtures.svg(#"width="10" height="10""#, Self.kernel(401)).base64EncodedString()
            let embedded = SVGFixtures.svg(
                #"width="10" height="10""#,
                #"<image width="10" height="10" href="data:image/svg+xml;base64,"# + inner + #""/>"#)
            expectSVGError(containing: "kernel") {
                try SVGCoder().decode(embedded, options: ImageDecodeOptions())
            }
            let numbers = Array(repeating: "1", count: 401).joined(separator: " ")
            let entity = SVGFixtures.document(
                #"<!DOCTYPE svg [<!ENTITY k ""# + numbers
                    + #"">]><svg xmlns="http://www.w3.org/2000/svg" width="10" height="10">"#
                    + #"<filter id="f"><feConvolveMatrix kernelMatrix="&k;"/></filter></svg>"#)
            expectSVGError(containing: "kernel") {
                try SVGCoder().decode(entity, options: ImageDecodeOptions())
            }
            // 399 numbers are drawn (and 400, the number that panics with order 3, is refused).
            expectSVGError(containing: "kernel") {
                try SVGCoder().decode(
                    SVGFixtures.svg(#"width="10" height="10""#, Self.kernel(400)), options: ImageDecodeOptions())
            }
            let allowed = SVGFixtures.svg(#"width="10" height="10""#, Self.kernel(399))
            #expect(throws: Never.self) { try SVGCoder().decode(allowed, options: ImageDecodeOptions()) }
        }

        @Test(arguments: [
            ("a parameter entity", #"<!DOCTYPE svg [<!ENTITY % p "<!ENTITY x 'y'>"> %p;]>"#),
            ("an entity holding markup", #"<!DOCTYPE svg [<!ENTITY x "<rect/>">]>"#),
            ("an external entity", #"<!DOCTYPE svg [<!ENTITY x SYSTEM "file:///etc/passwd">]>"#),
            ("attribute defaults", #"<!DOCTYPE svg [<!ATTLIST svg onload CDATA "alert(1)">]>"#),
            ("an encoding read differently", #"<?xml version="1.0" encoding="UTF-7"?>"#),
        ])
        func documentTypesThatCouldHideMarkupAreRefused(what: String, prolog: String) {
            let data = SVGFixtures.document(prolog + #"<svg xmlns="http://www.w3.org/2000/svg" width="4" height="4"/>"#)
            expectBadImageData(Comment(rawValue: what)) { try SVGCoder().decode(data, options: ImageDecodeOptions()) }
            expectBadImageData(Comment(rawValue: what)) { try SVGSanitizer.sanitized(data) }
        }

        @Test(arguments: [
            #"<image width="4" height="4" href="data:text/html,&lt;script&gt;alert(1)&lt;/script&gt;"/>"#,
            #"<xi:include xmlns:xi="http://www.w3.org/2001/XInclude" href="data:text/plain,hello" parse="text"/>"#,
            #"<style>@import url(data:text/css,rect{fill:red});</style>"#,
            #"<image width="4" height="4" href="data:,hello"/>"#,
            #"<image width="4" height="4" href="data:image/png;base64,!!!"/>"#,
            #"<image width="4" height="4" href="data:image/svg+xml;base64,H4sIAAAAAAAAA6tWKkktLlGyUlBKSixOVaoFAF3nGeUQAAAA"/>"#,
        ])
        func dataAddressesOtherThanImagesAreRefused(body: String) {
            let data = SVGFixtures.svg(#"width="4" height="4""#, body)
            expectBadImageData(Comment(rawValue: body)) { try SVGCoder().decode(data, options: ImageDecodeOptions()) }
        }

        @Test func brokenMarkupIsBadImageData() {
            for text in [
                "<svg width='4' height='4'><rect", "<svg width='4' height='4'><!-- never closed",
                "<svg width='4' height='4'><g></svg>",
            ] {
                expectBadImageData(Comment(rawValue: text)) {
                    try SVGCoder().decode(SVGFixtures.document(text), options: ImageDecodeOptions())
                }
            }
            expectBadImageData { try SVGCoder().decode(Data("not an svg".utf8), options: ImageDecodeOptions()) }
            expectBadImageData { try SVGCoder().decode(Data(), options: ImageDecodeOptions()) }
        }
    }
#endif
