#if TIFF
    import CTIFF
    import CWebImageShims
    import Foundation

    /// An open in-memory TIFF (through the C shim, which keeps libtiff's messages out of standard
    /// error), over a private copy of the bytes that libtiff reads for the file's lifetime.
    ///
    /// Not thread-safe: one decode owns it.
    final class TIFFFile {
        private let bytes: UnsafeMutableRawBufferPointer
        private let reader: OpaquePointer

        /// The most pages a file may have; later ones are not counted or decoded.
        static let maxPageCount = 10_000

        /// Opens `data`; every allocation libtiff makes for it stays under `maxAllocation` bytes.
        init(data: Data, maxAllocation: Int) throws(WebImageError) {
            let copy = UnsafeMutableRawBufferPointer.allocate(byteCount: max(data.count, 1), alignment: 16)
            if !data.isEmpty { data.copyBytes(to: copy) }
            var opened: OpaquePointer?
            let message = Self.withMessageBuffer { err, errlen in
                opened = cwi_tiff_open(
                    copy.baseAddress!.assumingMemoryBound(to: UInt8.self), data.count, Int64(maxAllocation), err, errlen
                )
                return opened == nil ? -1 : 0
            }
            guard let opened else {
                copy.deallocate()
                throw .badImageData("libtiff: \(message ?? "cannot open the file")")
            }
            bytes = copy
            reader = opened
        }

        deinit {
            cwi_tiff_close(reader)
            bytes.deallocate()
        }

        /// The number of pages (at least 1 for a file that opened), at most ``maxPageCount``.
        lazy var pageCount: Int = max(1, Int(cwi_tiff_page_count(reader, Int32(Self.maxPageCount))))

        /// Page `index`'s size as stored, alpha and orientation; makes it the current page.
        func page(_ index: Int) throws(WebImageError) -> cwi_tiff_page {
            var page = cwi_tiff_page()
            let message = Self.withMessageBuffer { err, errlen in
                cwi_tiff_page_info(reader, Int32(index), &page, err, errlen)
            }
            if let message { throw .badImageData("libtiff: page \(index): \(message)") }
            return page
        }

        /// Page `index` (made current), after checking its size against `maxPixelCount`.
        private func checkedPage(_ index: Int, maxPixelCount: Int) throws(WebImageError) -> cwi_tiff_page {
            let page = try page(index)
            let width = Int(page.width)
            let height = Int(page.height)
            guard width > 0, height > 0 else {
                throw .badImageData("the TIFF page claims a size of \(width)x\(height) pixels")
            }
            if PixelSize(width: width, height: height).pixelCount > maxPixelCount {
                throw .imageTooLarge(width: width, height: height, limit: maxPixelCount)
            }
            return page
        }

        /// Page `index` as RGBA in stored row order, after checking its size against `maxPixelCount`.
        /// Float samples, which libtiff's RGBA interface refuses, are read as deep pixels and rounded.
        func pixels(ofPage index: Int, maxPixelCount: Int) throws(WebImageError) -> (ImageBitmap, cwi_tiff_page) {
            var page = try checkedPage(index, maxPixelCount: maxPixelCount)
            if let layout = deepLayout(of: page), layout.is_float != 0,
                let (deep, page) = try deepPixels(ofPage: index, maxPixelCount: maxPixelCount)
            {
                return (deep.reducedToEightBits(), page)
            }
            let width = Int(page.width)
            let height = Int(page.height)
            let bitmap = try ImageBitmap(width: width, height: height) { buffer throws(WebImageError) in
                let message = Self.withMessageBuffer { err, errlen in
                    cwi_tiff_read_rgba(reader, buffer.baseAddress, &page, err, errlen)
                }
                if let message { throw .badImageData("libtiff: page \(index): \(message)") }
            }
            return (bitmap, page)
        }

        /// Page `index` at 16 bits per channel when it stores 16-bit or float samples in a layout
        /// read row by row (``TIFFDeepRows``), else nil (its pixels are for ``pixels(ofPage:maxPixelCount:)``).
        func deepPixels(ofPage index: Int, maxPixelCount: Int) throws(WebImageError) -> (ImageBitmap16, cwi_tiff_page)?
        {
            let page = try checkedPage(index, maxPixelCount: maxPixelCount)
            guard let layout = deepLayout(of: page) else { return nil }
            let rows = TIFFDeepRows(layout, width: Int(page.width))
            let row = UnsafeMutableRawBufferPointer.allocate(byteCount: rows.rowByteCount, alignment: 16)
            defer { row.deallocate() }
            let deep = try ImageBitmap16(width: Int(page.width), height: Int(page.height)) {
                output throws(WebImageError) in
                for y in 0..<Int(page.height) {
                    let message = Self.withMessageBuffer { err, errlen in
                        cwi_tiff_read_deep_row(reader, row.baseAddress, row.count, UInt32(y), err, errlen)
                    }
                    if let message { throw .badImageData("libtiff: page \(index): \(message)") }
                    rows.convert(
                        UnsafeRawBufferPointer(row),
                        into: UnsafeMutableBufferPointer(rebasing: output[(y * rows.width * 4)...]))
                }
            }
            return (deep, page)
        }

        /// How the current page, `page`, stores more than 8 bits a sample, or nil when it does not
        /// (or not in a layout read row by row).
        private func deepLayout(of page: cwi_tiff_page) -> cwi_tiff_deep_layout? {
            var page = page
            var layout = cwi_tiff_deep_layout()
            return cwi_tiff_read_deep_layout(reader, &page, &layout) != 0 ? layout : nil
        }

        /// The ICC profile and XMP packet of the current page (the one last read), as `kinds` asks.
        func currentPageMetadata(_ kinds: ImageMetadata.Kinds) -> ImageMetadata {
            func block(xmp: Bool) -> Data? {
                var data: UnsafePointer<UInt8>?
                var count: UInt32 = 0
                guard cwi_tiff_current_block(reader, xmp ? 1 : 0, &data, &count) != 0, let data else { return nil }
                return Data(bytes: data, count: Int(count))
            }
            return ImageMetadata(
                iccProfile: kinds.contains(.iccProfile) ? block(xmp: false) : nil,
                xmp: kinds.contains(.xmp) ? block(xmp: true) : nil)
        }

        /// Runs `body` with a message buffer; returns the message when `body` returned non-zero.
        static func withMessageBuffer(_ body: (UnsafeMutablePointer<CChar>, Int) -> Int32) -> String? {
            var buffer = [CChar](repeating: 0, count: 512)
            let status = buffer.withUnsafeMutableBufferPointer { body($0.baseAddress!, $0.count) }
            guard status != 0 else { return nil }
            let bytes = buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }
            return bytes.isEmpty ? "unknown libtiff error" : String(decoding: bytes, as: UTF8.self)
        }
    }
#endif
