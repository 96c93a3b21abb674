import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing
import WebImage

@testable import WebImageServer

/// The service behind Hummingbird, in process and over a real loopback socket.
@Suite("Image service over HTTP")
struct ImageServerHTTPTests {
    static func application(_ service: ImageService) -> some ApplicationProtocol {
        ImageServer.application(service: service, host: "127.0.0.1", port: 0)
    }

    @Test func healthAnswersOK() async throws {
        try await withImageService(ServiceConfiguration()) { service in
            try await Self.application(service).test(.router) { client in
                try await client.execute(uri: "/health", method: .get) { response in
                    #expect(response.status == .ok)
                    #expect(String(buffer: response.body) == "OK")
                }
                try await client.execute(uri: "/metrics", method: .get) { response in
                    #expect(response.status == .ok)
                    #expect(response.headers[.contentType]?.hasPrefix("text/plain; version=0.0.4") == true)
                    #expect(String(buffer: response.body).contains("# TYPE webimage_requests_in_flight gauge"))
                }
                try await client.execute(uri: "/health", method: .post) { response in
                    #expect(response.status == .methodNotAllowed)
                }
            }
        }
    }

    @Test func healthAnswers503OnceDrainingAndAHomePageIsServedOnlyWhenGiven() async throws {
        try await withImageService(ServiceConfiguration()) { service in
            let page = "<!doctype html><title>gallery</title>"
            let application = ImageServer.application(service: service, host: "127.0.0.1", port: 0, homePage: page)
            try await application.test(.router) { client in
                try await client.execute(uri: "/", method: .get) { response in
                    #expect(response.status == .ok)
                    #expect(response.headers[.contentType] == "text/html; charset=utf-8")
                    #expect(String(buffer: response.body) == page)
                }
                try await client.execute(uri: "/", method: .head) { response in
                    #expect(response.headers[.contentLength] == String(page.utf8.count))
                    #expect(response.body.readableBytes == 0)
                }
                service.beginDraining()
                try await client.execute(uri: "/health", method: .get) { response in
                    #expect(response.status == .serviceUnavailable)
                    #expect(String(buffer: response.body) == "draining")
                }
            }
            // Without a home page, `/` is an image path like any other: not a valid one.
            try await Self.application(service).test(.router) { client in
                try await client.execute(uri: "/", method: .get) { response in
                    #expect(response.status == .badRequest)
                }
            }
        }
    }

    @Test func aPlainSourceURLSurvivesTheServerAndHEADSendsNoBody() async throws {
        var configuration = ServiceConfiguration()
        configuration.allowsLoopbackSources = true
        try await withImageService(configuration) { service in
            try await withOrigin { origin in
                let source = origin.url("/fixtures/png/rgba8.png").absoluteString
                let uri = "/insecure/rs:fit:8:8/plain/\(source)@webp"
                try await Self.application(service).test(.live) { client in
                    let size = try await client.execute(uri: uri, method: .get) { response in
                        #expect(response.status == .ok)
                        #expect(response.headers[.contentType] == "image/webp")
                        let image = try ImageCodersManager.shared.decode(
                            Data(buffer: response.body), options: ImageDecodeOptions())
                        #expect(max(image.width, image.height) == 8)
                        return response.body.readableBytes
                    }
                    try await client.execute(uri: uri, method: .head) { response in
                        #expect(response.status == .ok)
                        #expect(response.body.readableBytes == 0)
                        #expect(response.headers[.contentLength] == String(size))
                    }
                    try await client.execute(uri: "/insecure/nope:1/plain/\(source)", method: .get) { response in
                        #expect(response.status == .badRequest)
                        #expect(String(buffer: response.body).contains("'nope'"))
                    }
                }
            }
        }
    }
}
