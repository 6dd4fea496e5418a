import Markup

/// Attribute access that works the same for XML-parsed documents (namespaced `epub:type`) and
/// HTML-recovered ones (a plain attribute named `epub:type`).
extension MarkupElement {
    /// Every attribute the text of a content document is read from (`value(of:)` asserts it): the
    /// indexer and the text extractor parse with only these kept.
    static let attributesRead = AttributeSelection.named([
        "id", "name", "lang", "type", "role", "class", "href", "alt", "alttext", "display", "hidden", "aria-hidden",
        "style", "rel", "media",
        "visibility", "x", "y", "dy", "systemlanguage", "systemLanguage", "requiredextensions", "requiredExtensions",
    ])

    func value(of localName: String, namespace: String? = nil, prefix: String? = nil) -> String? {
        assert(Self.attributesRead.keeps(localName), "attribute '\(localName)' is read but not kept by the parse")
        for attribute in attributes {
            if attribute.name == localName {
                if namespace == nil || attribute.namespace == namespace { return attribute.value }
                if attribute.namespace == nil, prefix == nil { return attribute.value }
            } else if let prefix, attribute.namespace == nil, Self.isPrefixed(attribute.name, prefix, localName) {
                return attribute.value
            }
        }
        return nil
    }

    /// Whether `name` is `prefix:localName`, compared in place: every attribute of every element
    /// is looked at several times while a book is read.
    private static func isPrefixed(_ name: String, _ prefix: String, _ localName: String) -> Bool {
        let bytes = name.utf8
        let head = prefix.utf8
        let tail = localName.utf8
        guard bytes.count == head.count + 1 + tail.count, bytes.starts(with: head) else { return false }
        let rest = bytes.dropFirst(head.count)
        return rest.first == UInt8(ascii: ":") && rest.dropFirst().elementsEqual(tail)
    }

    /// `epub:type` tokens and ARIA `doc-*` roles, lower-cased, `doc-` prefix removed.
    var semanticTypes: [String] {
        var out: [String] = []
        if let type = value(of: "type", namespace: Namespace.epub, prefix: "epub") {
            out += Self.tokens(type)
        }
        if let role = value(of: "role") {
            for token in Self.tokens(role) {
                out.append(token.hasPrefix("doc-") ? String(token.dropFirst(4)) : token)
            }
        }
        return out
    }

    var classes: [String] {
        value(of: "class").map(Self.tokens) ?? []
    }

    /// The lower-cased, space-separated tokens of an attribute value. Most values are one token
    /// in lower-case ASCII (`class="calibre3"`): returned as they are, without splitting.
    static func tokens(_ value: String) -> [String] {
        let oneToken = !value.isEmpty && value.utf8.allSatisfy { $0 > 0x20 && $0 < 0x7F && $0 &- 0x41 >= 26 }
        if oneToken { return [value] }
        return value.lowercased().split(whereSeparator: \.isWhitespace).map(String.init)
    }

    var idValue: String? {
        value(of: "id") ?? value(of: "id", namespace: Namespace.xml, prefix: "xml")
    }

    var languageValue: String? {
        value(of: "lang", namespace: Namespace.xml, prefix: "xml") ?? value(of: "lang")
    }

    /// The name in lower case. Almost every name is lower-case ASCII already (XHTML's, and the
    /// HTML parser's): returned as it is, without a new string, for every look at every element.
    var localName: String {
        let isLowercaseASCII = name.utf8.allSatisfy { $0 < 0x80 && ($0 < UInt8(ascii: "A") || $0 > UInt8(ascii: "Z")) }
        return isLowercaseASCII ? name : name.lowercased()
    }

    /// All text below this element, without any processing.
    var rawText: String {
        var out = ""
        func walk(_ element: MarkupElement, depth: Int) {
            guard depth < 300 else { return }
            for child in element.children {
                switch child {
                case .text(let text): out += text
                case .element(let childElement): walk(childElement, depth: depth + 1)
                }
            }
        }
        walk(self, depth: 0)
        return out
    }

    func firstChild(named name: String) -> MarkupElement? {
        for case .element(let child) in children where child.localName == name { return child }
        return nil
    }

    func firstDescendant(where predicate: (MarkupElement) -> Bool) -> MarkupElement? {
        var stack: [MarkupElement] = [self]
        while let element = stack.popLast() {
            if predicate(element) { return element }
            for case .element(let child) in element.children.reversed() { stack.append(child) }
        }
        return nil
    }
}
