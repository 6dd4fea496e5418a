import Foundation
import Markup

/// HTML that XHTML 1.1 allows and HTML5 made obsolete (W3C HTML 5.2, "Obsolete features"), made
/// conforming in the read-along copy of an EPUB 2 book, whose content documents EPUBCheck checks as
/// HTML5: presentational attributes become the CSS they meant in the element's `style` (or go, when
/// CSS has nothing for them), `big`, `tt` and `acronym` become `span`s and `abbr`, a `<meta
/// http-equiv>` HTML5 does not know goes, the content-type one says UTF-8 (the copy is written in
/// UTF-8), and an empty `<title>` takes the book's.
enum ObsoleteHTML {
    /// What becomes of one attribute.
    enum Change: Equatable {
        /// Conforming, or not ours to judge: left as it is.
        case keep
        /// Nothing in CSS says it: removed.
        case drop
        /// Removed; its meaning added to `style`.
        case move([String])
        /// Given a conforming value; `declarations` added to `style`.
        case replace(value: String, declarations: [String])
    }

    /// Elements whose `width` and `height` HTML5 keeps, as a number of pixels.
    static let sizedElements: Set<String> = ["img", "iframe", "embed", "object", "video", "canvas", "input", "source"]
    /// The `http-equiv` values HTML5 knows.
    static let knownHTTPEquiv: Set<String> = [
        "content-type", "default-style", "refresh", "x-ua-compatible", "content-security-policy",
    ]
    /// Attributes that HTML5 made obsolete and that CSS has nothing for.
    static let droppedAttributes: [String: Set<String>] = [
        "table": ["cellpadding", "frame", "rules"],
        "td": ["axis", "char", "charoff"], "th": ["axis", "char", "charoff"],
        "tr": ["char", "charoff"], "tbody": ["char", "charoff"], "thead": ["char", "charoff"],
        "tfoot": ["char", "charoff"], "col": ["char", "charoff"], "colgroup": ["char", "charoff"],
        "a": ["rev", "charset", "shape", "coords"], "link": ["rev", "charset"], "img": ["longdesc"],
        "head": ["profile"], "html": ["version"],
    ]
    /// Elements HTML5 made obsolete, and what replaces them: an element and a declaration for `style`.
    static let replacedElements: [String: (name: String, style: String?)] = [
        "big": ("span", "font-size: larger"), "tt": ("span", "font-family: monospace"), "acronym": ("abbr", nil),
    ]

    /// Makes `document` (an XHTML content document) conforming HTML5; `title` fills an empty
    /// `<title>`. True when it changed.
    static func update(_ document: EditableMarkup, title: String) -> Bool {
        var changed = updateMetas(document)
        if fillEmptyTitle(document, with: title) { changed = true }
        for element in document.allElements() where document.namespace(of: element) == EPUB3Upgrade.xhtmlNamespace {
            if updateAttributes(of: element, in: document) { changed = true }
            let name = document.name(of: element)
            if let replacement = replacedElements[name] {
                document.rename(element, to: replacement.name)
                if let style = replacement.style { addStyle([style], to: element, in: document) }
                changed = true
            }
        }
        return changed
    }

    /// What becomes of the attribute `attribute="value"` of an element `element` (local names).
    static func change(attribute: String, value raw: String, element: String) -> Change {
        if droppedAttributes[element]?.contains(attribute) == true { return .drop }
        let value = raw.trimmingCharacters(in: .whitespaces).lowercased()
        switch attribute {
        case "align":
            return alignment(value, element: element)
        case "valign":
            return ["top", "middle", "bottom", "baseline"].contains(value) ? .move(["vertical-align: \(value)"]) : .drop
        case "width", "height":
            if sizedElements.contains(element) {
                guard !isPixels(value) else { return .keep }
            } else if !["table", "td", "th", "col", "colgroup", "hr", "pre"].contains(element) {
                return .keep
            }
            return cssLength(value).map { .move(["\(attribute): \($0)"]) } ?? .drop
        case "bgcolor":
            return isSafeColor(value) ? .move(["background-color: \(value)"]) : .drop
        case "border" where element == "table":
            if value.isEmpty || value == "1" { return .keep }
            guard let width = Int(value), width > 0 else { return .drop }
            return .replace(value: "1", declarations: ["border-width: \(width)px"])
        case "border" where element == "img" || element == "object":
            guard let width = Int(value), width > 0 else { return .drop }
            return .move(["border: \(width)px solid"])
        case "cellspacing" where element == "table":
            return cssLength(value).map { .move(["border-spacing: \($0)"]) } ?? .drop
        case "nowrap" where element == "td" || element == "th":
            return .move(["white-space: nowrap"])
        default:
            return .keep
        }
    }

