#if Server
    import WebImage

    /// The decoded marks of `watermark_url` and the drawn marks of `watermark_text`, kept in memory
    /// so that repeated requests neither fetch nor draw again: at most `countLimit` of them
    /// (imgproxy's `IMGPROXY_WATERMARKS_CACHE_SIZE`, 0 keeping none) and at most `byteLimit` bytes
    /// of pixels, the least recently used leaving first. A mark larger than `byteLimit` is not kept.
    final class WatermarkCache: Sendable {
        private struct Entry {
            var mark: ImageBitmap
            var used: UInt64
            var bytes: Int
        }

        private struct State {
            var entries: [String: Entry] = [:]
            var clock: UInt64 = 0
            var bytes = 0
        }

        let countLimit: Int
        let byteLimit: Int
        private let state = Locked(State())

        init(countLimit: Int, byteLimit: Int = 128 << 20) {
            self.countLimit = max(0, countLimit)
            self.byteLimit = max(0, byteLimit)
        }

        /// How many marks are kept now.
        var count: Int { state.withLock { $0.entries.count } }

        func mark(forKey key: String) -> ImageBitmap? {
            state.withLock { state in
                guard var entry = state.entries[key] else { return nil }
                state.clock += 1
                entry.used = state.clock
                state.entries[key] = entry
                return entry.mark
            }
        }

        func store(_ mark: ImageBitmap, forKey key: String) {
            let bytes = mark.size.pixelCount.multipliedReportingOverflow(by: 4)
            guard countLimit > 0, !bytes.overflow, bytes.partialValue <= byteLimit else { return }
            state.withLock { state in
                if let old = state.entries.removeValue(forKey: key) { state.bytes -= old.bytes }
                while !state.entries.isEmpty,
                    state.entries.count >= countLimit || state.bytes + bytes.partialValue > byteLimit,
                    let oldest = state.entries.min(by: { $0.value.used < $1.value.used })
                {
                    state.bytes -= oldest.value.bytes
                    state.entries.removeValue(forKey: oldest.key)
                }
                state.clock += 1
                state.entries[key] = Entry(mark: mark, used: state.clock, bytes: bytes.partialValue)
                state.bytes += bytes.partialValue
            }
        }
    }
#endif
