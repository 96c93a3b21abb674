#if Server
    import WebImage

    extension ImageBitmap {
        /// Each `block`×`block` square, counted from the top-left corner, replaced by its average
        /// (channels rounded half up, alpha straight, as imgproxy averages them). Squares cut by the
        /// right or bottom edge are averaged as if the image went on mirrored past it. A block of 1
        /// or less changes nothing, and one larger than the longer side is that side.
        func pixelated(block requested: Int) -> ImageBitmap {
            let block = min(requested, max(width, height))
            guard block > 1 else { return self }
            let (width, height) = (self.width, self.height)
            // The source column or row a position past the edge mirrors (the edge pixel repeated).
            func mirrored(_ index: Int, _ count: Int) -> Int {
                index < count ? index : max(0, 2 * count - 1 - index)
            }
            return pixels.withUnsafeBufferPointer { source in
                ImageBitmap(width: width, height: height) { out in
                    let area = UInt32(block * block)
                    for blockY in stride(from: 0, to: height, by: block) {
                        for blockX in stride(from: 0, to: width, by: block) {
                            var sums: (UInt32, UInt32, UInt32, UInt32) = (0, 0, 0, 0)
                            for dy in 0..<block {
                                let row = mirrored(blockY + dy, height) * width
                                for dx in 0..<block {
                                    let at = (row + mirrored(blockX + dx, width)) * 4
                                    sums.0 += UInt32(source[at])
                                    sums.1 += UInt32(source[at + 1])
                                    sums.2 += UInt32(source[at + 2])
                                    sums.3 += UInt32(source[at + 3])
                                }
                            }
                            let average: [UInt8] = [sums.0, sums.1, sums.2, sums.3].map {
                                UInt8(truncatingIfNeeded: ($0 + area / 2) / area)
                            }
                            for y in blockY..<min(blockY + block, height) {
                                for x in blockX..<min(blockX + block, width) {
                                    let at = (y * width + x) * 4
                                    out[at] = average[0]
                                    out[at + 1] = average[1]
                                    out[at + 2] = average[2]
                                    out[at + 3] = average[3]
                                }
                            }
                        }
                    }
                }
            }
        }
    }
#endif
