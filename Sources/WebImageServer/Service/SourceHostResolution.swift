#if Server
    import WebImage

    /// How the service resolves the host names of sources before the address check.
    ///
    /// Lookups call `getaddrinfo`, which blocks its thread and cannot be cancelled, so they run on
    /// a few threads of their own, never on Swift's cooperative pool or the global dispatch queue:
    /// a name server that hangs holds at most ``threads`` threads, and requests for other hosts
    /// keep being answered from the cache. Concurrent requests for one host share one lookup.
    ///
    /// `getaddrinfo` does not report the DNS record's time to live, so answers are kept for a time
    /// of our own: short, so that a name that moves is followed soon, and checked against the
    /// address policy again on every fetch.
    public struct SourceHostResolution: Sendable, Equatable {
        /// Seconds an answer is reused (30 by default); 0 resolves on every fetch.
        public var answerLifetime: Double = 30
        /// Seconds a name that did not resolve stays unresolved before it is looked up again (5 by
        /// default): shorter than an answer, since the failure may be the resolver's and passing.
        public var failureLifetime: Double = 5
        /// Seconds a request waits for a lookup before it fails with 504 (10 by default: one retry
        /// of glibc's default 5-second name server timeout, and under the download's own 15 s).
        /// The lookup itself runs on to its end and its answer is cached for the next request.
        public var lookupTimeout: Double = 10
        /// Threads that run lookups (2 by default): lookups wait on the network, not the cores,
        /// and a hung one holds only its thread.
        public var threads = 2
        /// Lookups that may wait for a thread (64 by default); one more fails at once with 504.
        public var queueLimit = 64
        /// Host names whose answers are kept (1024 by default), least recently used out first.
        public var cachedHosts = 1024

        public init() {}
    }
#endif
