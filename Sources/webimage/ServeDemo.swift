#if Server
    import Foundation
    import WebImage
    import WebImageServer
    import WebImageTestOrigin

    /// `webimage serve --demo`: a loopback origin serving ``ServeDemoImages`` and the gallery page
    /// (``ServeDemoGallery``) of signed URLs that show them processed.
    struct ServeDemo {
        let origin: TestOrigin
        let page: String

        /// Starts the origin on 127.0.0.1 and builds the page, its URLs signed by `signer`.
        static func start(signer: URLSigner) async throws -> ServeDemo {
            let origin = try await TestOrigin.start()
            do {
                try ServeDemoImages.register(on: origin)
            } catch {
                try? await origin.shutdown()
                throw error
            }
            let base = "http://127.0.0.1:\(origin.port)"
            return ServeDemo(origin: origin, page: ServeDemoGallery.page(origin: base, signer: signer))
        }

        /// A key and salt made for this run, so the gallery shows signed URLs when none is given.
        static func runKey() -> URLSigner {
            var generator = SystemRandomNumberGenerator()
            let key = (0..<32).map { _ in UInt8.random(in: 0...255, using: &generator) }
            let salt = (0..<16).map { _ in UInt8.random(in: 0...255, using: &generator) }
            return URLSigner(keyPairs: [URLSigner.KeyPair(key: key, salt: salt)])
        }

        func stop() async {
            try? await origin.shutdown()
        }
    }
#endif
