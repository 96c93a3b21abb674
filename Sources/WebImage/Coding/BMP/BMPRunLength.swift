import Foundation

/// BMP's RLE8 and RLE4: runs of one index (two alternating ones for RLE4), absolute runs, and
/// the escapes for end of line, end of bitmap and a jump. Rows go bottom-up; pixels the
/// runs never reach stay transparent. Runs and jumps past the edges are clipped, never written.
enum BMPRunLength {
    static func decode(
        _ bytes: UnsafeRawBufferPointer, header: BMPHeader, into buffer: UnsafeMutableBufferPointer<UInt8>
    ) throws(WebImageError) {
        let width = header.width
        let height = header.height
        let isRLE4 = header.compression == .rle4
        let black = RGBA8(r: 0, g: 0, b: 0, a: 255)
        var position = header.pixelOffset
        var x = 0
        var row = 0  // counted from the bottom
        buffer.update(repeating: 0)

        func put(_ index: Int) {
            guard x < width, row < height else { return }
            let colour = index < header.palette.count ? header.palette[index] : black
            let out = ((height - 1 - row) * width + x) * 4
            buffer[out] = colour.r
            buffer[out + 1] = colour.g
            buffer[out + 2] = colour.b
            buffer[out + 3] = colour.a
        }

        while row < height {
            guard position + 1 < bytes.count else {
                throw .badImageData("the run-length BMP ends before its end-of-bitmap code")
            }
            let first = Int(bytes[position])
            let second = Int(bytes[position + 1])
            position += 2
            if first > 0 {
                // An encoded run: `first` pixels of one index (RLE4: the two nibbles in turn).
                for step in 0..<first {
                    put(isRLE4 ? (step % 2 == 0 ? second >> 4 : second & 0x0F) : second)
                    x += 1
                }
                continue
            }
            switch second {
            case 0:  // end of line
                x = 0
                row += 1
            case 1:  // end of bitmap
                return
            case 2:  // jump right and up
                guard position + 1 < bytes.count else { throw .badImageData("the run-length BMP ends inside a jump") }
                x += Int(bytes[position])
                row += Int(bytes[position + 1])
                position += 2
            default:  // an absolute run of `second` indices, padded to 16 bits
                let count = second
                let length = isRLE4 ? (count + 1) / 2 : count
                guard position + length <= bytes.count else {
                    throw .badImageData("the run-length BMP ends inside an absolute run")
                }
                for step in 0..<count {
                    let byte = Int(bytes[position + (isRLE4 ? step / 2 : step)])
                    put(isRLE4 ? (step % 2 == 0 ? byte >> 4 : byte & 0x0F) : byte)
                    x += 1
                }
                position += length + (length % 2)
            }
        }
    }
}
