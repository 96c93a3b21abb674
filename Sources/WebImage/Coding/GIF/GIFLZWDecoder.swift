/// GIF's variable-width LZW decoder, with its string table allocated once and reused per frame.
///
/// Each table entry stores its prefix code, last byte, first byte and length, so a code's
/// string is written straight into the output back to front with no intermediate stack.
/// Every code read is checked against the table size before it is used; a code that is not
/// yet in the table ends the frame (the pixels decoded so far are kept, as browsers do).
final class GIFLZWDecoder {
    private static let tableSize = 4096
    private let prefix = UnsafeMutablePointer<UInt16>.allocate(capacity: tableSize)
    private let suffix = UnsafeMutablePointer<UInt8>.allocate(capacity: tableSize)
    private let first = UnsafeMutablePointer<UInt8>.allocate(capacity: tableSize)
    private let length = UnsafeMutablePointer<UInt16>.allocate(capacity: tableSize)

    init() {
        prefix.initialize(repeating: 0, count: Self.tableSize)
        suffix.initialize(repeating: 0, count: Self.tableSize)
        first.initialize(repeating: 0, count: Self.tableSize)
        length.initialize(repeating: 1, count: Self.tableSize)
    }

    deinit {
        prefix.deallocate()
        suffix.deallocate()
        first.deallocate()
        length.deallocate()
    }

    /// Decodes the concatenated code stream `input` into `output`, stopping at the end code,
    /// the end of the input, a code out of range, or a full output. Returns the pixels written.
    /// `minCodeSize` must be in 1...11.
    func decode(
        _ input: UnsafeRawBufferPointer, minCodeSize: Int, into output: UnsafeMutableBufferPointer<UInt8>
    ) -> Int {
        precondition((1...11).contains(minCodeSize), "LZW minimum code size out of range")
        guard let out = output.baseAddress, let src = input.baseAddress else { return 0 }
        let capacity = output.count
        let inputCount = input.count
        let clearCode = 1 << minCodeSize
        let endCode = clearCode + 1
        for code in 0..<clearCode {
            suffix[code] = UInt8(truncatingIfNeeded: code)
            first[code] = UInt8(truncatingIfNeeded: code)
            length[code] = 1
        }
        var codeSize = minCodeSize + 1
        var codeMask = (1 << codeSize) - 1
        var nextCode = clearCode + 2
        var previous = -1
        var written = 0
        var accumulator: UInt64 = 0
        var bitCount = 0
        var position = 0

        while written < capacity {
            if bitCount < codeSize {
                if inputCount - position >= 8 {
                    let word = src.loadUnaligned(fromByteOffset: position, as: UInt64.self).littleEndian
                    accumulator |= word << UInt64(bitCount)
                    let taken = (63 - bitCount) >> 3
                    position += taken
                    bitCount += taken << 3
                } else {
                    while bitCount < codeSize && position < inputCount {
                        accumulator |= UInt64(src.load(fromByteOffset: position, as: UInt8.self)) << UInt64(bitCount)
                        position += 1
                        bitCount += 8
                    }
                    if bitCount < codeSize { break }  // the data ended early
                }
            }
            let code = Int(truncatingIfNeeded: accumulator) & codeMask
            accumulator >>= UInt64(codeSize)
            bitCount -= codeSize

            if code == clearCode {
                codeSize = minCodeSize + 1
                codeMask = (1 << codeSize) - 1
                nextCode = clearCode + 2
                previous = -1
                continue
            }
            if code == endCode { break }
            if previous < 0 {
                guard code < clearCode else { break }
                out[written] = UInt8(truncatingIfNeeded: code)
                written += 1
                previous = code
                continue
            }
            guard code <= nextCode, code < Self.tableSize else { break }
            if nextCode < Self.tableSize {
                // The new entry is the previous string plus the first byte of this one; for
                // the not-yet-defined code (KwKwK) that first byte is the previous string's.
                let last = code < nextCode ? first[code] : first[previous]
                prefix[nextCode] = UInt16(truncatingIfNeeded: previous)
                suffix[nextCode] = last
                first[nextCode] = first[previous]
                length[nextCode] = length[previous] &+ 1
                nextCode += 1
                if nextCode > codeMask && codeSize < 12 {
                    codeSize += 1
                    codeMask = (1 << codeSize) - 1
                }
            }
            previous = code
            let count = Int(length[code])
            if count == 1 {
                out[written] = suffix[code]
                written += 1
                continue
            }
            var entry = code
            var skip = 0
            if count > capacity - written { skip = count - (capacity - written) }
            // Walk the chain from the string's end; entries past the output's end are skipped.
            for _ in 0..<skip { entry = Int(prefix[entry]) }
            var index = written + count - skip - 1
            while index >= written {
                out[index] = suffix[entry]
                entry = Int(prefix[entry])
                index -= 1
            }
            written += count - skip
        }
        return written
    }
}
