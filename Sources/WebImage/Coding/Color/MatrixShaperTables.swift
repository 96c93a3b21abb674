/// The 8-bit matrix-shaper conversion to sRGB in integer arithmetic: each input channel's tone
/// curve and its matrix column folded into one table of 256 entries, the three looked up and
/// summed per pixel, then sRGB's tone curve applied from a table over 14-bit linear values.
/// lcms's matrix-shaper optimisation computes the same in 1.14 fixed point.
struct MatrixShaperTables: Sendable {
    /// Linear output values carry this many fractional bits.
    static let fractionBits = 14
    private static let one = 1 << fractionBits

    /// For input channel c and value v: the c column of the matrix times the linear value of v,
    /// as (R, G, B, 0) in 28 fractional bits. Index `c * 256 + v`.
    private let columns: [SIMD4<Int32>]
    /// sRGB's encoding of each linear value 0...1 in 14 fractional bits.
    private let encode: [UInt8]

    /// `linear`: each channel's tone curve at the 256 levels, within 0...1. Nil when the matrix
    /// is too large for the integer sums (no real profile comes close).
    init?(linear: [[Float]], matrix: [[Double]], encode: [UInt8]) {
        precondition(linear.count == 3 && linear.allSatisfy { $0.count == 256 } && encode.count == Self.one + 1)
        precondition(linear.joined().allSatisfy { $0 >= 0 && $0 <= 1 })
        let rowSums = matrix.map { $0.reduce(0) { $0 + abs($1) } }
        guard rowSums.allSatisfy({ $0.isFinite && $0 < 7.5 }) else { return nil }
        var columns = [SIMD4<Int32>](repeating: .zero, count: 3 * 256)
        let scale = Double(Self.one)
        for channel in 0..<3 {
            for value in 0..<256 {
                let lin = (Double(linear[channel][value]) * scale).rounded()
                columns[channel * 256 + value] = SIMD4(
                    Int32((matrix[0][channel] * scale).rounded() * lin),
                    Int32((matrix[1][channel] * scale).rounded() * lin),
                    Int32((matrix[2][channel] * scale).rounded() * lin), 0)
            }
        }
        self.columns = columns
        self.encode = encode
    }

    func apply(to bitmap: inout ImageBitmap) {
        let columns = columns
        let encode = encode
        RowBands.forEach(&bitmap) { start, count in
            columns.withUnsafeBufferPointer { columns in
                encode.withUnsafeBufferPointer { encode in Self.convert(start, count: count, columns, encode) }
            }
        }
    }

    private static func convert(
        _ pixel: UnsafeMutablePointer<UInt8>, count: Int, _ columns: UnsafeBufferPointer<SIMD4<Int32>>,
        _ encode: UnsafeBufferPointer<UInt8>
    ) {
        let half = SIMD4<Int32>(repeating: Int32(1 << (fractionBits - 1)))
        let low = SIMD4<Int32>.zero
        let high = SIMD4<Int32>(repeating: Int32(one))
        let table = columns.baseAddress!
        let output = encode.baseAddress!
        var pixel = pixel
        for _ in 0..<count {
            let sum =
                table[Int(pixel[0])] &+ table[256 &+ Int(pixel[1])] &+ table[512 &+ Int(pixel[2])] &+ half
            let linear = (sum &>> Int32(fractionBits)).clamped(lowerBound: low, upperBound: high)
            pixel[0] = output[Int(linear.x)]
            pixel[1] = output[Int(linear.y)]
            pixel[2] = output[Int(linear.z)]
            pixel += 4
        }
    }
}
