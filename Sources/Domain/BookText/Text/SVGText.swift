import Markup

/// What an SVG content document (or picture) shows as text: which elements hold words, which are never drawn,
/// which child of a `<switch>` a reading system draws, and titles that only name a page.
enum SVGText {
    /// SVG elements whose content a reading system never shows as text: definitions drawn only where
    /// they are used, styling, scripts, metadata, paint servers and effects.
    static let svgSkipped: Set<String> = [
        "defs", "symbol", "style", "script", "metadata", "clippath", "mask", "pattern", "marker", "filter",
        "lineargradient", "radialgradient",
    ]

    /// SVG elements read as one block each: `<text>` is drawn on the page, `<title>` and `<desc>` are what
    /// a reading system gives as the picture's name and description.
    static let svgTextElements: Set<String> = ["title", "desc", "text"]

    /// Hidden as in XHTML, or by SVG's own `display="none"` and `visibility="hidden"` attributes.
    static func isHiddenSVG(_ element: MarkupElement) -> Bool {
        if HiddenContent.isHidden(element, types: [], classes: element.classes) { return true }
        return element.value(of: "display")?.lowercased() == "none"
            || element.value(of: "visibility")?.lowercased() == "hidden"
    }

    /// Whether a child of a `<switch>` would be drawn: its `systemLanguage` (when given) names the text's
    /// language, and its `requiredExtensions` (when given) are only XHTML, which a reading system renders.
    static func svgConditionsHold(_ element: MarkupElement, language: String?) -> Bool {
        if let languages = element.value(of: "systemlanguage") ?? element.value(of: "systemLanguage") {
            let wanted = LanguageDetector.primaryLanguage(language ?? "")
            let offered = languages.split(separator: ",").map { LanguageDetector.primaryLanguage(String($0)) }
            guard !wanted.isEmpty, offered.contains(wanted) else { return false }
        }
        if let extensions = element.value(of: "requiredExtensions") ?? element.value(of: "requiredextensions") {
            let xhtml = "http://www.w3.org/1999/xhtml"
            guard extensions.split(whereSeparator: \.isWhitespace).allSatisfy({ $0 == xhtml }) else { return false }
        }
        return true
    }

    /// A `<title>` that only names the page or its file ("Page 12", "p012", "12", "page_012.svg"): what a
    /// tool wrote, not words for the listener.
    static func isPageLabel(_ title: String) -> Bool {
        let lower = title.lowercased()
        if [".svg", ".xhtml", ".html", ".jpg", ".jpeg", ".png"].contains(where: lower.hasSuffix) { return true }
        if !lower.contains(" "), lower.contains("_"), lower.count > 8 { return true }
        var rest = Substring(lower)
        for prefix in ["page", "pg", "p"] where rest.hasPrefix(prefix) {
            rest = rest.dropFirst(prefix.count)
            break
        }
        rest = rest.drop { $0 == "." || $0 == " " || $0 == "-" || $0 == "_" }
        return !rest.isEmpty && rest.count <= 6 && rest.allSatisfy(\.isNumber)
    }

    /// The characters of an SVG text element, with a space where a `<tspan>` or `<textPath>` starts a new
    /// line or column (its own `x`, `y` or `dy`); a `<tspan>` that only styles letters joins its word.
    static func svgText(_ element: MarkupElement) -> String {
        var out = ""
        func walk(_ element: MarkupElement, depth: Int) {
            guard depth < 100 else { return }
            for child in element.children {
                switch child {
                case .text(let text): out += text
                case .element(let childElement):
                    guard !svgSkipped.contains(childElement.localName) else { continue }
                    if childElement.value(of: "x") != nil || childElement.value(of: "y") != nil
                        || childElement.value(of: "dy") != nil
                    {
                        out += " "
                    }
                    walk(childElement, depth: depth + 1)
                }
            }
        }
        walk(element, depth: 0)
        return out
    }
}
