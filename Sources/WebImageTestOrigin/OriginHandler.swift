import NIOCore
import NIOHTTP1
import NIOPosix
import WebImage

/// Answers the requests of one connection, one at a time (`HTTPServerPipelineHandler`, ahead of it
/// in the pipeline, holds back pipelined requests until the previous response has ended).
final class OriginHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    let core: OriginCore
    private var request: OriginRequest?
    /// Whether the current request is counted in flight; cleared once when its response ends or
    /// the connection closes, whichever comes first.
    var isInFlight = false
    var isActive = true
    /// The next delayed step (delay, drip); cancelled when the connection closes.
    var pending: Scheduled<Void>?

    init(core: OriginCore) {
        self.core = core
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let head):
            let request = OriginRequest(head: head)
            core.requestArrived(head, path: request.path)
            isInFlight = true
            self.request = request
        case .body:
            break
        case .end:
            guard let request else { return }
            self.request = nil
            respond(to: request, context: context)
        }
    }

    func channelInactive(context: ChannelHandlerContext) {
        isActive = false
        pending?.cancel()
        pending = nil
        finishInFlight()
        context.fireChannelInactive()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        context.close(promise: nil)
    }

    func finishInFlight() {
        guard isInFlight else { return }
        isInFlight = false
        core.requestFinished()
    }

    private func respond(to request: OriginRequest, context: ChannelHandlerContext) {
        let faults: FaultOptions
        do {
            faults = try FaultOptions(request)
        } catch {
            transmit(.text(.badRequest, error.description), faults: FaultOptions(), request: request, context: context)
            return
        }
        if faults.isPlain, request.keepAlive, request.head.version == .http1_1,
            let registered = core.registered(path: request.path)
        {
            serveFast(registered, request: request, context: context)
            return
        }
        let planner = ResponsePlanner(
            core: core, request: request, faults: faults, port: context.channel.localAddress?.port ?? 0)
        if let early = planner.preflight() {
            transmit(early, faults: faults, request: request, context: context)
            return
        }
        let resolution: Resolution
        do {
            resolution = try OriginRoutes(core: core).resolve(request)
        } catch {
            transmit(
                planner.decorated(.text(.badRequest, error.description)), faults: faults, request: request,
                context: context)
            return
        }
        let finish = { (result: Result<Resource?, any Error>) in
            let response: OriginResponse
            do {
                response = try planner.response(for: result.get())
            } catch {
                response = planner.decorated(.text(.internalServerError, "origin failed: \(error)"))
            }
            self.transmit(response, faults: faults, request: request, context: context)
        }
        switch resolution {
        case .ready(let resource):
            finish(.success(resource))
        case .deferred(let work):
            NIOThreadPool.singleton.runIfActive(eventLoop: context.eventLoop, work).assumeIsolated().whenComplete {
                result in
                guard self.isActive else { return }
                finish(result)
            }
        }
    }

    /// The benchmark's path: a registered body, no faults, a keep-alive HTTP/1.1 request. The head is
    /// prebuilt and the body buffer is shared, not copied.
    private func serveFast(_ registered: RegisteredResource, request: OriginRequest, context: ChannelHandlerContext) {
        let head = HTTPResponseHead(version: .http1_1, status: .ok, headers: registered.headers)
        context.write(wrapOutboundOut(.head(head)), promise: nil)
        if !request.isHead {
            context.write(wrapOutboundOut(.body(.byteBuffer(registered.resource.body))), promise: nil)
        }
        finishInFlight()
        context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
    }
}
