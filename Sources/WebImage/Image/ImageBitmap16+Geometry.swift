extension ImageBitmap16 {
    /// The bitmap turned so that it shows upright, given the orientation its pixels are stored in
    /// (the same exact permutation as ``ImageBitmap/applyingOrientation(_:)``).
    public func applyingOrientation(_ orientation: ImageOrientation) -> ImageBitmap16 {
        if orientation == .up { return self }
        let outWidth = orientation.swapsDimensions ? height : width
        let outHeight = orientation.swapsDimensions ? width : height
        return ImageBitmap16(unchecked: outWidth, outHeight) { destination in
            pixels.withUnsafeBytes { source in
                orientation.permute(
                    source.bindMemory(to: UInt64.self),
                    into: UnsafeMutableRawBufferPointer(destination).bindMemory(to: UInt64.self), width: width,
                    height: height)
            }
        }
    }

    /// The pixels inside `rect`, which must lie within the bitmap and have a positive size
    /// (else ``WebImageError/invalidArgument(_:underlying:)``).
    public func cropped(to rect: PixelRect) throws(WebImageError) -> ImageBitmap16 {
        try rect.checkCrop(of: size)
        if rect.x == 0, rect.y == 0, rect.size == size { return self }
        return ImageBitmap16(unchecked: rect.width, rect.height) { destination in
            pixels.withUnsafeBufferPointer { source in
                let rowValues = rect.width * 4
                for row in 0..<rect.height {
                    let from = ((rect.y + row) * width + rect.x) * 4
                    (destination.baseAddress! + row * rowValues).initialize(
                        from: source.baseAddress! + from, count: rowValues)
                }
            }
        }
    }

    /// This bitmap on a transparent canvas of `canvas` pixels with its top left corner at `x`,
    /// `y` (which may be negative); what falls outside the canvas is cut off. Throws
    /// ``WebImageError/invalidArgument(_:underlying:)`` or
    /// ``WebImageError/imageTooLarge(width:height:limit:)`` for a canvas that is empty or too large.
    public func placed(on canvas: PixelSize, x: Int, y: Int) throws(WebImageError) -> ImageBitmap16 {
        try TransformSupport.checkResultSize(canvas, "canvas")
        let fromX = min(max(0, -x), width)
        let toX = max(fromX, min(width, canvas.width - x))
        let fromY = min(max(0, -y), height)
        let toY = max(fromY, min(height, canvas.height - y))
        return ImageBitmap16(unchecked: canvas.width, canvas.height) { destination in
            destination.initialize(repeating: 0)
            guard toX > fromX else { return }
            pixels.withUnsafeBufferPointer { source in
                for row in fromY..<toY {
                    let from = (row * width + fromX) * 4
                    let to = ((row + y) * canvas.width + fromX + x) * 4
                    (destination.baseAddress! + to).update(from: source.baseAddress! + from, count: (toX - fromX) * 4)
                }
            }
        }
    }

    /// This bitmap centred on a transparent canvas of `canvas` pixels, the offset rounded down as
    /// ``ImageBitmap``'s quarter-turn rotation places it.
    func placedCentred(on canvas: PixelSize) throws(WebImageError) -> ImageBitmap16 {
        try placed(on: canvas, x: (canvas.width - width) >> 1, y: (canvas.height - height) >> 1)
    }

    /// A bitmap of a size already checked (positive, within the pixel limit) whose values `body`
    /// writes, every one of them.
    init(unchecked width: Int, _ height: Int, body: (UnsafeMutableBufferPointer<UInt16>) -> Void) {
        self.width = width
        self.height = height
        let count = width * height * 4
        pixels = [UInt16](unsafeUninitializedCapacity: count) { buffer, initialized in
            body(buffer)
            initialized = count
        }
    }
}
