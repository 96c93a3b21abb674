import WebImage

/// The kitty graphics protocol's transmit-and-display command for RGBA pixels.
///
/// `ESC _ G a=T,f=32,s=<width>,v=<height>,c=<columns>,r=<rows>,i=<id>,p=1,C=1,q=2,m=1;<base64> ESC \`
/// then `ESC _ G q=2,m=1;<base64> ESC \` chunks, the last with `m=0`: the pixels go base64-coded
/// in chunks of at most 4096 bytes, as the protocol requires. `C=1` keeps the cursor where it is
/// (the renderer moves it below the image itself) and `q=2` silences the terminal's replies, which
/// would otherwise arrive on standard input as if typed.
enum KittyEncoder {
    static let chunkSize = 4096

    static func encode(
        _ pixels: [UInt8], size: PixelSize, columns: Int, rows: Int, imageID: UInt32, into bytes: inout [UInt8]
    ) {
        let payload = Base64.encode(pixels)
        var offset = 0
        repeat {
            let end = min(offset + chunkSize, payload.count)
            bytes.append(contentsOf: [0x1B, UInt8(ascii: "_"), UInt8(ascii: "G")])
            if offset == 0 {
                let keys = "a=T,f=32,s=\(size.width),v=\(size.height),c=\(columns),r=\(rows),i=\(imageID),p=1,C=1,"
                bytes.append(contentsOf: keys.utf8)
            }
            bytes.append(contentsOf: (end < payload.count ? "q=2,m=1;" : "q=2,m=0;").utf8)
            bytes.append(contentsOf: payload[offset..<end])
            bytes.append(contentsOf: [0x1B, UInt8(ascii: "\\")])
            offset = end
        } while offset < payload.count
    }
}

/// Standard base64 with padding, written straight into bytes (Foundation's goes through `Data`
/// and `String`).
enum Base64 {
    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)

    static func encode(_ input: [UInt8]) -> [UInt8] {
        var output = [UInt8](repeating: UInt8(ascii: "="), count: (input.count + 2) / 3 * 4)
        input.withUnsafeBufferPointer { input in
            output.withUnsafeMutableBufferPointer { output in
                alphabet.withUnsafeBufferPointer { alphabet in
                    var i = 0
                    var o = 0
                    while i + 3 <= input.count {
                        let n = UInt32(input[i]) << 16 | UInt32(input[i + 1]) << 8 | UInt32(input[i + 2])
                        output[o] = alphabet[Int(n >> 18)]
                        output[o + 1] = alphabet[Int(n >> 12 & 63)]
                        output[o + 2] = alphabet[Int(n >> 6 & 63)]
                        output[o + 3] = alphabet[Int(n & 63)]
                        i += 3
                        o += 4
                    }
                    let rest = input.count - i
                    if rest > 0 {
                        let n = UInt32(input[i]) << 16 | (rest == 2 ? UInt32(input[i + 1]) << 8 : 0)
                        output[o] = alphabet[Int(n >> 18)]
                        output[o + 1] = alphabet[Int(n >> 12 & 63)]
                        if rest == 2 { output[o + 2] = alphabet[Int(n >> 6 & 63)] }
                    }
                }
            }
        }
        return output
    }
}
