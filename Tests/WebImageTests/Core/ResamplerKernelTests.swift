import Testing

@testable import WebImage

@Suite("Resampling kernels: nearest, cubic, Lanczos-2")
struct ResamplerKernelTests {
    @Test("Nearest copies the pixel each output centre falls in, shrinking and enlarging")
    func nearestCopiesSourcePixels() throws {
        let source = ImageBitmap.noise(width: 12, height: 6, seed: 5, alpha: .random)
        let half = try source.resampled(to: PixelSize(width: 6, height: 3), filter: .nearest)
        for y in 0..<3 { for x in 0..<6 { #expect(half[x, y] == source[2 * x + 1, 2 * y + 1]) } }
        let third = try source.resampled(to: PixelSize(width: 4, height: 2), filter: .nearest)
        for y in 0..<2 { for x in 0..<4 { #expect(third[x, y] == source[3 * x + 1, 3 * y + 1]) } }
        let double = try source.resampled(to: PixelSize(width: 24, height: 12), filter: .nearest)
        for y in 0..<12 { for x in 0..<24 { #expect(double[x, y] == source[x / 2, y / 2]) } }
    }

    @Test("Cubic is Catmull-Rom and Lanczos-2 has two lobes: 1 at 0, 0 at the other integers")
    func kernelShapes() {
        for filter in [ResamplingFilter.cubic, .lanczos2] {
            #expect(filter.weight(0) == 1 && filter.support == 2)
            #expect(abs(filter.weight(1)) < 1e-12 && filter.weight(2) == 0 && filter.weight(-2.5) == 0)
        }
        // Catmull-Rom: 1.5·x³ − 2.5·x² + 1 inside 1, −0.5·x³ + 2.5·x² − 4x + 2 outside.
        #expect(abs(ResamplingFilter.cubic.weight(0.5) - 0.5625) < 1e-12)
        #expect(abs(ResamplingFilter.cubic.weight(-1.5) + 0.0625) < 1e-12)
        // Lanczos-2 at ½: 2·sin(π/2)·sin(π/4) / (π/2)².
        #expect(
            abs(ResamplingFilter.lanczos2.weight(0.5) - 2 * 0.5.squareRoot() / (Double.pi * Double.pi / 4) * 1) < 1e-12)
    }

    @Test("Each kernel gives its own result on detail, all close to Lanczos-3 (PSNR above 25 dB)")
    func kernelsDifferButAgree() throws {
        let source = ImageBitmap.noise(width: 60, height: 40, seed: 8)
        let size = PixelSize(width: 25, height: 17)
        let reference = try source.resampled(to: size, filter: .lanczos3)
        for filter in [ResamplingFilter.lanczos2, .cubic, .triangle] {
            let result = try source.resampled(to: size, filter: filter)
            #expect(result != reference, "\(filter)")
            #expect(PixelMetrics.psnr(result, reference) > 25, "\(filter)")
        }
    }
}
