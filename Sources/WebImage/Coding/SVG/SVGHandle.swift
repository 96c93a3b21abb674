#if SVG
    import CRSVG

    /// A document loaded by librsvg, on the thread that made it (an `RsvgHandle` is not shared).
    ///
    /// It is loaded from memory with no base file: librsvg then resolves no address but `data:`
    /// ones, so nothing is read from the network or the disk. Its safety limits stay on (no
    /// `RSVG_HANDLE_FLAG_UNLIMITED`): libxml2's limits on entity expansion and nesting, and
    /// librsvg's on the number of elements and of references followed while rendering.
    final class SVGHandle {
        private let handle: OpaquePointer

        /// Parses `bytes`; `cancellable` stops the parse when cancelled from another thread.
        init(_ bytes: UnsafeRawBufferPointer, cancellable: OpaquePointer?) throws(WebImageError) {
            guard let base = bytes.baseAddress, bytes.count > 0 else { throw .badImageData("the SVG is empty") }
            guard let stream = g_memory_input_stream_new_from_data(base, bytes.count, nil) else {
                throw .badImageData("the SVG could not be read")
            }
            defer { g_object_unref(UnsafeMutableRawPointer(stream)) }
            var error: UnsafeMutablePointer<GError>?
            let loaded = rsvg_handle_new_from_stream_sync(stream, nil, RSVG_HANDLE_FLAGS_NONE, cancellable, &error)
            if g_cancellable_is_cancelled(cancellable) != 0 {
                if let loaded { g_object_unref(UnsafeMutableRawPointer(loaded)) }
                g_clear_error(&error)
                throw .badImageData("reading the SVG took longer than its time limit")
            }
            guard let loaded else { throw Self.failure("the SVG could not be read", error) }
            handle = loaded
            rsvg_handle_set_dpi(handle, 96)
        }

        deinit { g_object_unref(UnsafeMutableRawPointer(handle)) }

        /// The document's own size (see ``SVGIntrinsicSize``).
        func intrinsicSize() throws(WebImageError) -> SVGIntrinsicSize {
            var hasWidth: gboolean = 0
            var hasHeight: gboolean = 0
            var hasViewBox: gboolean = 0
            var width = RsvgLength()
            var height = RsvgLength()
            var viewBox = RsvgRectangle()
            rsvg_handle_get_intrinsic_dimensions(
                handle, &hasWidth, &width, &hasHeight, &height, &hasViewBox, &viewBox)
            var pixelWidth = 0.0
            var pixelHeight = 0.0
            let inPixels = rsvg_handle_get_intrinsic_size_in_pixels(handle, &pixelWidth, &pixelHeight) != 0
            return try SVGIntrinsicSize(
                width: hasWidth != 0 ? Self.length(width) : nil, height: hasHeight != 0 ? Self.length(height) : nil,
                viewBox: hasViewBox != 0 ? (viewBox.width, viewBox.height) : nil,
                bothInPixels: inPixels ? (pixelWidth, pixelHeight) : nil)
        }

        /// Renders the whole document into `pixels` (premultiplied ARGB32 in native byte order,
        /// `size.width * 4` bytes a row, cleared first), scaled from `natural` to `size`.
        func render(into pixels: UnsafeMutableRawBufferPointer, size: PixelSize, natural: SVGIntrinsicSize)
            throws(WebImageError)
        {
            guard let base = pixels.baseAddress,
                cairo_format_stride_for_width(CAIRO_FORMAT_ARGB32, Int32(clamping: size.width)) == size.width * 4
            else { throw .badImageData("cairo cannot draw \(size) pixels") }
            base.initializeMemory(as: UInt8.self, repeating: 0, count: pixels.count)
            let surface = cairo_image_surface_create_for_data(
                base, CAIRO_FORMAT_ARGB32, Int32(clamping: size.width), Int32(clamping: size.height),
                Int32(clamping: size.width * 4))
            defer { cairo_surface_destroy(surface) }
            let context = cairo_create(surface)
            defer { cairo_destroy(context) }
            guard cairo_status(context) == CAIRO_STATUS_SUCCESS else {
                throw .badImageData("cairo cannot draw \(size) pixels")
            }
            // At its own size the document is drawn unscaled, as rsvg-convert draws it; at another
            // size each axis is scaled (the caller chose the size, keeping the aspect ratio or not).
            let natural = (width: natural.width, height: natural.height)
            let rounded = (width: natural.width.rounded(.up), height: natural.height.rounded(.up))
            if Double(size.width) != rounded.width || Double(size.height) != rounded.height {
                cairo_scale(context, Double(size.width) / natural.width, Double(size.height) / natural.height)
            }
            var viewport = RsvgRectangle(x: 0, y: 0, width: natural.width, height: natural.height)
            var error: UnsafeMutablePointer<GError>?
            guard rsvg_handle_render_document(handle, context, &viewport, &error) != 0 else {
                throw Self.failure("the SVG could not be rendered", error)
            }
            cairo_surface_flush(surface)
        }

        private static func length(_ length: RsvgLength) -> SVGIntrinsicSize.Length {
            let unit: SVGIntrinsicSize.Unit
            switch length.unit {
            case RSVG_UNIT_PERCENT: unit = .percent
            case RSVG_UNIT_EM: unit = .em
            case RSVG_UNIT_EX: unit = .ex
            case RSVG_UNIT_IN: unit = .inches
            case RSVG_UNIT_CM: unit = .centimetres
            case RSVG_UNIT_MM: unit = .millimetres
            case RSVG_UNIT_PT: unit = .points
            case RSVG_UNIT_PC: unit = .picas
            default: unit = .pixels
            }
            return SVGIntrinsicSize.Length(value: length.length, unit: unit)
        }

        /// A ``WebImageError`` with librsvg's message; frees `error`.
        private static func failure(_ what: String, _ error: UnsafeMutablePointer<GError>?) -> WebImageError {
            var error = error
            defer { g_clear_error(&error) }
            guard let message = error?.pointee.message else { return .badImageData(what) }
            return .badImageData("\(what): \(String(cString: message).prefix(200))")
        }
    }
#endif
