internal import CLibXML2

/// A node of an `EditableMarkup` document: a handle valid for the life of its document.
public struct EditableNode: Hashable, Sendable {
    let index: Int
}

/// A text node of an `EditableMarkup` document and its text, as the document holds it.
public struct EditableTextRun: Hashable, Sendable {
    /// The text node.
    public let node: EditableNode
    /// Its text (entities resolved).
    public let text: String
}

/// An XML document parsed into libxml2's own tree, to be changed in place and written back: what a
/// copy of a book needs (a content document whose sentences get `<span>`s, a package document that
/// gets new items), where `MarkupParser`'s immutable tree is what a reader needs.
///
/// Parsed as `MarkupParser.parseXML` parses (network off, no DTD loaded, no entity expanded: an
/// internal DTD subset is removed and HTML named entities become characters, see `EntityPrepass`),
/// so what is written back is the document as read, in UTF-8, with those entities resolved; comments,
/// CDATA sections, processing instructions and the document type declaration are kept.
///
/// Owns one `xmlDoc` and frees it in `deinit`. Not `Sendable`: one document is edited by one task.
public final class EditableMarkup {
    /// The document's path inside the book, for messages.
    public let documentName: String
    /// What the parser had to say (an internal DTD subset dropped, unknown entities).
    public let warnings: [String]
    private let document: xmlDocPtr
    /// Every node handed out, by `EditableNode.index`; nodes are never freed before the document.
    private var nodes: [xmlNodePtr] = []

    /// Parses a well-formed XML document for editing.
    /// - Throws: `MarkupError.malformed` with libxml2's first error, `.limitExceeded` (size),
    ///   `.empty`.
    public init(xml bytes: [UInt8], documentName: String, limits: MarkupLimits = .default) throws {
        if bytes.count > limits.maxDocumentBytes {
            throw MarkupError.limitExceeded(
                document: documentName, what: "\(bytes.count) bytes (limit \(limits.maxDocumentBytes))")
        }
        let decoded = TextEncoding.toUTF8(bytes, lookForMetaCharset: false)
        let rewritten = EntityPrepass.rewrite(
            decoded.utf8, maxDepth: min(limits.maxDepth, MarkupParser.libxml2MaxDepth))
        let collector = ErrorCollector()
        let context = Unmanaged.passRetained(collector)
        defer { context.release() }
        xmlSetStructuredErrorFunc(context.toOpaque(), collectError)
        defer { xmlSetStructuredErrorFunc(nil, nil) }
        let parsed: xmlDocPtr? = rewritten.bytes.withUnsafeBufferPointer { buffer in
            let base = UnsafeRawPointer(buffer.baseAddress ?? UnsafePointer(bitPattern: 1)!)
                .assumingMemoryBound(to: CChar.self)
            let options = Int32(
                XML_PARSE_NONET.rawValue | XML_PARSE_NOERROR.rawValue | XML_PARSE_NOWARNING.rawValue
                    | XML_PARSE_IGNORE_ENC.rawValue)
            return xmlReadMemory(base, Int32(buffer.count), documentName, "UTF-8", options)
        }
        guard let parsed else {
            throw MarkupError.malformed(document: documentName, message: collector.firstError ?? "unreadable document")
        }
        guard xmlDocGetRootElement(parsed) != nil else {
            xmlFreeDoc(parsed)
            throw MarkupError.empty(document: documentName)
        }
        self.document = parsed
        self.documentName = documentName
        self.warnings = decoded.warnings + rewritten.warnings
    }

    deinit {
        xmlFreeDoc(document)
    }

    // MARK: - Reading

    /// The document element.
    public var root: EditableNode { handle(xmlDocGetRootElement(document)!) }

    /// The local name of an element (`span`, `item`).
    public func name(of node: EditableNode) -> String {
        guard let name = pointer(node).pointee.name else { return "" }
        return String(cString: name)
    }

    /// The namespace URI of an element, nil when it has none.
    public func namespace(of node: EditableNode) -> String? {
        guard let ns = pointer(node).pointee.ns, let href = ns.pointee.href else { return nil }
        return String(cString: href)
    }

    /// The value of the unprefixed attribute `name`, nil when absent.
    public func attribute(_ name: String, of node: EditableNode) -> String? {
        guard let value = xmlGetNoNsProp(pointer(node), name) else { return nil }
        defer { epub2audio_xmlFree(value) }
        return String(cString: value)
    }

