extension Image {
    /// The image's [ThumbHash](https://evanw.github.io/thumbhash/): about 25 bytes from which a
    /// blurred placeholder with the image's aspect ratio and alpha can be drawn.
    ///
    /// The image is analysed as shown (``orientation`` applied), first shrunk with an area
    /// average to fit 100×100 pixels, as the format asks. Translucent pixels are composited over
    /// the image's average visible colour, and an image with any pixel that is not opaque gets
    /// the format's alpha channel. See ``thumbHashHexString()`` for the text imgproxy returns.
    public func thumbHash() -> [UInt8] {
        let bitmap = AnalysisInput.upright(self, fittingWithin: 100)
        return ThumbHashEncoding.hash(bitmap)
    }

    /// ``thumbHash()`` as uppercase hexadecimal, two digits a byte: the form of the `thumb_hash`
    /// field in imgproxy's `/info` responses (ThumbHash's own demo shows base64 instead).
    public func thumbHashHexString() -> String {
        let digits = Array("0123456789ABCDEF".utf8)
        var text: [UInt8] = []
        for byte in thumbHash() {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 15)])
        }
        return String(decoding: text, as: UTF8.self)
    }
}
