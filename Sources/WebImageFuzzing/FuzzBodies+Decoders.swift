import Foundation
import WebImage

extension FuzzBodies {
    /// Every entry point of ``JPEGCoder``: header, full, thumbnail (also from an embedded EXIF
    /// thumbnail) and first-frame decoding, and incremental decoding.
    public static func jpeg(_ data: Data) -> FuzzReport { exercise(JPEGCoder(), with: data) }

    /// Every entry point of ``PNGCoder``: header, full, thumbnail and first-frame decoding
    /// (it has no incremental decoder), on the data as given and, if that differs, with every
    /// chunk CRC made right.
    public static func png(_ data: Data) -> FuzzReport {
        var report = exercise(PNGCoder(), with: data)
        let repaired = PNGChecksums.repaired(data)
        if repaired != data { report.merge(exercise(PNGCoder(), with: repaired)) }
        return report
    }

    /// ``png(_:)`` started from APNG seeds: the animation chunks, frames composited eagerly
    /// and on demand, every frame asked for.
    public static func apng(_ data: Data) -> FuzzReport { png(data) }

    /// Every entry point of ``GIFCoder``: header, full, thumbnail, first-frame and lazy-frame
    /// decoding with every frame asked for, and incremental decoding.
    public static func gif(_ data: Data) -> FuzzReport { exercise(GIFCoder(), with: data) }

    /// Every entry point of ``WebPCoder``: as for ``gif(_:)``.
    public static func webp(_ data: Data) -> FuzzReport { exercise(WebPCoder(), with: data) }

    /// Every entry point of ``AVIFCoder``: as for ``gif(_:)`` (incremental decoding through a
    /// reader that answers "waiting" past the bytes received).
    public static func avif(_ data: Data) -> FuzzReport {
        #if AVIF
            exercise(AVIFCoder(), with: data)
        #else
            FuzzReport()  // built without the library: nothing to fuzz
        #endif
    }

    public static func heic(_ data: Data) -> FuzzReport {
        #if HEIC
            exercise(HEICCoder(), with: data)
        #else
            FuzzReport()  // built without the library: nothing to fuzz
        #endif
    }

    /// Every entry point of ``JPEGXLCoder``: as for ``gif(_:)`` (incremental decoding feeding
    /// one libjxl decoder the new bytes of each piece).
    public static func jxl(_ data: Data) -> FuzzReport {
        #if JPEGXL
            exercise(JPEGXLCoder(), with: data)
        #else
            FuzzReport()  // built without the library: nothing to fuzz
        #endif
    }

    public static func tiff(_ data: Data) -> FuzzReport {
        #if TIFF
            exercise(TIFFCoder(), with: data)
        #else
            FuzzReport()  // built without the library: nothing to fuzz
        #endif
    }

    public static func bmp(_ data: Data) -> FuzzReport { exercise(BMPCoder(), with: data) }

    public static func ico(_ data: Data) -> FuzzReport { exercise(ICOCoder(), with: data) }

    /// Every entry point of ``SVGCoder`` (header, full, thumbnail and first-frame decoding, each a
    /// librsvg parse and rendering behind the coder's own checks), with a 2-second time limit; then
    /// ``SVGSanitizer`` on the same bytes, whose output must sanitise to itself.
    public static func svg(_ data: Data) -> FuzzReport {
        #if SVG
            var report = exercise(svgCoder, with: data)
            if let once = report.step("sanitize", { try SVGSanitizer.sanitized(data) }),
                let twice = report.step("sanitize again", { try SVGSanitizer.sanitized(once) })
            {
                report.expect(twice == once, "sanitising the sanitised document changed it")
            }
            return report
        #else
            FuzzReport()  // built without the library: nothing to fuzz
        #endif
    }

    #if SVG
        /// A coder whose renders are cut short sooner than the default 5 s, and which takes no new
        /// document while one overruns, so that a slow input costs the fuzzer little.
        static let svgCoder: SVGCoder = {
            var limits = SVGCoder.Limits()
            limits.timeLimit = .seconds(2)
            limits.maxOverrunningRenders = 1
            return SVGCoder(limits: limits)
        }()
    #endif

    /// Feeds `data` to `coder` whatever its magic bytes say: a coder must reject what it
    /// cannot read with a typed error too.
    static func exercise(_ coder: some ImageCoding, with data: Data) -> FuzzReport {
        var report = FuzzReport()
        let info = report.step("imageInfo") { try coder.imageInfo(for: data) }
        let full = report.step("decode") { try coder.decode(data, options: fullOptions) }
        if let full {
            report.inspect(full, step: "decode")
            report.expect(
                full.metadata.byteCount <= metadataLimit(forInputOf: data.count),
                "decode kept \(full.metadata.byteCount) bytes of metadata from \(data.count) bytes")
            if let info {
                report.expect(
                    info.width == full.orientedSize.width && info.height == full.orientedSize.height,
                    "imageInfo says \(info.width)x\(info.height), decode gives \(full.orientedSize)")
            }
        }
        if let thumbnail = report.step("thumbnail", { try coder.decode(data, options: thumbnailOptions) }) {
            report.inspect(thumbnail, step: "thumbnail", fitting: thumbnailOptions.thumbnailPixelSize)
        }
        if coder is JPEGCoder,
            let embedded = report.step(
                "embeddedThumbnail", { try coder.decode(data, options: embeddedThumbnailOptions) })
        {
            report.inspect(embedded, step: "embeddedThumbnail", fitting: embeddedThumbnailOptions.thumbnailPixelSize)
        }
        if let first = report.step("firstFrame", { try coder.decode(data, options: firstFrameOptions) }) {
            report.inspect(first, step: "firstFrame")
            report.expect(first.frameCount == 1, "firstFrame: \(first.frameCount) frames")
        }
        if coder is any AnimatedImageCoding,
            let lazy = report.step("lazyFrames", { try coder.decode(data, options: lazyFramesOptions) })
        {
            report.inspect(lazy, step: "lazyFrames")
        }
        if let progressive = coder as? any ProgressiveImageCoding {
            let decoder = progressive.makeIncrementalDecoder(options: fullOptions)
            let final = report.feedIncrementally(data, to: decoder, step: "incremental")
            if let final, let full {
                report.expect(
                    final.bitmap.size == full.bitmap.size,
                    "incremental: the final image is \(final.bitmap.size), a one-shot decode \(full.bitmap.size)")
            }
        }
        return report
    }
}
