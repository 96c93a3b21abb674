#if SVG
    import Foundation
    import Testing
    import WebImageTestOrigin

    @testable import WebImage

    /// librsvg reads nothing but the document: it is given no base address, so every reference
    /// to the network or the disk stays unresolved, and the drawing goes on without it.
    @Suite("SVG external references")
    struct SVGExternalReferenceTests {
        /// Every way an SVG can point outside itself, to `base` (an origin or a directory).
        static func referencesEverywhere(to base: String) -> Data {
            SVGFixtures.document(
                """
                <?xml version="1.0"?>
                <?xml-stylesheet type="text/css" href="\(base)/sheet.css"?>
                <svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink"
                     xmlns:xi="http://www.w3.org/2001/XInclude" width="40" height="10">
                  <style>@import url(\(base)/imported.css);</style>
                  <image x="0" y="0" width="10" height="10" href="\(base)/red.png"/>
                  <image x="10" y="0" width="10" height="10" xlink:href="red.png"/>
                  <use x="20" href="\(base)/shapes.svg#r"/>
                  <xi:include href="\(base)/part.svg" parse="xml"/>
                  <rect x="30" width="10" height="10" fill="url(\(base)/paint.svg#p)" filter="url(\(base)/f.svg#f)"/>
                  <feImage href="\(base)/red.png"/>
                </svg>
                """)
        }

        @Test func nothingIsFetchedFromTheNetwork() async throws {
            try await withOrigin { origin in
                let red = try ImageCodersManager.shared.encode(
                    Image(bitmap: ImageBitmap(width: 10, height: 10, fill: RGBA8(r: 255, g: 0, b: 0, a: 255))),
                    as: .png,
                    options: ImageEncodeOptions())
                for name in ["red.png", "sheet.css", "imported.css", "shapes.svg", "part.svg", "paint.svg", "f.svg"] {
                    origin.register(path: "/\(name)", body: red, contentType: "image/png")
                }
                let base = origin.url("/").absoluteString.trimmingCharacters(in: CharacterSet(charactersIn: "/"))
                let image = try SVGCoder().decode(Self.referencesEverywhere(to: base), options: ImageDecodeOptions())
                #expect(image.bitmap.size == PixelSize(width: 40, height: 10))
                #expect(origin.totalRequestCount == 0)
                #expect((0..<40).allSatisfy { image.bitmap[$0, 5].a == 0 })
            }
        }

        @Test func nothingIsReadFromTheDisk() throws {
            let directory = try makeTemporaryDirectory()
            defer { try? FileManager.default.removeItem(at: directory) }
            let red = try ImageCodersManager.shared.encode(
                Image(bitmap: ImageBitmap(width: 10, height: 10, fill: RGBA8(r: 255, g: 0, b: 0, a: 255))), as: .png,
                options: ImageEncodeOptions())
            try red.write(to: directory.appendingPathComponent("red.png"))
            let rectangle = Data(#"<rect xmlns="http://www.w3.org/2000/svg" width="40" height="10" fill="red"/>"#.utf8)
            for name in ["part.svg", "shapes.svg", "paint.svg", "f.svg"] {
                try rectangle.write(to: directory.appendingPathComponent(name))
            }
            let image = try SVGCoder().decode(
                Self.referencesEverywhere(to: "file://" + directory.path), options: ImageDecodeOptions())
            #expect((0..<40).allSatisfy { image.bitmap[$0, 5].a == 0 })
        }

        @Test func librsvgItselfResolvesNoExternalEntity() throws {
            // The decoder refuses external entities before librsvg sees them; given one directly,
            // librsvg does not read the file either.
            let directory = try makeTemporaryDirectory()
            defer { try? FileManager.default.removeItem(at: directory) }
            let part = directory.appendingPathComponent("part.xml")
            try Data(#"<rect width="10" height="10" fill="red"/>"#.utf8).write(to: part)
            let document = SVGFixtures.document(
                #"<!DOCTYPE svg [<!ENTITY part SYSTEM "file://"# + part.path
                    + #"">]><svg xmlns="http://www.w3.org/2000/svg" width="10" height="10">&part;</svg>"#)
            expectBadImageData { try SVGCoder().decode(document, options: ImageDecodeOptions()) }
            let drawn: Bool? = document.withUnsafeBytes { bytes in
                guard let handle = try? SVGHandle(bytes, cancellable: nil) else { return nil }
                var pixels = [UInt8](repeating: 0, count: 400)
                let natural = try? handle.intrinsicSize()
                guard let natural else { return nil }
                try? pixels.withUnsafeMutableBytes { buffer in
                    try handle.render(into: buffer, size: PixelSize(width: 10, height: 10), natural: natural)
                }
                return pixels.contains { $0 != 0 }
            }
            #expect(drawn != true)
        }
    }
#endif
