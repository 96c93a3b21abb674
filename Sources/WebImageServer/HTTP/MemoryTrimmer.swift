#if Server
    import CWebImageShims
    import ServiceLifecycle
    import WebImage

    /// Hands the memory glibc's allocator holds free back to the kernel, once every `interval`
    /// (imgproxy's `IMGPROXY_FREE_MEMORY_INTERVAL`, which calls the same `malloc_trim`).
    ///
    /// A server that decodes images on several threads frees large blocks in many per-thread
    /// heaps (arenas). glibc returns a heap's free top to the kernel on its own, but not free
    /// pages in the middle of a heap: resident memory then climbs in steps towards the arenas'
    /// size however little is in use. `malloc_trim(0)` releases those pages too. It runs on the
    /// library's file threads, off the cooperative pool: it walks every arena under its lock,
    /// about a millisecond per hundred megabytes here.
    package struct MemoryTrimmer: Service {
        /// How long between trims.
        package let interval: Duration
        /// What a trim does: `malloc_trim(0)` by default.
        package let trim: @Sendable () -> Void

        package init(interval: Duration, trim: @escaping @Sendable () -> Void = MemoryTrimmer.releaseFreeMemory) {
            self.interval = interval
            self.trim = trim
        }

        /// Trims every `interval` until the service group shuts down.
        package func run() async throws {
            let trim = self.trim
            await cancelWhenGracefulShutdown {
                while !Task.isCancelled {
                    do { try await Task.sleep(for: interval) } catch { return }
                    await FileIOExecutor.shared.run { trim() }
                }
            }
        }

        /// Returns the allocator's free pages to the kernel (nothing where the C library is not glibc).
        package static func releaseFreeMemory() {
            _ = cwi_release_free_memory()
        }
    }
#endif
