#if Server
    import Foundation
    import Tracing
    import WebImage

    /// The service's spans, over swift-distributed-tracing. With no tracer (the default) every
    /// helper is one `nil` check and a direct call: tracing off costs nothing measurable.
    ///
    /// Each helper starts its span as a child of the current one (`ServiceContext.current`, a task
    /// local) unless given a parent, and makes it current for its body, so that the spans of the
    /// stages below it, and the `traceparent` sent to sources and S3, hang under it.
    package struct ServiceTracing: Sendable {
        /// Where spans go; nil traces nothing.
        package let tracer: (any Tracer)?

        package init(tracer: (any Tracer)?) {
            self.tracer = tracer
        }

        /// The current span's context when tracing, to hand to work that may run outside this task.
        package var currentContext: ServiceContext? {
            tracer == nil ? nil : ServiceContext.current
        }

        /// Runs `body` in a span named `name`.
        package func span<T, E: Error>(
            _ name: String, ofKind kind: SpanKind = .internal, parent: ServiceContext? = nil,
            _ body: () async throws(E) -> T
        ) async throws(E) -> T {
            guard let tracer else { return try await body() }
            let span = tracer.startSpan(name, context: parent ?? ServiceContext.current ?? .topLevel, ofKind: kind)
            defer { span.end() }
            let result: Result<T, E> = await ServiceContext.withValue(span.context) {
                do throws(E) {
                    return .success(try await body())
                } catch {
                    return .failure(error)
                }
            }
            if case .failure(let error) = result { Self.record(error, in: span) }
            return try result.get()
        }

        /// Runs `body`, synchronous work such as a decode, in a span named `name` under `parent`
        /// (the current span when nil).
        package func span<T, E: Error>(_ name: String, parent: ServiceContext?, _ body: () throws(E) -> T) throws(E)
            -> T
        {
            guard let tracer else { return try body() }
            let span = tracer.startSpan(name, context: parent ?? ServiceContext.current ?? .topLevel, ofKind: .internal)
            defer { span.end() }
            let result: Result<T, E> = ServiceContext.withValue(span.context) {
                do throws(E) {
                    return .success(try body())
                } catch {
                    return .failure(error)
                }
            }
            if case .failure(let error) = result { Self.record(error, in: span) }
            return try result.get()
        }

        /// Runs `body`, the answer to `request`, in a server span continuing the request's
        /// `traceparent` (a new trace without one), named after the method and the URL's shape,
        /// with the method, path and status as attributes; a 5xx answer marks it failed.
        package func serverSpan(
            for request: ServiceRequest, _ body: () async -> ServiceResponse
        ) async -> ServiceResponse {
            guard let tracer else { return await body() }
            let parent = context(traceparent: request.traceparent, tracestate: request.tracestate)
            let span = tracer.startSpan(
                "\(request.method) /{signature}/{options}/{source}", context: parent, ofKind: .server)
            defer { span.end() }
            span.attributes["http.request.method"] = request.method
            span.attributes["url.path"] = String(request.path.prefix(2048))
            let response = await ServiceContext.withValue(span.context) { await body() }
            span.attributes["http.response.status_code"] = response.status
            if response.status >= 500 { span.setStatus(SpanStatus(code: .error)) }
            return response
        }

        /// The W3C trace context headers (`traceparent`, `tracestate`) that continue the current
        /// span in a request it makes; empty when not tracing.
        package func propagationHeaders() -> [(String, String)] {
            guard let tracer, let context = ServiceContext.current else { return [] }
            var headers: [(String, String)] = []
            tracer.inject(context, into: &headers, using: HeaderListInjector())
            return headers
        }

        /// The context a request's `traceparent` and `tracestate` describe (top level without them).
        package func context(traceparent: String?, tracestate: String?) -> ServiceContext {
            var context = ServiceContext.topLevel
            guard let tracer, traceparent != nil else { return context }
            var carrier: [String: String] = [:]
            carrier["traceparent"] = traceparent
            carrier["tracestate"] = tracestate
            tracer.extract(carrier, into: &context, using: DictionaryExtractor())
            return context
        }

        private static func record(_ error: some Error, in span: any Span) {
            span.recordError(error)
            span.setStatus(SpanStatus(code: .error, message: (error as? ServiceError)?.message))
        }
    }

    /// Writes injected trace headers as name/value pairs.
    struct HeaderListInjector: Injector {
        func inject(_ value: String, forKey key: String, into carrier: inout [(String, String)]) {
            carrier.append((key, value))
        }
    }

    /// Reads trace headers from a dictionary keyed by lower-case names.
    struct DictionaryExtractor: Extractor {
        func extract(key: String, from carrier: [String: String]) -> String? {
            carrier[key.lowercased()]
        }
    }
#endif
