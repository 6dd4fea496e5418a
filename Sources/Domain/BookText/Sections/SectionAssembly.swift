import Contracts
import EPUBReader

/// The stage that turns the decided drafts into the book's sections: words counted again on what each
/// spans, front or back by position, the options applied, a title chosen (the TOC's label, else a
/// heading, the document's title or its opening line; never a file's generated name), a link to the
/// start.
struct SectionAssembly: BookStage {
    let book: IndexedBook
    let statistics: BookStatistics
    let options: SectionOptions

    /// A label longer than this is no title (a TOC entry whose text is a whole printed contents list).
    static let longestTitle = 150

    private func defaultTitleCandidates(_ d: SectionDraft) -> String? {
        let s = d.start.position.spineIndex
        if let label = d.start.label, !label.isEmpty, !Patterns.looksLikeFileName(label), !namesItsFile(label, s),
            !(Patterns.isGenericLabel(label) && !d.features.headings.isEmpty)
        {
            guard label.count > Self.longestTitle else { return label }
            if let h = d.features.headings.first, !h.isEmpty, h.count <= Self.longestTitle { return h }
            let cut = label.prefix(Self.longestTitle)
            return String(cut[..<(cut.lastIndex(of: " ") ?? cut.endIndex)]) + "…"
        }
        if let h = d.features.headings.first, !h.isEmpty { return h }
        if s < docs.count, let t = docs[s].title, !Patterns.looksLikeFileName(t), !namesItsFile(t, s),
            TextFold.fold(t) != TextFold.fold(package.metadata.title ?? "")
        {
            return t
        }
        return openingTitleLine(d)
    }

    /// Whether `title` is only the generated name of spine item `s`'s file ("part0005" in
    /// `part0005.html`, "leaf 0435" for `leaf0435.html`, "content 001"): a converter's numbered
    /// name for the file, not one a reader sees. ("Chapter 1" in `chapter1.xhtml` is a title.)
    private func namesItsFile(_ title: String, _ s: Int) -> Bool {
        guard s < package.spine.count, !Patterns.isChapterTitle(title) else { return false }
        func letters(_ text: Substring) -> String { String(text.lowercased().filter { $0.isLetter || $0.isNumber }) }
        let name = package.spine[s].href.split(separator: "/").last ?? ""
        let stem = letters(name.split(separator: ".").first ?? name)
        return stem.count(where: \.isNumber) >= 3 && stem == letters(Substring(title))
    }

    private func openingTitleLine(_ d: SectionDraft) -> String? {
        book.openingTitleLine(from: d.start.position, to: d.end)
    }

    /// The fewest words of image descriptions that make a page of pictures worth reading: a sentence.
    static let shortestPictureText = 8

    func sections(from drafts: [SectionDraft]) -> [BookSection] {
        var sections: [BookSection] = []
        let bodyIndices = drafts.indices.filter {
            drafts[$0].classification.role == .body && drafts[$0].features.words > 0
        }
        for (i, d) in drafts.enumerated() {
            var f = d.features
            // A merged draft spans more text: recount.
            let range = blocks(from: d.start.position, to: d.end)
            f.words = range.reduce(0) { $0 + (!$1.1.isNote && !$1.1.isOmitted ? $1.1.words : 0) }
            var c = d.classification
            // A notes section's text is its notes (read when it is asked for): count them.
            if c.kind == .notes { f.words = range.reduce(0) { $0 + (!$1.1.isOmitted ? $1.1.words : 0) } }
            var letters = ScriptCensus()
            var languages: [String: Int] = [:]
            for (_, block) in range where !block.isOmitted && (c.kind == .notes || !block.isNote) {
                letters.add(block.letters)
                if let language = block.language?.lowercased(), block.letters.total > 0 {
                    languages[language, default: 0] += block.letters.total
                }
            }
            // A page that is only pictures the author described is read as their descriptions, when
            // they say something: a scan's label ("leaf 0002") or a cover's title is no page of a story.
            if f.words == 0 {
                let described = range.reduce(0) { $0 + $1.1.imageWords }
                if described >= Self.shortestPictureText { f.words = described }
            }
            if c.role != .body {
                // Position decides front or back for kinds that can be either.
                if let firstBody = bodyIndices.first, i < firstBody {
                    c.role = .front
                } else if let lastBody = bodyIndices.last, i > lastBody {
                    c.role = .back
                }
            }
            var reasons = c.reasons
            var included = options.includes(kind: c.kind, role: c.role)
            if f.words == 0 {
                if included { reasons.insert("no text to read", at: 0) }
                included = false
            }
            let number = sections.count + 1
            let title =
                defaultTitleCandidates(SectionDraft(start: d.start, end: d.end, features: f)) ?? "Section \(number)"
            let spine = spineItems(from: d.start.position, to: d.end).map { package.spine[$0].href }
            let startItem = min(d.start.position.spineIndex, package.spine.count - 1)
            let link =
                d.start.link
                ?? EPUBLink(path: package.spine[startItem].href, fragment: fragment(at: d.start.position))
            sections.append(
                BookSection(
                    number: number, title: title, partTitle: d.start.partTitle, level: d.start.level, href: link,
                    spine: spine, role: c.role, kind: c.kind, confidence: c.confidence, reasons: reasons,
                    words: f.words, letters: letters, languages: languages,
                    included: included, start: d.start.position, end: d.end))
        }
        return sections
    }
}
