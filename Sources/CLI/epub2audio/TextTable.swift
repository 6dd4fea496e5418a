import LiveConversion

/// Columns aligned by display width: numbers right-aligned, text left-aligned, the last column
/// free to run long (titles). Colour is applied after padding, so escapes never break alignment.
struct TextTable {
    enum Alignment { case left, right }

    struct Column {
        var header: String
        var alignment: Alignment
    }

    var columns: [Column]
    var rows: [[String]] = []

    init(_ columns: [Column]) { self.columns = columns }

    mutating func append(_ row: [String]) {
        precondition(row.count == columns.count, "a row needs one cell per column")
        rows.append(row)
    }

    /// Rendered lines: the header first, then one line per row. `style(row, column, paddedCell)`
    /// may decorate a padded cell (row -1 is the header).
    func render(indent: String = "", style: (Int, Int, String) -> String = { _, _, cell in cell }) -> [String] {
        var widths = columns.map { displayWidth($0.header) }
        for row in rows {
            for (index, cell) in row.enumerated() { widths[index] = max(widths[index], displayWidth(cell)) }
        }
        func line(_ cells: [String], rowIndex: Int) -> String {
            var parts: [String] = []
            for (index, cell) in cells.enumerated() {
                let isLast = index == cells.count - 1
                let padding = String(repeating: " ", count: max(0, widths[index] - displayWidth(cell)))
                let padded: String
                switch columns[index].alignment {
                case .right: padded = padding + cell
                case .left: padded = isLast ? cell : cell + padding
                }
                parts.append(style(rowIndex, index, padded))
            }
            return indent + parts.joined(separator: "  ")
        }
        return [line(columns.map(\.header), rowIndex: -1)]
            + rows.enumerated().map { line($0.element, rowIndex: $0.offset) }
    }
}

/// Columns a string takes in a terminal: wide East Asian characters take two, combining marks
/// none, and colour escapes (`ESC [ … m`) none (a styled header measured with its escapes pushed
/// the reasons of `--list --verbose` 36 columns right on a terminal).
func displayWidth(_ text: String) -> Int {
    var width = 0
    var inEscape = false
    for scalar in text.unicodeScalars {
        let value = scalar.value
        if inEscape {
            // A control sequence ends with its final byte (0x40–0x7E), after "[" and its parameters.
            if value != 0x5B, (0x40...0x7E).contains(value) { inEscape = false }
            continue
        }
        if value == 0x1B {
            inEscape = true
            continue
        }
        switch value {
        case 0x0300...0x036F, 0x200B...0x200F, 0xFE00...0xFE0F: continue
        case 0x1100...0x115F, 0x2E80...0xA4CF, 0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE30...0xFE4F, 0xFF00...0xFF60,
            0xFFE0...0xFFE6, 0x1F300...0x1F64F, 0x20000...0x3FFFD:
            width += 2
        default:
            if scalar.properties.generalCategory == .nonspacingMark || value < 0x20 { continue }
            width += 1
        }
    }
    return width
}

/// Cuts `text` to at most `width` display columns, ending with "…" when it was cut.
func truncateToWidth(_ text: String, _ width: Int) -> String {
    guard displayWidth(text) > width, width > 1 else { return text }
    var result = ""
    for character in text {
        if displayWidth(result + String(character)) > width - 1 { break }
        result.append(character)
    }
    return result + "…"
}

/// "1 section", "2 sections", "2,013 sections" (thousands grouped, as the words beside them are):
/// `Counts.of`, the library's one way of saying a count.
func plural(_ count: Int, _ noun: String, plural: String? = nil) -> String {
    Counts.of(count, noun, plural: plural)
}

/// Text from a book made safe for a terminal: control characters, and the bidirectional overrides
/// and isolates that could make a line display as something it is not, are dropped.
func terminalSafe(_ text: String) -> String {
    String(
        String.UnicodeScalarView(
            text.unicodeScalars.filter { scalar in
                if scalar.properties.generalCategory == .control { return false }
                switch scalar.value {
                case 0x202A...0x202E, 0x2066...0x2069: return false
                default: return true
                }
            }))
}
