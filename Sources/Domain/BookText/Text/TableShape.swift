import Markup

/// The shape of a `<table>`: its cells, whether it holds words or figures (read row by row, or announced), and
/// whether it is prose or drama laid out in cells (walked as text).
enum TableShape {
    /// A table's non-empty rows (cell texts, header cells included), its data cells, and the link
    /// words of each row, in document order; the caption is left out.
    static func tableCells(_ table: MarkupElement) -> (rows: [[String]], data: [String], linkWords: [Int]) {
        var rows: [[String]] = []
        var data: [String] = []
        var rowLinkWords: [Int] = []
        var stack: [MarkupElement] = [table]
        while let current = stack.popLast() {
            if current.localName == "tr" {
                let cells = current.children.compactMap { node -> String? in
                    guard case .element(let cell) = node, cell.localName == "td" || cell.localName == "th" else {
                        return nil
                    }
                    let text = TextCleaner.normalize(cell.rawText)
                    if cell.localName == "td", !text.isEmpty { data.append(text) }
                    return text.isEmpty ? nil : text
                }
                if !cells.isEmpty {
                    rows.append(cells)
                    rowLinkWords.append(linkWords(in: current))
                }
            } else if current.localName != "caption" {
                for case .element(let cell) in current.children.reversed() { stack.append(cell) }
            }
        }
        return (rows, data, rowLinkWords)
    }

    /// A table of words rather than figures: more of its data cells' words have letters than have
    /// none (numbers, dates, amounts), as in a list of names and their years or of dates and events;
    /// header cells are words in any table and do not count. Such a table is read row by row; a
    /// table mostly of figures is announced.
    static func isWordTable(_ cells: [String]) -> Bool {
        // One cell of words is a box drawn around text (a layout table), no table of data.
        guard !cells.isEmpty else { return false }
        var words = 0
        var figures = 0
        for cell in cells {
            for token in cell.split(separator: " ") {
                if token.contains(where: \.isLetter) { words += 1 } else { figures += 1 }
            }
        }
        return words > figures
    }

    static func isProseTable(_ table: MarkupElement, types: [String]) -> Bool {
        if types.contains(where: { $0 == "z3998:drama" || $0 == "z3998:play" || $0 == "z3998:script" }) { return true }
        var rows = 0
        var words = 0
        var numericCells = 0
        var stack: [MarkupElement] = [table]
        while let current = stack.popLast() {
            if current.localName == "tr" {
                rows += 1
            } else if current.localName == "td" || current.localName == "th" {
                let text = current.rawText
                words += TextMeasure.wordCount(text)
                if text.contains(where: \.isNumber), TextMeasure.wordCount(text) <= 2 { numericCells += 1 }
            }
            for case .element(let child) in current.children { stack.append(child) }
        }
        return rows > 0 && words >= 40 && words / rows >= 10 && numericCells * 4 < rows
    }

    /// Words inside the links below `element`.
    static func linkWords(in element: MarkupElement) -> Int {
        var words = 0
        var stack = [element]
        while let current = stack.popLast() {
            if current.localName == "a", current.value(of: "href") != nil {
                words += TextMeasure.wordCount(current.rawText)
                continue
            }
            for case .element(let child) in current.children { stack.append(child) }
        }
        return words
    }
}
