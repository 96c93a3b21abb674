#if ColorManagement
    /// The 8-bit matrix-shaper conversion to sRGB in integer arithmetic: each input channel's tone
    /// curve times each matrix coefficient folded into nine tables of 256 entries, three of them
    /// looked up and summed per output channel, then sRGB's tone curve applied from a table over
    /// 14-bit linear values.
    /// lcms's matrix-shaper optimisation computes the same in 1.14 fixed point.
    struct MatrixShaperTables: Sendable {
        /// Linear output values carry this many fractional bits.
        static let fractionBits = 14
        private static let one = 1 << fractionBits

        /// For input channel c, output channel k and value v: matrix[k][c] times the linear value
        /// of v, in 28 fractional bits, at index `(c * 3 + k) * 256 + v`.
        private let products: [Int32]
        /// sRGB's encoding of each linear value 0...1 in 14 fractional bits.
        private let encode: [UInt8]

        /// `linear`: each channel's tone curve at the 256 levels, within 0...1. Nil when the matrix
        /// is too large for the integer sums (no real profile comes close).
        init?(linear: [[Float]], matrix: [[Double]], encode: [UInt8]) {
            precondition(linear.count == 3 && linear.allSatisfy { $0.count == 256 } && encode.count == Self.one + 1)
            precondition(linear.joined().allSatisfy { $0 >= 0 && $0 <= 1 })
            let rowSums = matrix.map { $0.reduce(0) { $0 + abs($1) } }
            guard rowSums.allSatisfy({ $0.isFinite && $0 < 7.5 }) else { return nil }
            var products = [Int32](repeating: 0, count: 9 * 256)
            let scale = Double(Self.one)
            for channel in 0..<3 {
                for output in 0..<3 {
                    let coefficient = (matrix[output][channel] * scale).rounded()
                    for value in 0..<256 {
                        let lin = (Double(linear[channel][value]) * scale).rounded()
                        // Within range: the row sums were checked above.
                        products[(channel * 3 + output) * 256 + value] = Int32(clamping: coefficient * lin)
                    }
                }
            }
            self.products = products
            self.encode = encode
        }

        func apply(to bitmap: inout ImageBitmap) {
            let products = products
            let encode = encode
            RowBands.forEach(&bitmap) { start, count in
                products.withUnsafeBufferPointer { products in
                    encode.withUnsafeBufferPointer { encode in
                        Self.convert(start, count: count, products.baseAddress!, encode.baseAddress!)
                    }
                }
            }
        }

        private static func convert(
            _ pixel: UnsafeMutablePointer<UInt8>, count: Int, _ t: UnsafePointer<Int32>, _ output: UnsafePointer<UInt8>
        ) {
            let half = Int32(1 << (fractionBits - 1))
            let one = Int32(one)
            var pixel = pixel
            for _ in 0..<count {
                let r = Int(pixel[0])
                let g = 768 &+ Int(pixel[1])
                let b = 1536 &+ Int(pixel[2])
                let red = (t[r] &+ t[g] &+ t[b] &+ half) &>> Int32(fractionBits)
                let green = (t[256 &+ r] &+ t[256 &+ g] &+ t[256 &+ b] &+ half) &>> Int32(fractionBits)
                let blue = (t[512 &+ r] &+ t[512 &+ g] &+ t[512 &+ b] &+ half) &>> Int32(fractionBits)
                pixel[0] = output[Int(min(max(red, 0), one))]
                pixel[1] = output[Int(min(max(green, 0), one))]
                pixel[2] = output[Int(min(max(blue, 0), one))]
                pixel += 4
            }
        }
    }
#endif