    /// The attributes of an element, in order: local name, namespace URI (nil when unprefixed) and value.
    public func attributes(of node: EditableNode) -> [(name: String, namespace: String?, value: String)] {
        var result: [(name: String, namespace: String?, value: String)] = []
        var attribute = pointer(node).pointee.properties
        while let current = attribute {
            let name = current.pointee.name.map { String(cString: $0) } ?? ""
            let namespace = current.pointee.ns?.pointee.href.map { String(cString: $0) }
            var value = ""
            if let content = xmlNodeGetContent(UnsafeMutableRawPointer(current).assumingMemoryBound(to: xmlNode.self)) {
                value = String(cString: content)
                epub2audio_xmlFree(content)
            }
            result.append((name, namespace, value))
            attribute = current.pointee.next
        }
        return result
    }

    /// The public and system identifiers of the document type declaration (`<!DOCTYPE html PUBLIC
    /// "-//W3C//DTD XHTML 1.1//EN" "…">`), empty strings when it has none; nil without a declaration.
    public var documentType: (name: String, publicID: String, systemID: String)? {
        guard let dtd = xmlGetIntSubset(document) else { return nil }
        return (
            dtd.pointee.name.map { String(cString: $0) } ?? "",
            dtd.pointee.ExternalID.map { String(cString: $0) } ?? "",
            dtd.pointee.SystemID.map { String(cString: $0) } ?? ""
        )
    }

    /// All text below `node`, in document order.
    public func text(of node: EditableNode) -> String {
        guard let content = xmlNodeGetContent(pointer(node)) else { return "" }
        defer { epub2audio_xmlFree(content) }
        return String(cString: content)
    }

    /// The elements below `node` (not itself) with local name `name` and, when given, namespace, in
    /// document order. Iterative: safe for any depth.
    public func elements(named name: String, namespace: String? = nil, under node: EditableNode? = nil)
        -> [EditableNode]
    {
        var found: [EditableNode] = []
        walk(from: pointer(node ?? root)) { element in
            if elementMatches(element, name: name, namespace: namespace) { found.append(handle(element)) }
            return true
        }
        return found
    }

    /// Every element below `node` (not itself; the document element's when nil), in document order.
    public func allElements(under node: EditableNode? = nil) -> [EditableNode] {
        var found: [EditableNode] = []
        walk(from: pointer(node ?? root)) { element in
            found.append(handle(element))
            return true
        }
        return found
    }

    /// The child elements of `node` (not deeper), in order.
    public func children(of node: EditableNode) -> [EditableNode] {
        var result: [EditableNode] = []
        var child = pointer(node).pointee.children
        while let current = child {
            if current.pointee.type == XML_ELEMENT_NODE { result.append(handle(current)) }
            child = current.pointee.next
        }
        return result
    }

    /// Every `id` attribute value of the document.
    public var ids: Set<String> {
        var result: Set<String> = []
        walk(from: pointer(root)) { element in
            if let value = xmlGetNoNsProp(element, "id") {
                result.insert(String(cString: value))
                epub2audio_xmlFree(value)
            }
            return true
        }
        return result
    }

    /// The text nodes below `node` in document order, except those inside elements whose local name
    /// is in `excluded` (`script`, `style`, `svg`...); whitespace-only nodes included.
    public func textRuns(under node: EditableNode, excluding excluded: Set<String>) -> [EditableTextRun] {
        var runs: [EditableTextRun] = []
        preOrder(from: pointer(node), excluded: excluded) { text in
            let content = text.pointee.content.map { String(cString: $0) } ?? ""
            runs.append(EditableTextRun(node: handle(text), text: content))
        }
        return runs
    }

    // MARK: - Changing

    /// Sets the unprefixed attribute `name` of an element to `value`.
    public func setAttribute(_ name: String, _ value: String, of node: EditableNode) {
        xmlSetProp(pointer(node), name, value)
    }

    /// Removes the unprefixed attribute `name` of an element, when it has one.
    public func removeAttribute(_ name: String, of node: EditableNode) {
        if let attribute = xmlHasNsProp(pointer(node), name, nil) { xmlRemoveProp(attribute) }
    }

    /// Removes the attribute `name` in the namespace `namespace` of an element, when it has one.
    public func removeAttribute(_ name: String, namespace: String, of node: EditableNode) {
        if let attribute = xmlHasNsProp(pointer(node), name, namespace) { xmlRemoveProp(attribute) }
    }

