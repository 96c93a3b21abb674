#if ColorManagement
    import Foundation

    /// Splits per-pixel work over a large RGBA8 image into bands of rows run on the CPU threads that
    /// stand idle (``ThreadPoolExecutor/concurrentPerform(iterations:_:)``); small images, and every image
    /// when no thread is idle, stay on the calling thread.
    enum RowBands {
        /// Below this many pixels the work runs on the calling thread.
        static let parallelThreshold = 1 << 20

        /// Calls `body` with the first pixel and the pixel count of each band of `bitmap`'s rows,
        /// bands in parallel, and returns when all are done.
        static func forEach(
            _ bitmap: inout ImageBitmap, _ body: @escaping @Sendable (UnsafeMutablePointer<UInt8>, Int) -> Void
        ) {
            let width = bitmap.width
            let rows = bitmap.height
            let bands = rows * width < parallelThreshold ? 1 : min(ThreadPoolExecutor.availableParallelism, rows)
            bitmap.pixels.withUnsafeMutableBufferPointer { pixels in
                guard bands > 1 else { return body(pixels.baseAddress!, rows * width) }
                // The bands are disjoint and the buffer outlives concurrentPerform, which returns only
                // when every band is done; the address crosses threads as an integer because a
                // pointer is not Sendable.
                let address = Int(bitPattern: pixels.baseAddress!)
                ThreadPoolExecutor.concurrentPerform(iterations: bands) { band in
                    let first = rows * band / bands
                    let end = rows * (band + 1) / bands
                    let start = UnsafeMutablePointer<UInt8>(bitPattern: address)! + first * width * 4
                    body(start, (end - first) * width)
                }
            }
        }
    }
#endif
