import Foundation
import Testing
import WebImage
import WebImageTestOrigin

@testable import WebImageServer

/// How the service admits runs: a bounded line (429), a wait limit (503), and a lane for large
/// sources that leaves workers to small ones.
@Suite("Image service: admission to the workers")
struct ProcessingAdmissionTests {
    static func path(_ origin: TestOrigin, _ fixture: String, options: String = "w:4") -> String {
        let source = Data(origin.url("/fixtures/\(fixture)").absoluteString.utf8).base64URLEncodedWithoutPadding()
        return "/_/\(options)/" + source
    }

    /// Holds one worker of `service` in `lane` until `gate` opens.
    static func occupy(_ service: ImageService, lane: Int, until gate: Gate) async -> Task<Void, any Error> {
        let started = Gate()
        let task = Task {
            try await service.processing.perform(lane: lane) {
                started.open()
                await gate.wait()
            }
        }
        await started.wait()
        return task
    }

    @Test func theServiceAnswers429WhenTheLineIsFull() async throws {
        var configuration = ServiceConfiguration()
        configuration.allowsLoopbackSources = true
        configuration.workers = 1
        configuration.queueLimit = 0
        try await withImageService(configuration) { service in
            try await withOrigin { origin in
                let release = Gate()
                let busy = await Self.occupy(service, lane: 0, until: release)
                let refused = await service.respond(to: ServiceRequest(path: Self.path(origin, "png/rgba8.png")))
                #expect(refused.status == 429)
                #expect(refused.header("Cache-Control") == "no-cache")
                release.open()
                try await busy.value
                let free = await service.respond(to: ServiceRequest(path: Self.path(origin, "png/rgba8.png")))
                #expect(free.status == 200)
            }
        }
    }

    @Test func aRequestThatWaitsPastTheTimeoutGets503() async throws {
        var configuration = ServiceConfiguration()
        configuration.allowsLoopbackSources = true
        configuration.workers = 1
        configuration.queueTimeout = 0.05
        try await withImageService(configuration) { service in
            try await withOrigin { origin in
                let release = Gate()
                let busy = await Self.occupy(service, lane: 0, until: release)
                let late = await service.respond(to: ServiceRequest(path: Self.path(origin, "png/rgba8.png")))
                #expect(late.status == 503)
                release.open()
                try await busy.value
            }
        }
    }

    @Test func aLargeSourceWaitsInItsLaneWhileSmallOnesAreMade() async throws {
        var configuration = ServiceConfiguration()
        configuration.allowsLoopbackSources = true
        configuration.workers = 2
        configuration.largeSourceWorkers = 1
        // The 800×600 photo is large here; the 11×7 PNG is small.
        configuration.largeSourcePixels = 100_000
        // The large one waits as long as the small ones take, however loaded the machine.
        configuration.queueTimeout = 600
        try await withImageService(configuration) { service in
            try await withOrigin { origin in
                let release = Gate()
                let busy = await Self.occupy(service, lane: 1, until: release)
                let large = Task {
                    await service.respond(to: ServiceRequest(path: Self.path(origin, "jpeg/photo_800x600.jpg")))
                }
                #expect(await eventually { service.processing.counts == (waiting: 1, running: 1) })
                for width in 1...5 {
                    let small = await service.respond(
                        to: ServiceRequest(path: Self.path(origin, "png/rgba8.png", options: "w:\(width)")))
                    #expect(small.status == 200)
                }
                // A small request's slot is given back just after its answer, so wait for that.
                let settled = await eventually { service.processing.counts == (waiting: 1, running: 1) }
                #expect(settled, "the large one still waits: \(service.processing.counts)")
                release.open()
                try await busy.value
                #expect(await large.value.status == 200)
            }
        }
    }
}
