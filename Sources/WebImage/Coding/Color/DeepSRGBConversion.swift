#if ColorManagement
    import CLCMS2
    import Foundation

    /// Converts 16-bit pixels (``Image/deepBitmap``) from an ICC profile to sRGB with Little CMS 2
    /// at 16 bits, the same intent as ``SRGBConverter`` (relative colorimetric). A transform is
    /// made for each image: deep images are rare, and the 8-bit tables would throw their precision
    /// away. Alpha is never touched.
    enum DeepSRGBConversion {
        /// `deep` in sRGB, or nil when the profile cannot describe its pixels (not RGB or gray,
        /// broken, too large) or lcms cannot make the transform.
        static func converted(_ deep: ImageBitmap16, from profileBytes: Data) -> ImageBitmap16? {
            guard profileBytes.count >= 132, profileBytes.count <= SRGBConverter.maxProfileByteCount,
                let width = UInt32(exactly: deep.width),
                let profile = profileBytes.withUnsafeBytes({ cmsOpenProfileFromMem($0.baseAddress, UInt32($0.count)) })
            else { return nil }
            defer { cmsCloseProfile(profile) }
            guard let sRGB = cmsCreate_sRGBProfile() else { return nil }
            defer { cmsCloseProfile(sRGB) }
            let input: cmsUInt32Number
            let output: cmsUInt32Number
            var flags = UInt32(cmsFLAGS_NOCACHE)
            switch cmsGetColorSpace(profile) {
            case cmsSigRgbData:
                (input, output) = (cwi_lcms_rgba16, cwi_lcms_rgba16)
                flags |= UInt32(cmsFLAGS_COPY_ALPHA)
            case cmsSigGrayData:
                // Gray pixels come as R = G = B: the red is read, RGB written over it, alpha skipped.
                (input, output) = (cwi_lcms_gray16_in_rgba16, cwi_lcms_rgb16_in_rgba16)
            default:
                return nil
            }
            guard
                let transform = cmsCreateTransform(
                    profile, input, sRGB, output, UInt32(INTENT_RELATIVE_COLORIMETRIC), flags)
            else { return nil }
            defer { cmsDeleteTransform(transform) }
            var result = deep
            let rowValues = deep.width * 4
            result.pixels.withUnsafeMutableBufferPointer { pixels in
                for row in 0..<deep.height {
                    let start = pixels.baseAddress! + row * rowValues
                    cmsDoTransform(transform, start, start, width)
                }
            }
            return result
        }
    }
#endif
