import Markup

extension EPUBMetadata {
    /// `dc:description` as plain text, for a player's description or comment tag: the markup many
    /// books put there (escaped HTML, `&lt;p&gt;…`, as Standard Ebooks write it, or elements) removed,
    /// entities decoded, paragraphs and line breaks kept apart by a space, whitespace collapsed. Nil
    /// when nothing but markup is left.
    public var descriptionText: String? {
        description.flatMap(PlainText.fromMarkup)
    }
}

/// Text from a snippet of HTML, as one line (`EPUBMetadata.descriptionText`).
enum PlainText {
    /// Elements that end a line where they start and end: their text is not glued to the next.
    static let blockElements: Set<String> = [
        "address", "article", "aside", "blockquote", "br", "dd", "div", "dl", "dt", "figcaption", "figure",
        "footer", "h1", "h2", "h3", "h4", "h5", "h6", "header", "hr", "li", "ol", "p", "pre", "section", "table",
        "td", "th", "tr", "ul",
    ]

    /// Elements whose text is no text a reader sees.
    static let hiddenElements: Set<String> = ["script", "style", "template"]

    /// `text` with its markup removed and its entities decoded (read with the HTML parser, which never
    /// fails on bad markup; text without `<` or `&` is only collapsed); nil when no text is left.
    static func fromMarkup(_ text: String) -> String? {
        guard text.contains("<") || text.contains("&") else { return nonEmpty(text.collapsingWhitespace()) }
        let html = Array(("<html><body>" + text + "</body></html>").utf8)
        guard let document = try? MarkupParser.parseHTML(html, documentName: "dc:description") else {
            return nonEmpty(text.collapsingWhitespace())
        }
        return nonEmpty(self.text(of: document.root))
    }

    /// The text below `element` on one line: a space where a block element starts or ends, hidden
    /// elements left out, whitespace collapsed.
    static func text(of element: MarkupElement) -> String {
        var out = ""
        var stack: [MarkupNode?] = element.children.reversed().map { $0 }
        while let next = stack.popLast() {
            guard let node = next else {
                out += " "  // the end of a block element
                continue
            }
            switch node {
            case .text(let run): out += run
            case .element(let child):
                let name = child.name.lowercased()
                if hiddenElements.contains(name) { continue }
                let isBlock = blockElements.contains(name)
                if isBlock {
                    out += " "
                    stack.append(nil)
                }
                stack.append(contentsOf: child.children.reversed().map { $0 })
            }
        }
        return out.collapsingWhitespace()
    }

    private static func nonEmpty(_ text: String) -> String? { text.isEmpty ? nil : text }
}
