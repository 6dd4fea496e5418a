internal import CLibXML2
import Contracts

/// Copies a libxml2 tree into `MarkupElement`s without recursion, so no document can exhaust the stack.
struct TreeBuilder {
    let documentName: String
    let limits: MarkupLimits
    let attributeSelection: AttributeSelection
    let html: Bool
    private(set) var warnings: [String] = []
    private var elementCount = 0
    private var textBytes = 0
    private var flattened = 0
    private var skippedEntities = 0
    /// The namespace URIs met last, by libxml2's string: elements and attributes share the few a
    /// document declares (one `String` each instead of one per element). At most
    /// `namespaceCacheSize`: a declaration repeated on every `<math>` is a new libxml2 string each
    /// time, with the same URI.
    private var namespaceURIs: [(pointer: UnsafePointer<xmlChar>, uri: String)] = []
    private static let namespaceCacheSize = 8
    /// Whether an attribute is kept, by libxml2's string for its name: a parser interns names, so
    /// the few a document uses are decided once each. At most `decisionCacheSize`.
    private var attributeDecisions: [(name: UnsafePointer<xmlChar>, keep: Bool)] = []
    /// Element names by libxml2's string, likewise (at most `decisionCacheSize`).
    private var elementNames: [(pointer: UnsafePointer<xmlChar>, name: String)] = []
    private static let decisionCacheSize = 32

    init(documentName: String, limits: MarkupLimits, attributes: AttributeSelection, html: Bool) {
        self.documentName = documentName
        self.limits = limits
        self.attributeSelection = attributes
        self.html = html
    }

    private struct Frame {
        var name: String
        var namespace: String?
        var attributes: [MarkupAttribute]
        var line: Int
        var children: [MarkupNode] = []
        var pendingText = ""
        var next: xmlNodePtr?

        mutating func flushText() {
            if !pendingText.isEmpty {
                children.append(.text(pendingText))
                pendingText = ""
            }
        }
    }

    mutating func build(_ root: xmlNodePtr) throws -> MarkupElement {
        var stack: [Frame] = [try frame(for: root)]
        while true {
            let depth = stack.count
            if let child = stack[depth - 1].next {
                stack[depth - 1].next = child.pointee.next
                switch child.pointee.type {
                case XML_ELEMENT_NODE:
                    if depth >= limits.maxDepth {
                        var text = ""
                        try collectText(below: child, into: &text)
                        stack[depth - 1].pendingText += text
                        flattened += 1
                    } else {
                        stack[depth - 1].flushText()
                        stack.append(try frame(for: child))
                    }
                case XML_TEXT_NODE, XML_CDATA_SECTION_NODE:
                    try appendText(of: child, to: &stack[depth - 1].pendingText)
                case XML_ENTITY_REF_NODE:
                    skippedEntities += 1
                default:
                    break
                }
                continue
            }
            var finished = stack.removeLast()
            finished.flushText()
            let element = MarkupElement(
                name: finished.name, namespace: finished.namespace, attributes: finished.attributes,
                children: finished.children, line: finished.line)
            if stack.isEmpty {
                if flattened > 0 {
                    warnings.append(
                        "nesting deeper than \(limits.maxDepth) levels flattened into text (\(Counts.of(flattened, "subtree")))"
                    )
                }
                if skippedEntities > 0 {
                    warnings.append("\(Counts.of(skippedEntities, "entity reference")) not expanded")
                }
                return element
            }
            stack[stack.count - 1].children.append(.element(element))
        }
    }

    private mutating func frame(for node: xmlNodePtr) throws -> Frame {
        elementCount += 1
        if elementCount > limits.maxElements {
            throw MarkupError.limitExceeded(document: documentName, what: "more than \(limits.maxElements) elements")
        }
        var name = ""
        if let pointer = node.pointee.name { name = elementName(pointer) }
        let namespace = namespaceURI(node.pointee.ns)
        var attributes: [MarkupAttribute] = []
        var attribute = node.pointee.properties
        while let current = attribute {
            if keeps(current) {
                attributes.append(try makeAttribute(current))
            } else {
                try countText(of: current)
            }
            attribute = current.pointee.next
        }
        var frame = Frame(
            name: name, namespace: namespace, attributes: attributes, line: Int(xmlGetLineNo(node)),
            next: node.pointee.children)
        frame.children.reserveCapacity(Self.childCount(node))
        return frame
    }

    /// libxml2's children of `node`: at most as many children as the element gets (text nodes
    /// side by side make one), counted so that the array is allocated once.
    private static func childCount(_ node: xmlNodePtr) -> Int {
        var count = 0
        var child = node.pointee.children
        while let current = child {
            count += 1
            child = current.pointee.next
        }
        return count
    }

