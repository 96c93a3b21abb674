#if SVG
    import CRSVG
    import Dispatch
    import Foundation

    /// Runs librsvg on a thread of its own, so that the caller waits at most the time limit.
    /// A render that ends in time is joined, so its thread is gone, with what GLib and libxml2
    /// keep per thread, when the caller has its result.
    ///
    /// librsvg 2.54 can stop a parse (through a `GCancellable`, cancelled at the deadline) but not
    /// a rendering, and some documents render for minutes (a large `feMorphology` radius, an
    /// `feTurbulence` with many octaves). When the time is up the caller gets
    /// ``WebImageError/Code/badImageData`` and the thread is left to finish on its own, holding
    /// its pixels until then; it is counted as overrunning, and while a coder's overrunning
    /// renders reach its limit, that coder refuses new documents at once rather than start more.
    final class SVGWorker: Sendable {
        /// Renders started by this worker that are still running past their deadline.
        private let overrunning = Locked(0)

        /// librsvg recurses on nested groups and references; a thread's default stack may be small.
        static let stackSize = 16 << 20

        /// `body`'s result, run on a new thread with a cancellable that is cancelled when
        /// `timeLimit` has passed.
        func run<Output: Sendable>(
            timeLimit: Duration, maxOverrunning: Int,
            _ body: @escaping @Sendable (OpaquePointer?) -> Result<Output, WebImageError>
        ) throws(WebImageError) -> Output {
            let admitted = overrunning.withLock { count in count < maxOverrunning }
            guard admitted else {
                throw .badImageData(
                    "SVG rendering is refused while \(maxOverrunning) earlier renders still run past their time limit")
            }
            let job = SVGJob<Output>(body)
            let thread = try Self.start(stackSize: Self.stackSize) { [overrunning] in
                if job.run() { overrunning.withLock { $0 -= 1 } }
                job.finished.signal()
            }
            if job.finished.wait(timeout: .now() + Self.seconds(timeLimit)) == .timedOut {
                let outcome = job.state.withLock { state in
                    if state.outcome == nil {
                        state.abandoned = true
                        overrunning.withLock { $0 += 1 }
                    }
                    return state.outcome.take()
                }
                guard let outcome else {
                    job.cancellation.cancel()
                    pthread_detach(thread)
                    throw .badImageData("the SVG took longer than its time limit (\(timeLimit)) to render")
                }
                pthread_join(thread, nil)
                return try outcome.get()
            }
            // The thread has signalled and only ends now: joining it lets it free what GLib and
            // libxml2 keep per thread before this returns.
            pthread_join(thread, nil)
            guard let outcome = job.state.withLock({ $0.outcome.take() }) else {
                throw .badImageData("the SVG renderer stopped without a result")
            }
            return try outcome.get()
        }

        /// Starts a joinable thread with `stackSize` bytes of stack that runs `body`.
        private static func start(stackSize: Int, _ body: @escaping @Sendable () -> Void) throws(WebImageError)
            -> pthread_t
        {
            var attributes = pthread_attr_t()
            pthread_attr_init(&attributes)
            defer { pthread_attr_destroy(&attributes) }
            pthread_attr_setstacksize(&attributes, stackSize)
            let context = Unmanaged.passRetained(SVGThreadBody(body)).toOpaque()
            var thread = pthread_t()
            let status = pthread_create(
                &thread, &attributes,
                { context in
                    guard let context else { return nil }
                    Unmanaged<SVGThreadBody>.fromOpaque(context).takeRetainedValue().body()
                    return nil
                }, context)
            guard status == 0 else {
                Unmanaged<SVGThreadBody>.fromOpaque(context).release()
                throw .badImageData("no thread could be started to render the SVG (error \(status))")
            }
            return thread
        }

        /// `duration` in seconds for Dispatch, within 0 seconds and a year.
        static func seconds(_ duration: Duration) -> Double {
            let (seconds, attoseconds) = duration.components
            return (Double(seconds) + Double(attoseconds) / 1e18).clamped(to: 0...31_536_000)
        }
    }

    /// What a worker thread and its caller share: the work, its outcome, and whether the caller
    /// gave up. The thread lets go of the work (and the document it holds) before it signals, and
    /// the caller takes the outcome out, so that once the caller returns, a thread still ending
    /// holds nothing of the document or the image.
    private final class SVGJob<Output: Sendable>: Sendable {
        typealias Work = @Sendable (OpaquePointer?) -> Result<Output, WebImageError>

        struct State {
            var work: Work?
            var outcome: Result<Output, WebImageError>?
            var abandoned = false
        }

        let state: Locked<State>
        let finished = DispatchSemaphore(value: 0)
        let cancellation = SVGCancellation()

        init(_ work: @escaping Work) { state = Locked(State(work: work)) }

        /// Runs the work once and keeps its outcome; returns whether the caller had given up.
        func run() -> Bool {
            guard let work = state.withLock({ $0.work.take() }) else { return false }
            let outcome = work(cancellation.pointer)
            return state.withLock { state in
                if !state.abandoned { state.outcome = outcome }
                return state.abandoned
            }
        }
    }

    /// What a render thread runs, handed to it through `pthread_create`'s context pointer.
    private final class SVGThreadBody: Sendable {
        let body: @Sendable () -> Void
        init(_ body: @escaping @Sendable () -> Void) { self.body = body }
    }

    /// A `GCancellable` that stops a librsvg parse from another thread. GLib's cancellables are
    /// made to be cancelled from any thread; the object is held by its address, which is Sendable.
    final class SVGCancellation: Sendable {
        private let address: UInt

        init() { address = UInt(bitPattern: g_cancellable_new()) }

        deinit {
            if let pointer { g_object_unref(UnsafeMutableRawPointer(pointer)) }
        }

        /// The cancellable (nil only if GLib could not make one: then nothing can be cancelled).
        var pointer: OpaquePointer? { OpaquePointer(bitPattern: address) }

        func cancel() {
            if let pointer { g_cancellable_cancel(pointer) }
        }
    }
#endif
