#if ColorManagement
    import CLCMS2
    import Foundation

    /// Works out, with Little CMS 2, how to convert the pixels an ICC profile describes to sRGB,
    /// and remembers the answer for the last few profiles (a service sees the same camera and
    /// export profiles again and again; making a conversion costs a few milliseconds).
    final class SRGBConverter: Sendable {
        static let shared = SRGBConverter()

        /// Profiles larger than this (real ones are a few hundred bytes to a few hundred kilobytes)
        /// are not handed to lcms: the pixels stay as they are and the profile is dropped.
        static let maxProfileByteCount = 4 << 20
        private static let rememberedCount = 32

        /// The last profiles seen (as byte arrays, not `Data`, whose enum storage LeakSanitizer
        /// cannot follow) and their conversions, oldest first.
        private let remembered = Locked<[(profile: [UInt8], conversion: SRGBConversion)]>([])

        /// The conversion for pixels described by `profile`.
        func conversion(for profile: Data) -> SRGBConversion {
            let bytes = [UInt8](profile)
            if let known = remembered.withLock({ list in list.first { $0.profile == bytes }?.conversion }) {
                return known
            }
            let conversion = Self.makeConversion(profile)
            remembered.withLock { list in
                if !list.contains(where: { $0.profile == bytes }) {
                    list.append((bytes, conversion))
                    if list.count > Self.rememberedCount { list.removeFirst() }
                }
            }
            return conversion
        }

        /// `preferringMatrixShaper: false` makes lcms convert even a matrix/TRC profile (the tests
        /// compare the two ways).
        static func makeConversion(_ profileBytes: Data, preferringMatrixShaper: Bool = true) -> SRGBConversion {
            guard profileBytes.count >= 132, profileBytes.count <= maxProfileByteCount,
                let profile = profileBytes.withUnsafeBytes({ cmsOpenProfileFromMem($0.baseAddress, UInt32($0.count)) })
            else { return .unusable }
            defer { cmsCloseProfile(profile) }
            guard let sRGB = cmsCreate_sRGBProfile() else { return .unusable }
            defer { cmsCloseProfile(sRGB) }
            let conversion: SRGBConversion
            switch cmsGetColorSpace(profile) {
            case cmsSigRgbData: conversion = rgbConversion(profile, sRGB, preferringMatrixShaper)
            case cmsSigGrayData: conversion = grayConversion(profile, sRGB)
            default: return .unusable
            }
            return ConversionProbe.changesNoPixel(conversion) ? .identity : conversion
        }

        private static func rgbConversion(_ profile: cmsHPROFILE, _ sRGB: cmsHPROFILE, _ preferringMatrixShaper: Bool)
            -> SRGBConversion
        {
            let intent = UInt32(INTENT_RELATIVE_COLORIMETRIC)
            if preferringMatrixShaper, cmsIsMatrixShaper(profile) != 0,
                cmsIsCLUT(profile, intent, UInt32(LCMS_USED_AS_INPUT)) == 0,
                let tables = matrixShaperTables(profile, sRGB)
            {
                return .matrixShaper(tables)
            }
            return LCMSTransform(from: profile, to: sRGB).map { .transform($0) } ?? .unusable
        }

        /// A grey source's pixels go through lcms once per grey level; the three resulting tables
        /// convert every pixel.
        private static func grayConversion(_ profile: cmsHPROFILE, _ sRGB: cmsHPROFILE) -> SRGBConversion {
            guard
                let transform = cmsCreateTransform(
                    profile, cwi_lcms_gray8, sRGB, cwi_lcms_rgb8, UInt32(INTENT_RELATIVE_COLORIMETRIC),
                    UInt32(cmsFLAGS_NOCACHE))
            else { return .unusable }
            defer { cmsDeleteTransform(transform) }
            let levels = (0..<256).map { UInt8($0) }
            var rgb = [UInt8](repeating: 0, count: 256 * 3)
            cmsDoTransform(transform, levels, &rgb, 256)
            return .gray(
                red: (0..<256).map { rgb[$0 * 3] }, green: (0..<256).map { rgb[$0 * 3 + 1] },
                blue: (0..<256).map { rgb[$0 * 3 + 2] })
        }

        private static func matrixShaperTables(_ profile: cmsHPROFILE, _ sRGB: cmsHPROFILE) -> MatrixShaperTables? {
            guard let source = colorants(profile), let target = colorants(sRGB),
                let targetInverse = Matrix3.inverse(target)
            else { return nil }
            let matrix = Matrix3.product(targetInverse, source)
            var linear: [[Float]] = []
            for tag in [cmsSigRedTRCTag, cmsSigGreenTRCTag, cmsSigBlueTRCTag] {
                guard let curve = cmsReadTag(profile, tag) else { return nil }
                let tone = OpaquePointer(curve)
                let values = (0..<256).map { cmsEvalToneCurveFloat(tone, Float($0) / 255) }
                // A curve that leaves 0...1 (a hostile or broken profile) goes to lcms, which clips.
                guard values.allSatisfy({ $0.isFinite && $0 >= -0.001 && $0 <= 1.001 }) else { return nil }
                linear.append(values.map { min(max($0, 0), 1) })
            }
            guard let sRGBCurve = cmsReadTag(sRGB, cmsSigRedTRCTag),
                let reversed = cmsReverseToneCurve(OpaquePointer(sRGBCurve))
            else { return nil }
            defer { cmsFreeToneCurve(reversed) }
            let steps = 1 << MatrixShaperTables.fractionBits
            let encode = (0...steps).map { step -> UInt8 in
                let value = cmsEvalToneCurveFloat(reversed, Float(step) / Float(steps))
                return UInt8(clamping: value * 255, rounding: .toNearestOrAwayFromZero)
            }
            return MatrixShaperTables(linear: linear, matrix: matrix, encode: encode)
        }

        /// The profile's red, green and blue colorants as the columns of an RGB → XYZ (D50) matrix.
        private static func colorants(_ profile: cmsHPROFILE) -> [[Double]]? {
            var columns: [cmsCIEXYZ] = []
            for tag in [cmsSigRedColorantTag, cmsSigGreenColorantTag, cmsSigBlueColorantTag] {
                guard let xyz = cmsReadTag(profile, tag) else { return nil }
                columns.append(xyz.assumingMemoryBound(to: cmsCIEXYZ.self).pointee)
            }
            return [columns.map(\.X), columns.map(\.Y), columns.map(\.Z)]
        }
    }
#endif