    /// `align` as CSS: a float or vertical alignment for images and objects, a float or centring for
    /// tables, the caption's side, the text alignment of the rest.
    private static func alignment(_ value: String, element: String) -> Change {
        switch element {
        case "img", "object", "embed", "iframe", "input":
            switch value {
            case "left", "right": return .move(["float: \(value)"])
            case "top", "middle", "bottom", "baseline": return .move(["vertical-align: \(value)"])
            case "absmiddle": return .move(["vertical-align: middle"])
            default: return .drop
            }
        case "table", "hr":
            switch value {
            case "left" where element == "table", "right" where element == "table": return .move(["float: \(value)"])
            case "center": return .move(["margin-left: auto", "margin-right: auto"])
            case "left": return .move(["margin-left: 0", "margin-right: auto"])
            case "right": return .move(["margin-left: auto", "margin-right: 0"])
            default: return .drop
            }
        case "caption":
            if ["top", "bottom"].contains(value) { return .move(["caption-side: \(value)"]) }
            fallthrough
        default:
            return ["left", "right", "center", "justify"].contains(value) ? .move(["text-align: \(value)"]) : .drop
        }
    }

    private static func updateAttributes(of element: EditableNode, in document: EditableMarkup) -> Bool {
        let name = document.name(of: element)
        var declarations: [String] = []
        var changed = false
        for attribute in document.attributes(of: element) where attribute.namespace == nil {
            switch change(attribute: attribute.name, value: attribute.value, element: name) {
            case .keep:
                continue
            case .drop:
                document.removeAttribute(attribute.name, of: element)
            case .move(let css):
                document.removeAttribute(attribute.name, of: element)
                declarations += css
            case .replace(let value, let css):
                document.setAttribute(attribute.name, value, of: element)
                declarations += css
            }
            changed = true
        }
        // A data cell's `abbr` is obsolete (a header cell's is not): it becomes the cell's title.
        if name == "td", let abbr = document.attribute("abbr", of: element) {
            document.removeAttribute("abbr", of: element)
            if document.attribute("title", of: element) == nil, !abbr.isEmpty {
                document.setAttribute("title", abbr, of: element)
            }
            changed = true
        }
        if !declarations.isEmpty { addStyle(declarations, to: element, in: document) }
        return changed
    }

    /// Adds `declarations` after the element's own `style` (which wins where both say something: it
    /// is what the book's CSS meant last).
    private static func addStyle(_ declarations: [String], to element: EditableNode, in document: EditableMarkup) {
        let own = (document.attribute("style", of: element) ?? "").trimmingCharacters(in: .whitespaces)
        let added = declarations.joined(separator: "; ")
        let style =
            own.isEmpty ? added : added + "; " + (own.hasSuffix(";") ? String(own.dropLast()) : own)
        document.setAttribute("style", style, of: element)
    }

    /// `<meta http-equiv>`: the content type says UTF-8; values HTML5 does not know go.
    private static func updateMetas(_ document: EditableMarkup) -> Bool {
        var changed = false
        for meta in document.elements(named: "meta") {
            guard let equiv = document.attribute("http-equiv", of: meta)?.lowercased() else { continue }
            if !knownHTTPEquiv.contains(equiv) {
                document.remove(meta)
                changed = true
            } else if equiv == "content-type", document.attribute("content", of: meta) != "text/html; charset=utf-8" {
                document.setAttribute("content", "text/html; charset=utf-8", of: meta)
                changed = true
            }
        }
        return changed
    }

    private static func fillEmptyTitle(_ document: EditableMarkup, with title: String) -> Bool {
        guard
            let element = document.elements(named: "title").first(where: {
                document.namespace(of: $0) == EPUB3Upgrade.xhtmlNamespace
            }),
            document.text(of: element).trimmingCharacters(in: .whitespacesAndNewlines).isEmpty,
            !title.isEmpty
        else { return false }
        document.setText(title, of: element)
        return true
    }

    /// A non-negative whole number: a length in pixels as HTML5 writes it.
    private static func isPixels(_ value: String) -> Bool {
        !value.isEmpty && value.allSatisfy(\.isASCIIDigit)
    }

    /// An HTML 4 length (`12`, `12px`, `50%`) as CSS; nil for anything else.
    private static func cssLength(_ value: String) -> String? {
        if isPixels(value) { return value + "px" }
        for unit in ["px", "%"] where value.hasSuffix(unit) {
            let number = value.dropLast(unit.count)
            if !number.isEmpty, number.allSatisfy({ $0.isASCIIDigit || $0 == "." }) { return String(number) + unit }
        }
        return nil
    }

    /// A colour name or `#rgb` value that cannot end the declaration it is put in.
    private static func isSafeColor(_ value: String) -> Bool {
        !value.isEmpty && value.count <= 32
            && value.allSatisfy { $0.isASCIIDigit || ("a"..."z").contains($0) || $0 == "#" }
    }
}

extension Character {
    fileprivate var isASCIIDigit: Bool { ("0"..."9").contains(self) }
}
