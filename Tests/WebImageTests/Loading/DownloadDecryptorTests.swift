import Foundation
import Testing

@testable import WebImage

@Suite("Download decryptors")
struct DownloadDecryptorTests {
    let url = URL(string: "https://example.com/a.png")!

    @Test("base64 decodes the body, skipping line breaks")
    func base64Decodes() {
        let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0x00, 0xFF]
        let encoded = Data(png).base64EncodedString()
        let decryptor: any ImageDownloadDecrypting = .base64
        #expect(decryptor.decryptedData(Data(encoded.utf8), url: url, headers: []) == Data(png))
        let wrapped = Data(png).base64EncodedString(options: [.lineLength64Characters, .endLineWithCarriageReturn])
        #expect(
            ImageDownloadBlockDecryptor.base64.decryptedData(Data((wrapped + "\r\n").utf8), url: url, headers: [])
                == Data(png))
        let lines = encoded.prefix(4) + "\n" + encoded.dropFirst(4)
        #expect(ImageDownloadBlockDecryptor.base64.decryptedData(Data(lines.utf8), url: url, headers: []) == Data(png))
    }

    @Test("base64 gives nil for bodies that are not base64", arguments: ["aGVsbG8", "a", "====", "", "\n\n"])
    func base64Rejects(body: String) {
        #expect(ImageDownloadBlockDecryptor.base64.decryptedData(Data(body.utf8), url: url, headers: []) == nil)
    }

    @Test("base64 gives nil for binary image bytes it is wrongly applied to")
    func base64OnBinary() {
        let bytes = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0x00, 0x00, 0x00, 0x0D])
        #expect(ImageDownloadBlockDecryptor.base64.decryptedData(bytes, url: url, headers: []) == nil)
    }

    @Test("A block decryptor receives the body, URL and headers, and its result is used")
    func blockDecryptor() {
        let decryptor = ImageDownloadBlockDecryptor { data, url, headers in
            guard url.host == "example.com", headers.contains(where: { $0.0 == "X-Key" && $0.1 == "7" }) else {
                return nil
            }
            return Data(data.map { $0 ^ 7 })
        }
        let body = Data([1, 2, 3].map { $0 ^ 7 })
        #expect(decryptor.decryptedData(body, url: url, headers: [("X-Key", "7")]) == Data([1, 2, 3]))
        #expect(decryptor.decryptedData(body, url: url, headers: []) == nil)
    }
}
