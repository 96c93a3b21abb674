#if Server
    import CFreeType
    import Foundation
    import WebImage

    /// `watermark_text`'s mark: the text drawn with FreeType in one font at 16 pixels (imgproxy's
    /// `sans 16`), black (imgproxy's default colour), antialiased, on a transparent canvas just
    /// large enough for it. A newline starts a line; lines are left-aligned. Pango markup is not
    /// interpreted: its tags are dropped and its entities (`&amp;`, `&lt;`, `&#65;`, …) decoded,
    /// so that marked-up text reads as its plain words. Glyphs are placed one after another with
    /// the font's kerning, without shaping (no ligatures or complex scripts).
    struct TextWatermark {
        /// The font file's bytes (TrueType, OpenType, or anything else FreeType reads).
        let font: Data
        var pixelSize = 16
        var colour = RGBA8(r: 0, g: 0, b: 0, a: 255)
        /// The canvas may not have more pixels than this.
        var pixelLimit: Int

        /// One drawn glyph: its coverage (rows of `width` bytes) and its top-left corner.
        private struct Glyph {
            var x: Int
            var y: Int
            var width: Int
            var rows: Int
            var coverage: [UInt8]
        }

        /// The mark for `markup`, or an error that says why there is none.
        func rendered(_ markup: String) throws(ServiceError) -> ImageBitmap {
            let text = Self.plainText(markup)
            let outcome: Result<ImageBitmap, ServiceError> = font.withUnsafeBytes { raw in
                guard let base = raw.baseAddress?.assumingMemoryBound(to: FT_Byte.self), raw.count > 0 else {
                    return .failure(.internalError("the watermark font is empty"))
                }
                var library: FT_Library?
                guard FT_Init_FreeType(&library) == 0, let library else {
                    return .failure(.internalError("FreeType could not start"))
                }
                defer { FT_Done_FreeType(library) }
                var face: FT_Face?
                guard FT_New_Memory_Face(library, base, FT_Long(raw.count), 0, &face) == 0, let face else {
                    return .failure(.internalError("the watermark font is not a font FreeType reads"))
                }
                defer { FT_Done_Face(face) }
                guard FT_Set_Pixel_Sizes(face, 0, FT_UInt(pixelSize)) == 0 else {
                    return .failure(.internalError("the watermark font has no \(pixelSize)-pixel size"))
                }
                return Result { () throws(ServiceError) in try draw(text, with: face) }
            }
            return try outcome.get()
        }

        private func draw(_ text: String, with face: FT_Face) throws(ServiceError) -> ImageBitmap {
            let metrics = face.pointee.size.pointee.metrics
            let ascender = Int(clamping: metrics.ascender >> 6)
            let lineHeight = max(1, Int(clamping: metrics.height >> 6))
            let kerns = face.pointee.face_flags & FT_Long(FT_FACE_FLAG_KERNING) != 0
            var glyphs: [Glyph] = []
            var right = 0
            var lines = 0
            for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
                let baseline = lines * lineHeight + ascender
                var pen = 0
                var previous: FT_UInt = 0
                for scalar in line.unicodeScalars {
                    let index = FT_Get_Char_Index(face, FT_ULong(scalar.value == 9 ? 32 : scalar.value))
                    if kerns, previous != 0, index != 0 {
                        var kerning = FT_Vector()
                        if FT_Get_Kerning(face, previous, index, FT_UInt(FT_KERNING_DEFAULT.rawValue), &kerning) == 0 {
                            pen += Int(clamping: kerning.x >> 6)
                        }
                    }
                    previous = index
                    guard FT_Load_Glyph(face, index, FT_Int32(FT_LOAD_RENDER)) == 0, let slot = face.pointee.glyph
                    else { continue }
                    let bitmap = slot.pointee.bitmap
                    let width = Int(bitmap.width)
                    let rows = Int(bitmap.rows)
                    if width > 0, rows > 0, bitmap.pixel_mode == UInt8(FT_PIXEL_MODE_GRAY.rawValue),
                        let buffer = bitmap.buffer
                    {
                        let pitch = Int(bitmap.pitch)
                        var coverage = [UInt8](repeating: 0, count: width * rows)
                        for row in 0..<rows {
                            // A negative pitch stores the rows bottom up, from the buffer's start.
                            let start = pitch >= 0 ? row * pitch : (rows - 1 - row) * -pitch
                            for column in 0..<width { coverage[row * width + column] = buffer[start + column] }
                        }
                        glyphs.append(
                            Glyph(
                                x: pen + Int(slot.pointee.bitmap_left), y: baseline - Int(slot.pointee.bitmap_top),
                                width: width, rows: rows, coverage: coverage))
                    }
                    pen += Int(clamping: slot.pointee.advance.x >> 6)
                    right = max(right, pen)
                }
                lines += 1
            }
            let left = min(0, glyphs.map(\.x).min() ?? 0)
            let top = min(0, glyphs.map(\.y).min() ?? 0)
            let width = max(right, glyphs.map { $0.x + $0.width }.max() ?? 0) - left
            let height = max(lines * lineHeight, glyphs.map { $0.y + $0.rows }.max() ?? 0) - top
            guard width > 0, height > 0 else { throw .badRequest("the watermark text draws nothing") }
            let (pixels, overflows) = width.multipliedReportingOverflow(by: height)
            guard !overflows, pixels <= pixelLimit else {
                throw .badRequest(
                    "the watermark text would be \(width)x\(height) pixels, above the limit of \(pixelLimit)")
            }
            var canvas = ImageBitmap(width: width, height: height, fill: RGBA8(r: 0, g: 0, b: 0, a: 0))
            for glyph in glyphs {
                for row in 0..<glyph.rows {
                    for column in 0..<glyph.width {
                        let cover = glyph.coverage[row * glyph.width + column]
                        guard cover > 0 else { continue }
                        let x = glyph.x + column - left
                        let y = glyph.y + row - top
                        let alpha = UInt8((UInt16(cover) * UInt16(colour.a) + 127) / 255)
                        // Overlapping glyphs keep the stronger coverage.
                        if alpha > canvas[x, y].a {
                            canvas[x, y] = RGBA8(r: colour.r, g: colour.g, b: colour.b, a: alpha)
                        }
                    }
                }
            }
            return canvas
        }

        /// The text Pango markup shows, near enough: tags (`<…>` opening with a letter, `/` or `!`)
        /// dropped, the five XML entities and numeric references decoded, other control characters
        /// than newline and tab left out. A `<` or `&` that starts nothing stays as it is.
        static func plainText(_ markup: String) -> String {
            var result = ""
            var rest = Substring(markup)
            while let first = rest.first {
                if first == "<", let next = rest.dropFirst().first, next.isLetter || next == "/" || next == "!",
                    let end = rest.firstIndex(of: ">")
                {
                    rest = rest[rest.index(after: end)...]
                    continue
                }
                if first == "&", let end = rest.prefix(12).firstIndex(of: ";"),
                    let decoded = entity(rest[rest.index(after: rest.startIndex)..<end])
                {
                    result.unicodeScalars.append(decoded)
                    rest = rest[rest.index(after: end)...]
                    continue
                }
                rest = rest.dropFirst()
                for scalar in first.unicodeScalars
                where scalar.value >= 32 || scalar == "\n" || scalar == "\t" {
                    result.unicodeScalars.append(scalar)
                }
            }
            return result
        }

        private static func entity(_ name: Substring) -> Unicode.Scalar? {
            switch name {
            case "amp": return "&"
            case "lt": return "<"
            case "gt": return ">"
            case "quot": return "\""
            case "apos": return "'"
            default:
                guard name.hasPrefix("#") else { return nil }
                let digits = name.dropFirst()
                let value =
                    digits.hasPrefix("x") || digits.hasPrefix("X")
                    ? UInt32(digits.dropFirst(), radix: 16) : UInt32(digits, radix: 10)
                return value.flatMap(Unicode.Scalar.init).flatMap { $0.value >= 32 || $0 == "\n" ? $0 : nil }
            }
        }
    }
#endif
