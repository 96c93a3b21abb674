import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import WebImage
import WebImageServer

// `embedded-server`: a Hummingbird app of its own that mounts the image service. `GET /hello` is
// the app's own route; everything under `/images/` is imgproxy's URL API, answered by
// WebImageServer's `ImageService`. It listens on a free loopback port, prints it on one line,
// and runs until SIGTERM or SIGINT. URLs are unsigned (no key is configured) and loopback sources
// are allowed, so that the example can fetch from an origin on the same machine.
var configuration = ServiceConfiguration()
configuration.allowsLoopbackSources = true
let service = try ImageService(configuration: configuration)

let router = Router()
router.get("hello") { _, _ in
    "Hello from the app around the image service.\n"
}
router.get("images/**") { request, _ -> Response in
    let path = String(request.uri.path.dropFirst("/images".count))
    let answer = await service.respond(to: ServiceRequest(path: path, accept: request.headers[.accept]))
    var headers = HTTPFields()
    for header in answer.headers {
        if let name = HTTPField.Name(header.name) { headers.append(HTTPField(name: name, value: header.value)) }
    }
    return Response(
        status: HTTPResponse.Status(code: answer.status), headers: headers,
        body: ResponseBody(byteBuffer: ByteBuffer(bytes: answer.body)))
}

let app = Application(
    router: router,
    configuration: ApplicationConfiguration(address: .hostname("127.0.0.1", port: 0)),
    onServerRunning: { channel in
        FileHandle.standardOutput.write(Data("\(channel.localAddress?.port ?? 0)\n".utf8))
    })
try await app.runService()
await service.shutdown()