    /// Replaces the document type declaration, if any, by `<!DOCTYPE name>` (no identifiers, as
    /// HTML5 writes it); adds one before the document element when there is none.
    public func setDocumentType(name: String) {
        if let old = xmlGetIntSubset(document) {
            let node = UnsafeMutableRawPointer(old).assumingMemoryBound(to: xmlNode.self)
            xmlUnlinkNode(node)
            xmlFreeDtd(old)
        }
        xmlCreateIntSubset(document, name, nil, nil)
    }

    /// Gives an element the local name `name` (its namespace, attributes and content stay).
    public func rename(_ node: EditableNode, to name: String) {
        xmlNodeSetName(pointer(node), name)
    }

    /// Replaces the children of an element by the text `text`.
    public func setText(_ text: String, of node: EditableNode) {
        let element = pointer(node)
        // xmlNodeSetContent would read `&` as the start of an entity reference: go through a text node.
        while let child = element.pointee.children {
            xmlUnlinkNode(child)
            xmlFreeNode(child)
        }
        if !text.isEmpty, let textNode = xmlNewDocText(document, text) { xmlAddChild(element, textNode) }
    }

    /// Appends a new element `name` as the last child of `parent`, in `parent`'s namespace, with
    /// `attributes` (unprefixed, in order) and `text` as its content; returns it. `indent`: white space
    /// put before it (a line break and the indentation of its siblings), and after it the parent's
    /// closing tag's, so that the document stays readable.
    @discardableResult
    public func appendElement(
        _ name: String, attributes: [(String, String)] = [], text: String? = nil, to parent: EditableNode,
        indent: String? = nil
    ) -> EditableNode {
        let parentPointer = pointer(parent)
        if let indent {
            // The white space before the closing tag stays last: the new element goes before it.
            if let last = parentPointer.pointee.last, last.pointee.type == XML_TEXT_NODE,
                let content = last.pointee.content, String(cString: content).allSatisfy(\.isWhitespace)
            {
                let element = xmlNewDocNode(document, parentPointer.pointee.ns, name, nil)!
                for (key, value) in attributes { xmlNewProp(element, key, value) }
                if let text, !text.isEmpty, let textNode = xmlNewDocText(document, text) {
                    xmlAddChild(element, textNode)
                }
                let space = xmlNewDocText(document, indent)!
                link(space, before: last)
                link(element, before: last)
                return handle(element)
            }
            // No white space to keep last: the indentation goes first (merged into a last text, if any).
            if let space = xmlNewDocText(document, indent) { xmlAddChild(parentPointer, space) }
        }
        let element = xmlNewDocNode(document, parentPointer.pointee.ns, name, nil)!
        for (key, value) in attributes { xmlNewProp(element, key, value) }
        if let text, !text.isEmpty, let textNode = xmlNewDocText(document, text) { xmlAddChild(element, textNode) }
        xmlAddChild(parentPointer, element)
        return handle(element)
    }

    /// Removes an element (and everything in it) from the document. Its handle must not be used again.
    public func remove(_ node: EditableNode) {
        let element = pointer(node)
        xmlUnlinkNode(element)
        xmlFreeNode(element)
    }

    /// Splits the text node `run` at the UTF-16 ranges of `pieces` (in order, not overlapping, inside
    /// its text) and puts each piece into a new element `elementName` (in the namespace of the text's
    /// parent) with the attribute `id`; the text between pieces stays as it was. `run` must be the
    /// text the document holds now (each run is wrapped once).
    public func wrap(_ run: EditableTextRun, pieces: [(range: Range<Int>, id: String)], in elementName: String) {
        let textNode = pointer(run.node)
        guard let parent = textNode.pointee.parent, !pieces.isEmpty else { return }
        let utf16 = Array(run.text.utf16)
        var cursor = 0
        var insertAfter = textNode
        var segments: [(text: String, id: String?)] = []
        for piece in pieces {
            let lower = max(cursor, min(piece.range.lowerBound, utf16.count))
            let upper = max(lower, min(piece.range.upperBound, utf16.count))
            segments.append((String(decoding: utf16[cursor..<lower], as: UTF16.self), nil))
            segments.append((String(decoding: utf16[lower..<upper], as: UTF16.self), piece.id))
            cursor = upper
        }
        segments.append((String(decoding: utf16[cursor...], as: UTF16.self), nil))
        // The text node keeps the first segment; the others follow it as new siblings, linked by hand:
        // libxml2's xmlAddNextSibling merges adjacent text nodes, which would move text between nodes.
        setTextContent(textNode, segments[0].text)
        for segment in segments.dropFirst() where !segment.text.isEmpty {
            let node: xmlNodePtr
            if let id = segment.id {
                node = xmlNewDocNode(document, parent.pointee.ns, elementName, nil)!
                xmlNewProp(node, "id", id)
                if let child = xmlNewDocText(document, segment.text) { xmlAddChild(node, child) }
            } else {
                node = xmlNewDocText(document, segment.text)!
            }
            link(node, after: insertAfter)
            insertAfter = node
        }
    }

