#if Server
    import Foundation
    import HTTPTypes
    import Hummingbird
    import Logging
    import NIOCore
    import ServiceLifecycle
    import WebImage

    /// Builds the Hummingbird application that serves an ``ImageService``.
    public enum ImageServer {
        /// The `Server` header of every response: `webimage/<version>`.
        public static let serverName = "webimage/\(WebImageVersion.current)"

        /// An application listening on `host`:`port` (loopback by default; port 0 picks a free one).
        /// `onListening` gets the address actually bound, once the server accepts connections.
        /// Run it with ``runUntilSignalled(_:service:drainDelay:background:logger:)`` (or `runService()`, without the
        /// draining `/health`).
        /// `homePage`, when given, is the HTML served at `/`.
        public static func application(
            service: ImageService, host: String = "127.0.0.1", port: Int = 8080, logger: Logger? = nil,
            homePage: String? = nil,
            onListening: @escaping @Sendable (_ host: String, _ port: Int) async -> Void = { _, _ in }
        ) -> some ApplicationProtocol {
            Application(
                responder: ImageServerResponder(service: service, homePage: homePage),
                configuration: ApplicationConfiguration(address: .hostname(host, port: port), serverName: serverName),
                onServerRunning: { channel in
                    let address = channel.localAddress
                    await onListening(address?.ipAddress ?? host, address?.port ?? port)
                },
                logger: logger)
        }

        /// Runs `application` until SIGTERM or SIGINT, then drains: `service` is marked draining at
        /// once (`GET /health` answers 503), the server goes on serving for `drainDelay` (time for a
        /// load balancer's health check to notice), then stops accepting, finishes the requests in
        /// flight, and this returns.
        /// `background` services (the telemetry exporters) start first and stop last, after the
        /// server, so that the spans of the last requests still go out.
        public static func runUntilSignalled(
            _ application: some ApplicationProtocol, service: ImageService, drainDelay: Duration = .zero,
            background: [any Service] = [], logger: Logger
        ) async throws {
            // Graceful shutdown goes through the services last to first: the notice, then the
            // server, then the background services.
            let group = ServiceGroup(
                configuration: .init(
                    services: background + [application, DrainingNotice(service: service, delay: drainDelay)],
                    gracefulShutdownSignals: [.sigterm, .sigint],
                    logger: logger))
            try await group.run()
        }
    }

    /// Marks an ``ImageService`` as draining when graceful shutdown begins, waits `delay`, then
    /// ends, letting the shutdown go on to the server.
    struct DrainingNotice: Service {
        let service: ImageService
        let delay: Duration

        func run() async throws {
            try? await gracefulShutdown()
            service.beginDraining()
            if delay > .zero { try? await Task.sleep(for: delay) }
        }
    }
#endif
