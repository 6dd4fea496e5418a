extension MarkupElement {
    /// The value of the attribute `name` in `namespace` (nil: an unprefixed attribute).
    ///
    /// Also finds attributes the HTML parser left with their prefix in the name: asking for `type`
    /// in `Namespace.epub` finds a plain `epub:type`, and `lang` in `Namespace.xml` a plain `xml:lang`.
    public func attribute(_ name: String, namespace: String? = nil) -> String? {
        if let found = attributes.first(where: { $0.name == name && $0.namespace == namespace }) {
            return found.value
        }
        guard let namespace else { return nil }
        let prefix: String
        switch namespace {
        case Namespace.epub: prefix = "epub"
        case Namespace.xml: prefix = "xml"
        case Namespace.opf: prefix = "opf"
        default: return nil
        }
        let prefixed = "\(prefix):\(name)"
        return attributes.first { $0.name == prefixed && $0.namespace == nil }?.value
    }

    /// Child elements, in order (text children skipped).
    public var elements: [MarkupElement] {
        children.compactMap { node in
            if case .element(let element) = node { return element }
            return nil
        }
    }

    /// All elements below this one in document order (pre-order), not including itself.
    /// Iterative: safe for any depth.
    public var descendants: [MarkupElement] {
        var result: [MarkupElement] = []
        var stack: [MarkupElement] = elements.reversed()
        while let next = stack.popLast() {
            result.append(next)
            stack.append(contentsOf: next.elements.reversed())
        }
        return result
    }

    /// All text below this element concatenated in document order, as written (whitespace kept).
    public var textContent: String {
        var text = ""
        var stack: [MarkupNode] = children.reversed()
        while let node = stack.popLast() {
            switch node {
            case .text(let run): text += run
            case .element(let element): stack.append(contentsOf: element.children.reversed())
            }
        }
        return text
    }

    /// True when the element has this local name (and this namespace, when one is given).
    public func isNamed(_ name: String, namespace: String? = nil) -> Bool {
        self.name == name && (namespace == nil || self.namespace == namespace)
    }

    /// The first descendant (pre-order) with this local name and, when given, namespace.
    public func first(named name: String, namespace: String? = nil) -> MarkupElement? {
        var stack: [MarkupElement] = elements.reversed()
        while let next = stack.popLast() {
            if next.isNamed(name, namespace: namespace) { return next }
            stack.append(contentsOf: next.elements.reversed())
        }
        return nil
    }

    /// All descendants (pre-order) with this local name and, when given, namespace.
    public func all(named name: String, namespace: String? = nil) -> [MarkupElement] {
        descendants.filter { $0.isNamed(name, namespace: namespace) }
    }

    /// The first child element (not deeper) with this local name and, when given, namespace.
    public func child(named name: String, namespace: String? = nil) -> MarkupElement? {
        elements.first { $0.isNamed(name, namespace: namespace) }
    }

    /// The child elements (not deeper) with this local name and, when given, namespace.
    public func children(named name: String, namespace: String? = nil) -> [MarkupElement] {
        elements.filter { $0.isNamed(name, namespace: namespace) }
    }
}
