/// The elements of an XML document as a tree of nodes in one array, built from ``XMLScanner``'s
/// tokens with bounded depth and size.
///
/// Tolerant: an end tag closes the nearest open element of its name (and the elements left open
/// inside it); an end tag that closes nothing is ignored; elements still open at the end of the
/// input are kept as read. Elements nested deeper than ``maxDepth`` are skipped with their
/// contents, and reading stops after ``maxNodes`` elements.
struct XMLTree {
    struct Node {
        var name: String
        var attributes: [XMLScanner.Attribute]
        /// Indices of the child elements, in order.
        var children: [Int] = []
        /// The text directly inside the element, entities decoded.
        var text = ""

        /// The value of the attribute `name`.
        func attribute(_ name: String) -> String? { attributes.first { $0.name == name }?.value }
    }

    static let maxDepth = 64
    static let maxNodes = 100_000

    /// Every element; node 0 is a root that holds the top-level ones.
    private(set) var nodes = [Node(name: "", attributes: [])]

    init(parsing bytes: [UInt8]) {
        var scanner = XMLScanner(bytes)
        var open = [0]  // the indices of the elements open, innermost last
        var skippedDepth = 0  // elements open inside a skipped one
        while let token = scanner.next() {
            switch token {
            case .start(let name, let attributes, let selfClosing):
                if skippedDepth > 0 || open.count > Self.maxDepth {
                    if !selfClosing { skippedDepth += 1 }
                    continue
                }
                guard nodes.count < Self.maxNodes else { return }
                let index = nodes.count
                nodes.append(Node(name: name, attributes: attributes))
                nodes[open[open.count - 1]].children.append(index)
                if !selfClosing { open.append(index) }
            case .end(let name):
                if skippedDepth > 0 {
                    skippedDepth -= 1
                } else if let match = open.lastIndex(where: { $0 != 0 && nodes[$0].name == name }) {
                    open.removeSubrange(match...)
                }
            case .text(let text):
                if skippedDepth == 0 { nodes[open[open.count - 1]].text += text }
            }
        }
    }

    subscript(index: Int) -> Node { nodes[index] }
}
