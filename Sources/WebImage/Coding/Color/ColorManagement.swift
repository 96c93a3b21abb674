import Foundation

/// Turns what a coder decoded into sRGB pixels when its ICC profile says they are something
/// else (``ImageDecodeOptions/convertToSRGB``). ``ImageCodersManager`` runs every decode
/// through it, so every coder, built in or added, gets the same treatment.
package enum ColorManagement {
    #if ColorManagement
        /// Whether pixels described by `profile` are sRGB already (to within one level), so that
        /// the profile can go with them unconverted.
        package static func isSRGB(_ profile: Data) -> Bool {
            SRGBConverter.shared.conversion(for: profile).kind == .identity
        }

        /// The options a coder is given: the ICC profile is read whenever it is needed for the
        /// conversion, even if ``ImageDecodeOptions/readMetadata`` leaves it out.
        static func coderOptions(_ options: ImageDecodeOptions) -> ImageDecodeOptions {
            guard options.convertToSRGB else { return options }
            var coderOptions = options
            coderOptions.readMetadata.insert(.iccProfile)
            return coderOptions
        }

        /// `image` with its pixels (every frame) converted from its profile to sRGB, and the profile
        /// dropped, since it no longer describes them. Images without a profile are sRGB already.
        /// Takes the image over, so that a still's pixels are converted in place, not copied.
        static func finish(_ image: consuming Image, options: ImageDecodeOptions) -> Image {
            guard options.convertToSRGB, let profile = image.metadata.iccProfile else { return image }
            image.metadata.iccProfile = nil
            let conversion = SRGBConverter.shared.conversion(for: profile)
            guard conversion.changesPixels else { return image }
            guard let animation = image.animation else {
                conversion.apply(to: &image.bitmap)
                return image
            }
            switch animation.storage {
            case .decoded(let frames):
                // The first frame usually shares the poster's pixels: convert them once.
                let posterIsFirstFrame = frames.first?.bitmap == image.bitmap
                let converted = frames.map { frame in
                    var frame = frame
                    conversion.apply(to: &frame.bitmap)
                    return frame
                }
                if posterIsFirstFrame {
                    image.bitmap = converted[0].bitmap
                } else {
                    conversion.apply(to: &image.bitmap)
                }
                image.animation = ImageAnimation(frames: converted, loopCount: animation.loopCount)
            case .lazy(let provider):
                conversion.apply(to: &image.bitmap)
                var lazy = ImageAnimation(provider: SRGBFrameProvider(provider, conversion: conversion))
                lazy.loopCount = animation.loopCount
                image.animation = lazy
            }
            return image
        }

        /// A lazily decoded animation of `provider` whose frames come out in sRGB.
        static func provider(_ provider: any AnimatedImageProvider, profile: Data?, options: ImageDecodeOptions)
            -> any AnimatedImageProvider
        {
            guard options.convertToSRGB, let profile else { return provider }
            let conversion = SRGBConverter.shared.conversion(for: profile)
            return conversion.changesPixels ? SRGBFrameProvider(provider, conversion: conversion) : provider
        }
    #else
        // Built without Little CMS: pixels stay as stored and keep their profile.
        package static func isSRGB(_ profile: Data) -> Bool { false }
        static func coderOptions(_ options: ImageDecodeOptions) -> ImageDecodeOptions { options }
        static func finish(_ image: consuming Image, options: ImageDecodeOptions) -> Image { image }
        static func provider(_ provider: any AnimatedImageProvider, profile: Data?, options: ImageDecodeOptions)
            -> any AnimatedImageProvider
        { provider }
    #endif
}

#if ColorManagement
    /// Converts each frame another provider decodes.
    final class SRGBFrameProvider: AnimatedImageProvider {
        private let inner: any AnimatedImageProvider
        private let conversion: SRGBConversion

        init(_ inner: any AnimatedImageProvider, conversion: SRGBConversion) {
            self.inner = inner
            self.conversion = conversion
        }

        var animatedImageData: Data { inner.animatedImageData }
        var frameCount: Int { inner.frameCount }
        var loopCount: Int { inner.loopCount }
        var heldByteCount: Int { inner.heldByteCount }
        func duration(at index: Int) -> Double { inner.duration(at: index) }

        func frame(at index: Int) throws(WebImageError) -> ImageBitmap {
            var bitmap = try inner.frame(at: index)
            conversion.apply(to: &bitmap)
            return bitmap
        }
    }
#endif
