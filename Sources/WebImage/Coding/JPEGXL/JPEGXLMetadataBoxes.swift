#if JPEGXL
    import CJXL
    import Foundation

    /// Collects the `Exif` and `xml ` boxes of a JPEG XL container as libjxl hands them over
    /// (decompressed when stored as Brotli `brob` boxes), during the header pass. libjxl writes into
    /// the buffer between calls, so it is memory this object owns, not an array's.
    final class JPEGXLMetadataBoxes {
        /// A box that would decompress past this is left out, as the other formats' metadata is.
        static let maxBoxSize = 8 << 20

        private(set) var exif: Data?
        private(set) var xmp: Data?
        private var buffer = UnsafeMutableBufferPointer<UInt8>(start: nil, count: 0)
        private var current: String?

        deinit { buffer.deallocate() }

        /// Called on `JXL_DEC_BOX`: ends the box before, and starts collecting this one if wanted.
        func begin(_ decoder: OpaquePointer) {
            finish(decoder)
            var type: JxlBoxType = (0, 0, 0, 0)
            guard JxlDecoderGetBoxType(decoder, &type, JXL_TRUE) == JXL_DEC_SUCCESS else { return }
            let name = String(decoding: [type.0, type.1, type.2, type.3].map { UInt8(bitPattern: $0) }, as: UTF8.self)
            guard (name == "Exif" && exif == nil) || (name == "xml " && xmp == nil) else { return }
            current = name
            buffer = .allocate(capacity: 64 << 10)
            give(decoder, from: 0)
        }

        /// Called on `JXL_DEC_BOX_NEED_MORE_OUTPUT`: doubles the buffer, or drops a box past the cap.
        func grow(_ decoder: OpaquePointer) {
            let written = buffer.count - JxlDecoderReleaseBoxBuffer(decoder)
            guard current != nil, buffer.count < Self.maxBoxSize else {
                drop()
                return
            }
            let larger = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: buffer.count * 2)
            larger.baseAddress!.initialize(from: buffer.baseAddress!, count: written)
            buffer.deallocate()
            buffer = larger
            give(decoder, from: written)
        }

        /// Called on the event after a box (another box, or the end): keeps what was collected.
        func finish(_ decoder: OpaquePointer) {
            guard let name = current else { return }
            let written = buffer.count - JxlDecoderReleaseBoxBuffer(decoder)
            let contents = Data(UnsafeBufferPointer(rebasing: buffer[0..<max(0, written)]))
            drop()
            if name == "xml " {
                xmp = contents.isEmpty ? nil : contents
            } else if contents.starts(with: [0x4D, 0x4D, 0, 0x2A]) || contents.starts(with: [0x49, 0x49, 0x2A, 0]) {
                // Some writers (pillow-jxl-plugin) leave out the offset field.
                exif = contents
            } else if contents.count >= 4 {
                // A big-endian offset to the TIFF header, after the four bytes that hold it.
                let offset = contents.prefix(4).reduce(0) { $0 << 8 | Int($1) }
                if offset < contents.count - 4 { exif = Data(contents.dropFirst(4 + offset)) }
            }
        }

        private func give(_ decoder: OpaquePointer, from offset: Int) {
            if JxlDecoderSetBoxBuffer(decoder, buffer.baseAddress! + offset, buffer.count - offset) != JXL_DEC_SUCCESS {
                drop()
            }
        }

        private func drop() {
            current = nil
            buffer.deallocate()
            buffer = UnsafeMutableBufferPointer(start: nil, count: 0)
        }
    }
#endif
