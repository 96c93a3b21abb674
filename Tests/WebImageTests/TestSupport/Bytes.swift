/// Fixed-width integers as bytes, for tests that build files byte by byte (GIF and WebP are
/// little-endian, PNG and JPEG big-endian). Only the low bytes of `value` are kept.
func le16(_ value: Int) -> [UInt8] { [UInt8(value & 0xFF), UInt8((value >> 8) & 0xFF)] }
func le24(_ value: Int) -> [UInt8] { le16(value) + [UInt8((value >> 16) & 0xFF)] }
func le32(_ value: Int) -> [UInt8] { le24(value) + [UInt8((value >> 24) & 0xFF)] }
func be16(_ value: Int) -> [UInt8] { le16(value).reversed() }
func be32(_ value: Int) -> [UInt8] { le32(value).reversed() }
