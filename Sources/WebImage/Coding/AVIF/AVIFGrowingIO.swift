#if AVIF
    import CAVIF
    import Foundation

    /// An `avifIO` over a download that is still arriving: reads inside the bytes received so far
    /// succeed, reads past them answer `AVIF_RESULT_WAITING_ON_IO` (libavif's "try again later").
    /// The complete file is decoded by ``AVIFCoder/decode(_:options:)``, not through this reader.
    ///
    /// The bytes live in a buffer this object owns and grows, so the regions it hands out are not
    /// persistent (libavif copies what it keeps). The `avifIO` refers to this object without
    /// retaining it: whoever gives ``io`` to a decoder must destroy that decoder first.
    final class AVIFGrowingIO {
        /// The size hint while the length is unknown: libavif only uses it to reject boxes and item
        /// extents that claim to lie beyond it, and a download is not expected to outgrow 2 GiB.
        static let sizeHint: UInt64 = 1 << 31

        let io: UnsafeMutablePointer<avifIO>
        private var storage = UnsafeMutableRawBufferPointer(start: nil, count: 0)
        private(set) var count = 0

        init() {
            io = .allocate(capacity: 1)
            io.initialize(to: avifIO())
            io.pointee.read = { io, _, offset, size, out in
                guard let io, let out, let context = io.pointee.data else { return AVIF_RESULT_IO_ERROR }
                return Unmanaged<AVIFGrowingIO>.fromOpaque(context).takeUnretainedValue().read(
                    offset: offset, size: size, into: out)
            }
            io.pointee.sizeHint = Self.sizeHint
            io.pointee.persistent = AVIF_FALSE
            io.pointee.data = Unmanaged.passUnretained(self).toOpaque()
        }

        deinit {
            io.deinitialize(count: 1)
            io.deallocate()
            storage.deallocate()
        }

        /// Appends the bytes of `data` past those already held (`data` holds every byte so far).
        func append(from data: Data) {
            guard data.count > count else { return }
            if data.count > storage.count {
                let grown = UnsafeMutableRawBufferPointer.allocate(
                    byteCount: max(data.count, storage.count * 2), alignment: 16)
                if count > 0 { grown.copyMemory(from: UnsafeRawBufferPointer(rebasing: storage[..<count])) }
                storage.deallocate()
                storage = grown
            }
            data[(data.startIndex + count)...].copyBytes(to: UnsafeMutableRawBufferPointer(rebasing: storage[count...]))
            count = data.count
        }

        private func read(offset: UInt64, size: Int, into out: UnsafeMutablePointer<avifROData>) -> avifResult {
            // Bytes at or past the end may still arrive: libavif is told to ask again later.
            guard offset <= UInt64(count), size >= 0, size <= count - Int(offset) else {
                return AVIF_RESULT_WAITING_ON_IO
            }
            let start = Int(offset)
            out.pointee.data = storage.baseAddress.map { UnsafePointer($0.assumingMemoryBound(to: UInt8.self) + start) }
            out.pointee.size = size
            return AVIF_RESULT_OK
        }
    }
#endif
