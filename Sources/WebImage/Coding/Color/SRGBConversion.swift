#if ColorManagement
    import CLCMS2
    import Foundation

    /// What converting pixels described by one ICC profile to sRGB takes, worked out once per
    /// profile by ``SRGBConverter`` with Little CMS 2 (relative colorimetric intent, no black point
    /// compensation: what lcms does by default).
    ///
    /// A struct with optional parts rather than an enum with payloads: ``SRGBConverter`` keeps these
    /// in a process-wide cache, and a multi-payload enum tags its payload pointers with spare bits,
    /// which LeakSanitizer cannot follow (the fuzz targets would report the cache as leaked).
    struct SRGBConversion: Sendable {
        enum Kind: Sendable, Equatable {
            /// The profile is sRGB, or close enough that no pixel would change by more than one level.
            case identity
            /// A matrix/TRC RGB profile (Adobe RGB, Display P3, ProPhoto and most camera profiles):
            /// converted by table lookups and one integer matrix, as lcms's own 8-bit matrix-shaper
            /// path does, without its per-call overhead.
            case matrixShaper
            /// Any other RGB profile (one with lookup tables): converted by lcms.
            case transform
            /// A grey profile: what lcms makes of each grey level, as a table per output channel
            /// (the decoders deliver grey as R = G = B).
            case gray
            /// A profile that cannot describe RGBA pixels (CMYK, Lab, a broken profile): the pixels
            /// are left as they are and the profile is dropped, because it does not describe them.
            case unusable
        }

        let kind: Kind
        private var tables: MatrixShaperTables?
        private var transform: LCMSTransform?
        /// Red, green and blue tables of 256 entries each, one after another.
        private var grayTables: [UInt8]?

        static let identity = SRGBConversion(kind: .identity)
        static let unusable = SRGBConversion(kind: .unusable)

        static func matrixShaper(_ tables: MatrixShaperTables) -> SRGBConversion {
            SRGBConversion(kind: .matrixShaper, tables: tables)
        }

        static func transform(_ transform: LCMSTransform) -> SRGBConversion {
            SRGBConversion(kind: .transform, transform: transform)
        }

        static func gray(red: [UInt8], green: [UInt8], blue: [UInt8]) -> SRGBConversion {
            SRGBConversion(kind: .gray, grayTables: red + green + blue)
        }

        /// Whether applying it changes any pixel.
        var changesPixels: Bool { kind != .identity && kind != .unusable }

        /// Converts `bitmap` in place; alpha is never touched.
        func apply(to bitmap: inout ImageBitmap) {
            if let tables { tables.apply(to: &bitmap) }
            if let transform { transform.apply(to: &bitmap) }
            if let grayTables { Self.apply(grayTables, to: &bitmap) }
        }

        private static func apply(_ table: [UInt8], to bitmap: inout ImageBitmap) {
            table.withUnsafeBufferPointer { table in
                bitmap.pixels.withUnsafeMutableBufferPointer { pixels in
                    var index = 0
                    while index < pixels.count {
                        pixels[index] = table[Int(pixels[index])]
                        pixels[index + 1] = table[256 + Int(pixels[index + 1])]
                        pixels[index + 2] = table[512 + Int(pixels[index + 2])]
                        index &+= 4
                    }
                }
            }
        }
    }

    /// An lcms transform from one RGB profile to sRGB on RGBA8 pixels, alpha copied through.
    /// Immutable after creation, and made without lcms's one-pixel cache, so any number of threads
    /// may run it at once.
    final class LCMSTransform: @unchecked Sendable {
        private let handle: cmsHTRANSFORM

        init?(from profile: cmsHPROFILE, to sRGB: cmsHPROFILE) {
            let flags = UInt32(cmsFLAGS_COPY_ALPHA | cmsFLAGS_NOCACHE)
            guard
                let handle = cmsCreateTransform(
                    profile, cwi_lcms_rgba8, sRGB, cwi_lcms_rgba8, UInt32(INTENT_RELATIVE_COLORIMETRIC), flags)
            else { return nil }
            self.handle = handle
        }

        deinit { cmsDeleteTransform(handle) }

        func apply(to bitmap: inout ImageBitmap) {
            RowBands.forEach(&bitmap) { start, count in cmsDoTransform(self.handle, start, start, UInt32(count)) }
        }
    }
#endif
