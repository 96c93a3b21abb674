/// The `<use>` references of one SVG document, collected while its tags are read, to refuse the
/// two ways `<use>` can make unbounded work: a reference that leads back to itself (librsvg skips
/// such a `<use>` silently; this package refuses the document), and references that multiply
/// (ten `<use>` of a group of ten `<use>` of …, SVG's own billion laughs).
struct SVGUseGraph {
    /// Deeper documents are refused: real drawings nest far less, and each open element costs
    /// the references below it once.
    static let maxDepth = 256
    /// The most elements all `<use>` references together may stand for.
    static let maxInstances = 100_000
    /// The most references the graph records (each is recorded once for every element with an
    /// id around it), so that checking a document costs bounded memory.
    static let maxRecorded = 1_000_000

    /// Elements never drawn where they stand, only when referred to: `<use>` references inside
    /// them count only through the element that refers to them.
    static let undrawnContainers: Set<String> = [
        "defs", "symbol", "clipPath", "mask", "pattern", "marker", "filter", "linearGradient", "radialGradient",
    ]

    private struct OpenElement {
        var id: String?
        var isDrawn = true
        /// The elements referred to by `<use>` elements inside this one (itself included).
        var targets: [String] = []
    }

    private var open: [OpenElement] = []
    /// Each element with an id: the `<use>` targets inside it (the first element with an id counts).
    private var targetsByID: [String: [String]] = [:]
    private var roots: [String] = []
    private var recorded = 0

    /// Notes a start tag: its `id`, and for a `<use>`, its same-document target (`#name`).
    mutating func start(name: String, id: String?, useTarget: String?, isEmpty: Bool) throws(WebImageError) {
        var element = OpenElement(id: id, isDrawn: !Self.undrawnContainers.contains(name))
        if let useTarget { element.targets.append(useTarget) }
        open.append(element)
        guard open.count <= Self.maxDepth else {
            throw SVGEntities.refused("its elements nest more than \(Self.maxDepth) deep")
        }
        if isEmpty { try end() }
    }

    /// Notes an end tag (an end tag with no open element is left to the XML reader to refuse).
    mutating func end() throws(WebImageError) {
        guard let element = open.popLast() else { return }
        if let id = element.id, targetsByID[id] == nil {
            targetsByID[id] = element.targets
            recorded += element.targets.count
            guard recorded <= Self.maxRecorded else {
                throw SVGEntities.refused("it has more <use> references than can be checked")
            }
        }
        guard element.isDrawn else { return }
        if open.isEmpty {
            roots += element.targets
        } else {
            open[open.count - 1].targets += element.targets
        }
    }

    /// Throws when a reference leads back to an element it is in, or when the references
    /// stand for more than ``maxInstances`` elements.
    func check() throws(WebImageError) {
        var instances: [String: Int] = [:]
        var onPath: Set<String> = []
        // Depth-first, without recursion: each frame is an id and the index of its next target.
        for root in Set(roots) {
            var stack: [(id: String, next: Int, count: Int)] = []
            func enter(_ id: String) throws(WebImageError) -> Bool {
                if instances[id] != nil { return false }
                guard !onPath.contains(id) else {
                    throw SVGEntities.refused("a <use> refers to an element it is inside (#\(id.prefix(40)))")
                }
                onPath.insert(id)
                stack.append((id, 0, 1))
                return true
            }
            _ = try enter(root)
            while let top = stack.last {
                let targets = targetsByID[top.id] ?? []
                if top.next < targets.count {
                    stack[stack.count - 1].next += 1
                    let target = targets[top.next]
                    if try !enter(target) {
                        stack[stack.count - 1].count = try Self.adding(instances[target] ?? 0, to: top.count)
                    }
                    continue
                }
                stack.removeLast()
                onPath.remove(top.id)
                instances[top.id] = top.count
                if !stack.isEmpty {
                    stack[stack.count - 1].count = try Self.adding(top.count, to: stack[stack.count - 1].count)
                }
            }
        }
        var total = 0
        for root in roots { total = try Self.adding(instances[root] ?? 0, to: total) }
    }

    private static func adding(_ count: Int, to sum: Int) throws(WebImageError) -> Int {
        let (total, overflow) = sum.addingReportingOverflow(count)
        guard !overflow, total <= maxInstances else { throw tooMany }
        return total
    }

    private static var tooMany: WebImageError {
        SVGEntities.refused("its <use> references stand for more than \(maxInstances) elements")
    }
}
