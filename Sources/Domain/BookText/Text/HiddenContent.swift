import Markup

/// Elements a reading system does not show (`hidden`, `aria-hidden`, inline `display: none`) and page-number
/// markers, which are never read.
enum HiddenContent {
    static func isHidden(_ element: MarkupElement, types: [String], classes: [String]) -> Bool {
        if element.value(of: "hidden") != nil { return true }
        if element.value(of: "aria-hidden")?.lowercased() == "true" { return true }
        if let style = element.value(of: "style")?.lowercased().replacingOccurrences(of: " ", with: ""),
            style.contains("display:none") || style.contains("visibility:hidden")
        {
            return true
        }
        if types.contains("page-list") { return true }
        let marksAPage =
            types.contains("pagebreak")
            || classes.contains {
                ["pagenum", "page-number", "pageno", "pagebreak", "page-break", "pagenumber"].contains($0)
            }
        return marksAPage && isPageMarkerSized(element)
    }

    /// A page number is a few words, one of them a number ("12", "[Pg 12]", "Page xii"): an
    /// element named like one that holds more, or no number, is text (a `<div class="page-break">`
    /// around a whole chapter, a line of verse).
    static let longestPageMarker = 6

    static func isPageMarkerSized(_ element: MarkupElement) -> Bool {
        let text = element.rawText
        guard TextMeasure.wordCount(text) <= longestPageMarker else { return false }
        let words = text.lowercased().split { !$0.isLetter && !$0.isNumber }
        return words.isEmpty || words.contains { Patterns.isNumeral(String($0)) }
    }
}
