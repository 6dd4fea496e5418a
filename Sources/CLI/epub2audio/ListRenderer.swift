import Foundation
import LiveConversion

/// Renders a book's section index for people (aligned columns) or for programs (JSON).
struct ListRenderer {
    var style: TerminalStyle
    var verbose: Bool
    /// The speaking rate (`--rate`, words per minute) the audio length is estimated at.
    var wordsPerMinute = 175

    static func document(for loaded: OpenedBook, speech: SpeakableTextReport? = nil) -> SectionListing {
        var listing = loaded.listing(speech: speech)
        listing.file = loaded.path
        return listing
    }

    /// The listing as a JSON object (pretty-printed, no final newline); `speech`: what the voice a
    /// conversion would use can speak of it.
    /// With `estimate`, its `estimate` says what a conversion would write.
    static func json(
        for loaded: OpenedBook, speech: SpeakableTextReport? = nil, estimate: OutputEstimate? = nil
    ) throws -> String {
        var document = document(for: loaded, speech: speech)
        document.estimate = estimate
        return String(decoding: try document.json(), as: UTF8.self)
    }

    /// The human index: a header with the clean title and authors, then one aligned row per section;
    /// with `estimate`, a line under the reading line says what a conversion would write.
    func text(for loaded: OpenedBook, estimate: OutputEstimate? = nil) -> String {
        let package = loaded.book.package
        let sections = loaded.sections
        var lines: [String] = []
        lines.append(style.bold(terminalSafe(loaded.displayTitle)))
        let authors = package.metadata.authors.map(terminalSafe)
        if !authors.isEmpty { lines.append(ListRenderer.joinedNames(authors)) }
        var facts: [String] = []
        if let language = ListRenderer.language(declared: package.metadata.languages.first, text: loaded.textLanguage) {
            facts.append(terminalSafe(language))
        }
        facts.append("EPUB \(package.version)")
        switch package.tocSource {
        case .nav: facts.append("contents from the navigation document")
        case .ncx: facts.append("contents from the NCX")
        case .none: facts.append("no usable table of contents: sections from the files' headings and titles")
        }
        lines.append(style.dim(facts.joined(separator: " · ")))
        lines.append(
            Self.readingLine(
                ReadingTotals(sections: sections), withDuration: true, wordsPerMinute: wordsPerMinute,
                audioSeconds: estimate?.audioSeconds, chosen: loaded.chosenByNumber))
        if let estimate { lines.append(style.dim(Self.estimateLine(estimate))) }
        lines.append("")

        var table = TextTable([
            .init(header: "#", alignment: .right), .init(header: "read", alignment: .left),
            .init(header: "kind", alignment: .left), .init(header: "conf", alignment: .right),
            .init(header: "words", alignment: .right), .init(header: "title", alignment: .left),
        ])
        for section in sections {
            let indent = section.level > 1 || (section.partTitle != nil && section.kind != .part) ? "  " : ""
            table.append([
                String(section.number), section.included ? "yes" : "skip", section.kind.rawValue,
                String(format: "%.2f", section.confidence), Self.grouped(section.words),
                indent + terminalSafe(section.title),
            ])
        }
        let rendered = table.render(indent: "  ") { row, column, cell in
            if row < 0 { return style.bold(cell) }
            let section = sections[row]
            if !section.included { return style.dim(cell) }
            return column == 1 ? style.green(cell) : cell
        }
        let titleColumn = rendered.first.map { header in displayWidth(header) - displayWidth("title") } ?? 0
        lines.append(rendered[0])
        for (index, section) in sections.enumerated() {
            lines.append(rendered[index + 1])
            if verbose {
                for reason in section.reasons {
                    lines.append(
                        String(repeating: " ", count: max(0, titleColumn)) + style.dim("· " + terminalSafe(reason)))
                }
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// `writing about 19 MB as wav` (`, with a 4.1 MB m4b bundle`): what a conversion would write.
    static func estimateLine(_ estimate: OutputEstimate) -> String {
        var line = "writing about \(ByteCount.text(estimate.sectionBytes)) as \(estimate.format)"
        if let bundle = estimate.bundle { line += ", with a \(ByteCount.text(estimate.bundleBytes)) \(bundle) bundle" }
        return line
    }

    /// The table closing `--list` of several books: each book's words, audio length and output size
    /// (`OutputEstimate`), and their totals; numbers right-aligned, the title last.
    func batchTable(_ books: [(title: String, words: Int, estimate: OutputEstimate)]) -> String {
        var table = TextTable([
            .init(header: "words", alignment: .right), .init(header: "audio", alignment: .right),
            .init(header: "size", alignment: .right), .init(header: "book", alignment: .left),
        ])
        func row(_ words: Int, _ estimate: OutputEstimate, _ title: String) -> [String] {
            [
                Self.grouped(words), Self.duration(minutes: estimate.audioSeconds / 60),
                ByteCount.text(estimate.bytes), title,
            ]
        }
        for book in books { table.append(row(book.words, book.estimate, terminalSafe(book.title))) }
        let total = OutputEstimate.sum(books.map(\.estimate))
        table.append(row(books.reduce(0) { $0 + $1.words }, total, "total (\(plural(books.count, "book")))"))
        let rendered = table.render(indent: "  ") { row, _, cell in
            row < 0 || row == books.count ? style.bold(cell) : cell
        }
        return rendered.joined(separator: "\n") + "\n"
    }

    /// The language the header names: the text's, and what the metadata says when that differs
    /// (`it (dc:language says en)`).
    static func language(declared: String?, text: String?) -> String? {
        guard let text else { return declared }
        guard let declared else { return text }
        return "\(text) (dc:language says \(declared))"
    }

    /// `reading 161,239 words in 55 sections; skipping 584 words in 6 sections`, or `...; nothing skipped`.
    ///
    /// With `withDuration`, the audio length follows them in parentheses: `audioSeconds` (the
    /// estimate's, `SpokenLength`) when given, else the rough length of the text read at
    /// `wordsPerMinute` (Chinese, Japanese and Korean text by the character: `SpeechDuration`).
    /// With `chosen` (`--chapters`), the rest was left out by the user, and the line says so:
    /// `reading 4,210 words in 2 sections chosen with --chapters; leaving out 157,613 words in 59 others`.
    static func readingLine(
        _ totals: ReadingTotals, withDuration: Bool = false, wordsPerMinute: Int = 175, audioSeconds: Double? = nil,
        chosen: Bool = false
    ) -> String {
        var line = "reading \(words(totals.readWords)) in \(plural(totals.readSections, "section"))"
        if chosen { line += " chosen with --chapters" }
        if withDuration {
            let minutes = audioSeconds.map { $0 / 60 } ?? totals.readMinutes(wordsPerMinute: wordsPerMinute)
            line += " (about \(duration(minutes: minutes)) of audio)"
        }
        if chosen {
            if totals.skippedSections > 0 {
                line += "; leaving out \(words(totals.skippedWords)) in \(plural(totals.skippedSections, "other"))"
            }
        } else if totals.skippedSections == 0 {
            line += "; nothing skipped"
        } else if totals.skippedWords == 0 {
            line += "; skipping \(plural(totals.skippedSections, "section")) with no words"
        } else {
            line += "; skipping \(words(totals.skippedWords)) in \(plural(totals.skippedSections, "section"))"
        }
        return line
    }

    /// One line for a skipped-text warning (after `warning:`), saying how to read what is skipped;
    /// `listing`: under the list itself, which need not be pointed to.
    static func message(for warning: SkippedTextWarning, listing: Bool) -> String {
        switch warning {
        case .largeSection(let number, let kind, let count):
            return "section \(number) (\(kind.rawValue), \(words(count))) is skipped; "
                + "read it with --chapters \(number) or --include \(kind.rawValue)"
        case .largeShare(let skippedWords, let skippedSections, let totalWords):
            let percent = Int((100 * Double(skippedWords) / Double(max(1, totalWords))).rounded())
            let verb = skippedSections == 1 ? "holds" : "hold"
            return "\(plural(skippedSections, "skipped section")) \(verb) \(words(skippedWords)), "
                + "\(percent)% of the book; \(listing ? "" : "see --list, or ")read everything with --include all"
        }
    }

    /// "1 word", "12,345 words".
    static func words(_ count: Int) -> String {
        Counts.of(count, "word")
    }

    static func joinedNames(_ names: [String]) -> String {
        switch names.count {
        case 0: return ""
        case 1: return names[0]
        case 2: return "\(names[0]) and \(names[1])"
        default: return names.dropLast().joined(separator: ", ") + ", and " + names[names.count - 1]
        }
    }

    /// 12,345 (a thousands separator that does not depend on the locale): `Counts.grouped`.
    static func grouped(_ value: Int) -> String { Counts.grouped(value) }

    /// A rough audio length (`ReadingTotals.readMinutes`): "3 h 12 min", "14 min"; "1 min" for any
    /// speech shorter, "0 min" for none.
    static func duration(minutes exact: Double) -> String {
        let minutes = Int(exact.rounded())
        if minutes < 60 { return "\(max(minutes, exact > 0 ? 1 : 0)) min" }
        return "\(minutes / 60) h \(minutes % 60) min"
    }
}
