import Foundation

extension ImageMetadata {
    /// The properties of the ``xmp`` packet grouped by namespace prefix, as imgproxy's `/info`
    /// endpoint reports them: `["dc": ["creator": .list([.text("Peter B. Parker")]),
    /// "format": .text("image/jpeg")]]`. Empty when there is no packet.
    ///
    /// Reads the properties of each top-level `rdf:Description`, written as elements or as its
    /// attributes. A simple property is its text (or its `rdf:resource` URI); an `rdf:Seq` or
    /// `rdf:Bag` is a list of its items; an `rdf:Alt` (a localized text) is its `x-default`
    /// item, else its first. Structures (`rdf:parseType="Resource"`, a nested description, and
    /// array items that are structures) are skipped: their fields have no flat name. Entities
    /// and character references are decoded. Properties are grouped by the prefix the packet
    /// writes (`dc`, `exif`, `photoshop`); when several descriptions give a property, the first
    /// wins.
    ///
    /// Any bytes are safe to pass: the read is a tolerant scan rather than a validating parse,
    /// so malformed or truncated XML gives the properties read before the damage, and the work is
    /// bounded (16 MiB of packet, 100,000 elements, nesting 64 deep).
    public func xmpProperties() -> [String: [String: MetadataValue]] {
        guard let xmp else { return [:] }
        return XMPProperties.read(xmp)
    }
}