    // MARK: - Writing

    /// The document as UTF-8 XML with an XML declaration, as parsed plus the changes; libxml2's
    /// XHTML 1 output rules are off (they would add a `<meta http-equiv>` to the head).
    public func serialized() -> [UInt8] {
        guard let buffer = xmlBufferCreate() else { return [] }
        defer { xmlBufferFree(buffer) }
        guard let context = xmlSaveToBuffer(buffer, "UTF-8", Int32(XML_SAVE_NO_XHTML.rawValue)) else { return [] }
        xmlSaveDoc(context, document)
        xmlSaveClose(context)
        guard let content = xmlBufferContent(buffer) else { return [] }
        return Array(UnsafeBufferPointer(start: content, count: Int(xmlBufferLength(buffer))))
    }

    // MARK: - Helpers

    private func handle(_ node: xmlNodePtr) -> EditableNode {
        nodes.append(node)
        return EditableNode(index: nodes.count - 1)
    }

    private func pointer(_ node: EditableNode) -> xmlNodePtr { nodes[node.index] }

    private func elementMatches(_ element: xmlNodePtr, name: String, namespace: String?) -> Bool {
        guard let elementName = element.pointee.name, String(cString: elementName) == name else { return false }
        guard let namespace else { return true }
        guard let ns = element.pointee.ns, let href = ns.pointee.href else { return false }
        return String(cString: href) == namespace
    }

    /// Visits the elements below `start` in document order; `visit` returns false to skip an
    /// element's children.
    private func walk(from start: xmlNodePtr, _ visit: (xmlNodePtr) -> Bool) {
        var stack: [xmlNodePtr] = childElements(start).reversed()
        while let current = stack.popLast() {
            if visit(current) { stack.append(contentsOf: childElements(current).reversed()) }
        }
    }

    private func childElements(_ node: xmlNodePtr) -> [xmlNodePtr] {
        var result: [xmlNodePtr] = []
        var child = node.pointee.children
        while let current = child {
            if current.pointee.type == XML_ELEMENT_NODE { result.append(current) }
            child = current.pointee.next
        }
        return result
    }

    /// Calls `visit` for each text node below `start` in document order, not entering elements whose
    /// local name is in `excluded`.
    private func preOrder(from start: xmlNodePtr, excluded: Set<String>, _ visit: (xmlNodePtr) -> Void) {
        var stack: [xmlNodePtr] = []
        var child = start.pointee.children
        var level: [xmlNodePtr] = []
        while let current = child {
            level.append(current)
            child = current.pointee.next
        }
        stack.append(contentsOf: level.reversed())
        while let current = stack.popLast() {
            switch current.pointee.type {
            case XML_TEXT_NODE:
                visit(current)
            case XML_ELEMENT_NODE:
                let name = current.pointee.name.map { String(cString: $0) } ?? ""
                guard !excluded.contains(name) else { continue }
                var children: [xmlNodePtr] = []
                var next = current.pointee.children
                while let node = next {
                    children.append(node)
                    next = node.pointee.next
                }
                stack.append(contentsOf: children.reversed())
            default:
                continue
            }
        }
    }

    private func setTextContent(_ textNode: xmlNodePtr, _ text: String) {
        // For a text node xmlNodeSetContent copies the string as it is (no entity parsing).
        xmlNodeSetContent(textNode, text)
    }

    private func link(_ node: xmlNodePtr, before next: xmlNodePtr) {
        let parent = next.pointee.parent
        node.pointee.parent = parent
        node.pointee.doc = document
        node.pointee.next = next
        node.pointee.prev = next.pointee.prev
        if let previous = next.pointee.prev {
            previous.pointee.next = node
        } else {
            parent?.pointee.children = node
        }
        next.pointee.prev = node
    }

    private func link(_ node: xmlNodePtr, after previous: xmlNodePtr) {
        let parent = previous.pointee.parent
        node.pointee.parent = parent
        node.pointee.doc = document
        node.pointee.prev = previous
        node.pointee.next = previous.pointee.next
        if let next = previous.pointee.next {
            next.pointee.prev = node
        } else {
            parent?.pointee.last = node
        }
        previous.pointee.next = node
    }
}
