/// One straight (non-premultiplied) RGBA pixel, 8 bits per channel.
public struct RGBA8: Hashable, Sendable {
    public var r: UInt8
    public var g: UInt8
    public var b: UInt8
    public var a: UInt8

    public init(r: UInt8, g: UInt8, b: UInt8, a: UInt8 = 255) {
        self.r = r
        self.g = g
        self.b = b
        self.a = a
    }

    public static let white = RGBA8(r: 255, g: 255, b: 255)
    public static let black = RGBA8(r: 0, g: 0, b: 0)
    public static let clear = RGBA8(r: 0, g: 0, b: 0, a: 0)
}
