import Foundation
import Testing

@testable import WebImage

@Suite("Download header list")
struct DownloadHeadersTests {
    @Test("Lookups ignore the case of names; values keep theirs")
    func caseInsensitive() {
        let headers: ImageDownloadHeaders = ["Content-Type": "Image/PNG"]
        #expect(headers["content-type"] == "Image/PNG")
        #expect(headers["CONTENT-TYPE"] == "Image/PNG")
        #expect(headers["Content-Typ"] == nil)
        #expect(headers.values(for: "content-TYPE") == ["Image/PNG"])
    }

    @Test("The order of fields is kept, repeated names included")
    func order() throws {
        var headers: ImageDownloadHeaders = ["B": "1", "A": "2"]
        try headers.add(name: "b", value: "3")
        try headers.add(name: "C", value: "4")
        #expect(headers.fields.map(\.name) == ["B", "A", "b", "C"])
        #expect(headers.values(for: "B") == ["1", "3"])
        #expect(headers["b"] == "1, 3")
        #expect(Array(headers).map(\.value) == ["1", "2", "3", "4"])
        #expect(headers.count == 4 && !headers.isEmpty)
    }

    @Test("Setting replaces every field of the name at the first one's place; nil removes")
    func setAndRemove() throws {
        var headers: ImageDownloadHeaders = ["X": "1", "Y": "2", "x": "3"]
        headers["X"] = "new"
        #expect(headers.fields.map(\.name) == ["X", "Y"])
        #expect(headers.fields.map(\.value) == ["new", "2"])
        headers["z"] = "last"
        #expect(headers.fields.map(\.name) == ["X", "Y", "z"])
        headers["x"] = nil
        #expect(headers.fields.map(\.name) == ["Y", "z"])
        try headers.set(name: "Y", value: nil)
        try headers.set(name: "Missing", value: nil)
        #expect(headers.fields.map(\.name) == ["z"])
    }

    @Test("Values lose surrounding spaces and tabs; inner ones and tabs stay")
    func trimming() throws {
        var headers = ImageDownloadHeaders()
        try headers.add(name: "A", value: " \t a \t b \t")
        #expect(headers["A"] == "a \t b")
    }

    @Test(
        "CR, LF and other control characters in a value are rejected with invalidArgument",
        arguments: ["a\r\nX-Injected: 1", "a\nb", "a\rb", "a\u{0}b", "a\u{7F}", "\u{1B}[31m"])
    func injectionInValue(value: String) {
        var headers: ImageDownloadHeaders = ["Keep": "1"]
        #expect(throws: WebImageError.self) { try headers.set(name: "Keep", value: value) }
        #expect(throws: WebImageError.self) { try headers.add(name: "X", value: value) }
        #expect(throws: WebImageError.self) { try ImageDownloadHeaders([("X", value)]) }
        headers["Keep"] = value
        #expect(headers == ["Keep": "1"])
    }

    @Test(
        "Names that are not HTTP tokens are rejected",
        arguments: ["", "Bad Name", "X\r\nY", "a:b", "Ümlaut", "(x)", "a\"b", "a/b", "a@b"])
    func invalidNames(name: String) {
        var headers = ImageDownloadHeaders()
        #expect(throws: WebImageError.self) { try headers.add(name: name, value: "1") }
        #expect(throws: WebImageError.self) { try headers.set(name: name, value: "1") }
        headers[name] = "1"
        #expect(headers.isEmpty)
    }

    @Test("Every token character is accepted in names")
    func tokenCharacters() throws {
        var headers = ImageDownloadHeaders()
        try headers.add(name: "Az09!#$%&'*+-.^_`|~", value: "1")
        #expect(headers["az09!#$%&'*+-.^_`|~"] == "1")
        #expect(headers["az09!#$%&'*+-.^_@|~"] == nil)
    }

    @Test("A dictionary literal drops invalid fields and keeps the rest in order")
    func literal() {
        let headers: ImageDownloadHeaders = ["A": "1", "B\n": "2", "C": "3\r\n", "D": "4"]
        #expect(headers.fields.map(\.name) == ["A", "D"])
    }

    @Test("The throwing init fails with a message naming the problem")
    func errorMessage() {
        let error = #expect(throws: WebImageError.self) {
            try ImageDownloadHeaders([("Accept", "image/*\r\nHost: evil")])
        }
        #expect(error?.code == 3003)
        #expect(error?.description.contains("Accept") == true)
        #expect(error?.description.contains("CR or LF") == true)
    }

    @Test("Equality compares names without case, values exactly, and order")
    func equality() {
        let ab: ImageDownloadHeaders = ["A": "1", "B": "2"]
        #expect(ab == ["a": "1", "b": "2"])
        #expect(ab != ["A": "1", "B": "3"])
        #expect(ab != ["B": "2", "A": "1"])
        #expect(ab != ["A": "1", "B": "2", "B": "2"])
        #expect(ImageDownloadHeaders(dictionaryLiteral: ("@", "1")) == ImageDownloadHeaders())
    }

    @Test("Merging puts the other list's names over ours, keeping the rest")
    func merging() {
        let base = ImageDownloadHeaders.defaultImageHeaders
        let merged = base.merging(["accept": "image/webp", "X-Token": "t", "x-token": "u"])
        #expect(merged["Accept"] == "image/webp")
        #expect(merged["User-Agent"] == WebImageUserAgent.default)
        #expect(merged.values(for: "X-Token") == ["t", "u"])
        #expect(merged.fields.map(\.name) == ["User-Agent", "accept", "X-Token", "x-token"])
        #expect(base.merging([:]) == base)
    }
}
