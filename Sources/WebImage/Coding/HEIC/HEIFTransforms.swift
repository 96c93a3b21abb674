#if HEIC
    /// Reads the rotation (`irot`) and mirroring (`imir`) properties of one item straight from the
    /// HEIF container, because libheif 1.15 applies them while decoding but does not report them.
    ///
    /// Only called on files libheif has parsed already; every read is bounds-checked, and anything
    /// malformed counts as no transformation.
    enum HEIFTransforms {
        /// The EXIF orientation equivalent to item `itemID`'s `irot` and `imir` properties, applied
        /// in the order its `ipma` entry lists them.
        static func orientation(ofItem itemID: UInt32, in bytes: UnsafeRawBufferPointer) -> ImageOrientation {
            let reader = BoxReader(bytes: bytes)
            guard let meta = reader.children(of: 0..<bytes.count).first(where: { $0.type == "meta" }),
                meta.payload.count >= 4,
                let iprp = reader.children(of: meta.payload.dropFirst(4)).first(where: { $0.type == "iprp" })
            else { return .up }
            let properties = reader.children(of: iprp.payload)
            guard let ipco = properties.first(where: { $0.type == "ipco" }) else { return .up }
            let list = reader.children(of: ipco.payload)
            var orientation = ImageOrientation.up
            for ipma in properties where ipma.type == "ipma" {
                for index in reader.associations(of: itemID, in: ipma.payload) where index >= 1 && index <= list.count {
                    let property = list[index - 1]
                    guard let first = property.payload.first.map({ bytes[$0] }) else { continue }
                    switch property.type {
                    case "irot": orientation = orientation.followed(by: [.up, .left, .down, .right][Int(first & 3)])
                    case "imir": orientation = orientation.followed(by: first & 1 == 0 ? .downMirrored : .upMirrored)
                    default: break
                    }
                }
            }
            return orientation
        }
    }

    /// ISO BMFF boxes over a byte buffer.
    private struct BoxReader {
        struct Box {
            let type: String
            let payload: Range<Int>
        }

        let bytes: UnsafeRawBufferPointer

        func uint(_ offset: Int, _ length: Int) -> UInt64? {
            guard offset >= 0, length <= 8, offset + length <= bytes.count else { return nil }
            return (offset..<offset + length).reduce(0) { $0 << 8 | UInt64(bytes[$1]) }
        }

        /// The boxes one after another in `range`, up to the first malformed header.
        func children(of range: Range<Int>) -> [Box] {
            var boxes: [Box] = []
            var offset = range.lowerBound
            while offset + 8 <= range.upperBound, let size32 = uint(offset, 4) {
                var header = 8
                var size = Int(size32)
                if size32 == 1 {
                    guard let large = uint(offset + 8, 8), large <= UInt64(Int.max) else { break }
                    header = 16
                    size = Int(large)
                } else if size32 == 0 {
                    size = range.upperBound - offset
                }
                guard size >= header, size <= range.upperBound - offset else { break }
                let type = String(decoding: (offset + 4..<offset + 8).map { bytes[$0] }, as: UTF8.self)
                boxes.append(Box(type: type, payload: offset + header..<offset + size))
                offset += size
            }
            return boxes
        }

        /// The 1-based property indices `ipma` associates with `itemID`, in order.
        func associations(of itemID: UInt32, in ipma: Range<Int>) -> [Int] {
            guard let versionAndFlags = uint(ipma.lowerBound, 4), let entries = uint(ipma.lowerBound + 4, 4) else {
                return []
            }
            let idLength = versionAndFlags >> 24 < 1 ? 2 : 4
            let indexLength = versionAndFlags & 1 == 1 ? 2 : 1
            var offset = ipma.lowerBound + 8
            for _ in 0..<entries {
                guard offset + idLength + 1 <= ipma.upperBound, let id = uint(offset, idLength),
                    let count = uint(offset + idLength, 1)
                else { return [] }
                offset += idLength + 1
                let end = offset + Int(count) * indexLength
                guard end <= ipma.upperBound else { return [] }
                if id == itemID {
                    return stride(from: offset, to: end, by: indexLength).compactMap { at in
                        uint(at, indexLength).map { Int($0) & (indexLength == 2 ? 0x7FFF : 0x7F) }
                    }
                }
                offset = end
            }
            return []
        }
    }

    extension ImageOrientation {
        /// A 3×2 bitmap of distinct pixels: two orientations are the same transformation exactly
        /// when they turn it into the same bitmap.
        private static let probe: ImageBitmap = {
            var bitmap = ImageBitmap(width: 3, height: 2, fill: .clear)
            for index in 0..<6 { bitmap[index % 3, index / 3] = RGBA8(r: UInt8(index), g: 0, b: 0, a: 255) }
            return bitmap
        }()

        /// The orientation that turns pixels as `self` does and then as `next` does.
        func followed(by next: ImageOrientation) -> ImageOrientation {
            let turned = Self.probe.applyingOrientation(self).applyingOrientation(next)
            return Self.allCases.first { Self.probe.applyingOrientation($0) == turned } ?? .up
        }

        /// The orientation that undoes `self`.
        var inverse: ImageOrientation {
            Self.allCases.first { followed(by: $0) == .up } ?? .up
        }
    }
#endif
