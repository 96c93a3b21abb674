import Foundation

/// The properties of an XMP packet, grouped by namespace prefix, as imgproxy's `/info`
/// endpoint reports them (`{"dc": {"creator": ["…"], "format": "image/jpeg"}}`).
enum XMPProperties {
    /// The most bytes of a packet read; the rest is ignored.
    static let maxPacketBytes = 16 << 20
    /// Prefixes of XML and RDF syntax rather than of properties.
    private static let syntaxPrefixes: Set<Substring> = ["rdf", "xml", "xmlns"]

    /// The properties of every top-level `rdf:Description` in `packet`; the first value of a
    /// property wins when several descriptions repeat it.
    static func read(_ packet: Data) -> [String: [String: MetadataValue]] {
        let tree = XMLTree(parsing: Array(packet.prefix(maxPacketBytes)))
        var properties: [String: [String: MetadataValue]] = [:]
        func add(_ name: String, _ value: MetadataValue?) {
            guard let value, let (prefix, local) = split(name), properties[prefix]?[local] == nil else { return }
            properties[prefix, default: [:]][local] = value
        }
        for rdf in tree.nodes where rdf.name == "rdf:RDF" {
            for index in rdf.children where tree[index].name == "rdf:Description" {
                let description = tree[index]
                for attribute in description.attributes { add(attribute.name, .text(attribute.value)) }
                for property in description.children { add(tree[property].name, value(of: tree[property], in: tree)) }
            }
        }
        return properties
    }

    /// `prefix:name` split in two; nil without a prefix or for an RDF or XML syntax name.
    private static func split(_ name: String) -> (String, String)? {
        guard let colon = name.firstIndex(of: ":") else { return nil }
        let prefix = name[..<colon]
        let local = name[name.index(after: colon)...]
        guard !prefix.isEmpty, !local.isEmpty, !syntaxPrefixes.contains(prefix) else { return nil }
        return (String(prefix), String(local))
    }

    /// A property element's value: its text or `rdf:resource`; an `rdf:Seq` or `rdf:Bag` as a
    /// list of its items; an `rdf:Alt` as its `x-default` item, else its first. Nil for a
    /// structure (`rdf:parseType`, a nested `rdf:Description`, fields as elements or as
    /// attributes), which has no flat form.
    private static func value(of property: XMLTree.Node, in tree: XMLTree) -> MetadataValue? {
        if let resource = property.attribute("rdf:resource") { return .text(resource) }
        guard property.attribute("rdf:parseType") == nil else { return nil }
        guard let only = property.children.first else {
            let hasFields = property.attributes.contains { split($0.name) != nil }
            return hasFields ? nil : .text(property.text)
        }
        guard property.children.count == 1 else { return nil }
        let container = tree[only]
        let items = container.children.map { tree[$0] }.filter { $0.name == "rdf:li" }
        switch container.name {
        case "rdf:Seq", "rdf:Bag":
            return .list(items.compactMap(itemText).map(MetadataValue.text))
        case "rdf:Alt":
            let chosen = items.first { $0.attribute("xml:lang") == "x-default" } ?? items.first
            return chosen.flatMap(itemText).map(MetadataValue.text)
        default:
            return nil
        }
    }

    /// An `rdf:li`'s text, or nil when the item is a structure.
    private static func itemText(_ item: XMLTree.Node) -> String? {
        if let resource = item.attribute("rdf:resource") { return resource }
        guard item.children.isEmpty, item.attribute("rdf:parseType") == nil else { return nil }
        return item.text
    }
}
