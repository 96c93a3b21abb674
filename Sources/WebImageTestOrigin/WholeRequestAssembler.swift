import Foundation
import NIOHTTP1
import WebImage

/// Collects one request's head and body as its parts arrive, for the fakes that answer only
/// once a request is whole (``FakeS3``, ``OTLPReceiver``).
struct WholeRequestAssembler {
    private var head: HTTPRequestHead?
    private var body = Data()

    /// Takes one part; at a request's end returns the whole request and starts over.
    mutating func received(_ part: HTTPServerRequestPart) -> (head: HTTPRequestHead, body: Data)? {
        switch part {
        case .head(let head):
            self.head = head
            body = Data()
        case .body(let buffer):
            body.append(contentsOf: buffer.readableBytesView)
        case .end:
            guard let head else { return nil }
            self.head = nil
            return (head, body)
        }
        return nil
    }
}