    private mutating func makeAttribute(_ attribute: xmlAttrPtr) throws -> MarkupAttribute {
        var name = attribute.pointee.name.map { String(cString: $0) } ?? ""
        var namespace = namespaceURI(attribute.pointee.ns)
        if namespace == nil, let colon = name.firstIndex(of: ":") {
            // The HTML parser keeps prefixes in the name; give the two that matter their namespaces back.
            switch name[..<colon] {
            case "epub":
                namespace = Namespace.epub
                name = String(name[name.index(after: colon)...])
            case "xml":
                namespace = Namespace.xml
                name = String(name[name.index(after: colon)...])
            default:
                break
            }
        }
        var value = ""
        var child = attribute.pointee.children
        while let current = child {
            if current.pointee.type == XML_TEXT_NODE { try appendText(of: current, to: &value) }
            child = current.pointee.next
        }
        return MarkupAttribute(name: name, namespace: namespace, value: value)
    }

    /// An element's name, made once for each of libxml2's interned names.
    private mutating func elementName(_ pointer: UnsafePointer<xmlChar>) -> String {
        if let known = elementNames.first(where: { $0.pointer == pointer }) { return known.name }
        let name = String(cString: pointer)
        if elementNames.count < Self.decisionCacheSize { elementNames.append((pointer, name)) }
        return name
    }

    private mutating func keeps(_ attribute: xmlAttrPtr) -> Bool {
        guard attributeSelection.names != nil, let name = attribute.pointee.name else { return true }
        if let known = attributeDecisions.first(where: { $0.name == name }) { return known.keep }
        let keep = attributeSelection.keeps(String(cString: name))
        if attributeDecisions.count < Self.decisionCacheSize { attributeDecisions.append((name, keep)) }
        return keep
    }

    /// Counts a dropped attribute's value against the text limit, as if it were kept.
    private mutating func countText(of attribute: xmlAttrPtr) throws {
        var child = attribute.pointee.children
        while let current = child {
            if current.pointee.type == XML_TEXT_NODE, let content = current.pointee.content {
                try count(bytes: Int(strlen(UnsafeRawPointer(content).assumingMemoryBound(to: CChar.self))))
            }
            child = current.pointee.next
        }
    }

    private mutating func count(bytes: Int) throws {
        textBytes += bytes
        if textBytes > limits.maxTextBytes {
            throw MarkupError.limitExceeded(
                document: documentName, what: "more than \(limits.maxTextBytes) bytes of text")
        }
    }

    private mutating func namespaceURI(_ namespace: xmlNsPtr?) -> String? {
        guard let href = namespace?.pointee.href else { return nil }
        if let known = namespaceURIs.first(where: { $0.pointer == href }) { return known.uri }
        let uri = namespaceURIs.first(where: { strcmp($0.pointer, href) == 0 })?.uri ?? String(cString: href)
        if namespaceURIs.count == Self.namespaceCacheSize { namespaceURIs.removeFirst() }
        namespaceURIs.append((href, uri))
        return uri
    }

    private mutating func appendText(of node: xmlNodePtr, to text: inout String) throws {
        guard let content = node.pointee.content else { return }
        let length = Int(strlen(UnsafeRawPointer(content).assumingMemoryBound(to: CChar.self)))
        try count(bytes: length)
        let run = String(decoding: UnsafeBufferPointer(start: content, count: length), as: UTF8.self)
        if text.isEmpty { text = run } else { text += run }  // most runs are a whole text node
    }

    /// All text below `subtree`, in document order, walking sibling and parent links (no stack at all).
    private mutating func collectText(below subtree: xmlNodePtr, into text: inout String) throws {
        var node = subtree.pointee.children
        while let current = node {
            switch current.pointee.type {
            case XML_TEXT_NODE, XML_CDATA_SECTION_NODE:
                try appendText(of: current, to: &text)
            case XML_ELEMENT_NODE:
                elementCount += 1
                if elementCount > limits.maxElements {
                    throw MarkupError.limitExceeded(
                        document: documentName, what: "more than \(limits.maxElements) elements")
                }
                if let first = current.pointee.children {
                    node = first
                    continue
                }
            default:
                break
            }
            // Next in document order: a sibling, else the nearest ancestor's sibling, stopping at the subtree.
            var cursor: xmlNodePtr? = current
            node = nil
            while let up = cursor, up != subtree {
                if let sibling = up.pointee.next {
                    node = sibling
                    break
                }
                cursor = up.pointee.parent
            }
        }
    }
}

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif
