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

    private func defaultTitleCandidates(_ draft: SectionDraft) -> String? {
        let spineIndex = draft.start.position.spineIndex
        if let label = draft.start.label, !label.isEmpty, !Patterns.looksLikeFileName(label),
            !namesItsFile(label, spineIndex),
            !(Patterns.isGenericLabel(label) && !draft.features.headings.isEmpty)
        {
            guard label.count > Self.longestTitle else { return label }
            if let heading = draft.features.headings.first, !heading.isEmpty, heading.count <= Self.longestTitle {
                return heading
            }
            let cut = label.prefix(Self.longestTitle)
            return String(cut[..<(cut.lastIndex(of: " ") ?? cut.endIndex)]) + "…"
        }
        if let heading = draft.features.headings.first, !heading.isEmpty { return heading }
        if spineIndex < docs.count, let documentTitle = docs[spineIndex].title,
            !Patterns.looksLikeFileName(documentTitle), !namesItsFile(documentTitle, spineIndex),
            TextFold.fold(documentTitle) != TextFold.fold(package.metadata.title ?? "")
        {
            return documentTitle
        }
        return openingTitleLine(draft)
    }

    /// Whether `title` is only the generated name of spine item `spineIndex`'s file ("part0005" in
    /// `part0005.html`, "leaf 0435" for `leaf0435.html`, "content 001"): a converter's numbered
    /// name for the file, not one a reader sees. ("Chapter 1" in `chapter1.xhtml` is a title.)
    private func namesItsFile(_ title: String, _ spineIndex: Int) -> Bool {
        guard spineIndex < package.spine.count, !Patterns.isChapterTitle(title) else { return false }
        func letters(_ text: Substring) -> String { String(text.lowercased().filter { $0.isLetter || $0.isNumber }) }
        let name = package.spine[spineIndex].href.split(separator: "/").last ?? ""
        let stem = letters(name.split(separator: ".").first ?? name)
        return stem.count(where: \.isNumber) >= 3 && stem == letters(Substring(title))
    }

    private func openingTitleLine(_ draft: SectionDraft) -> String? {
        book.openingTitleLine(from: draft.start.position, to: draft.end)
    }

    /// The fewest words of image descriptions that make a page of pictures worth reading: a sentence.
    static let shortestPictureText = 8

    func sections(from drafts: [SectionDraft]) -> [BookSection] {
        var sections: [BookSection] = []
        let bodyIndices = drafts.indices.filter {
            drafts[$0].classification.role == .body && drafts[$0].features.words > 0
        }
        for (index, draft) in drafts.enumerated() {
            var features = draft.features
            // A merged draft spans more text: recount.
            let range = blocks(from: draft.start.position, to: draft.end)
            features.words = range.reduce(0) { $0 + (!$1.1.isNote && !$1.1.isOmitted ? $1.1.words : 0) }
            var classification = draft.classification
            // A notes section's text is its notes (read when it is asked for): count them.
            if classification.kind == .notes {
                features.words = range.reduce(0) { $0 + (!$1.1.isOmitted ? $1.1.words : 0) }
            }
            var letters = ScriptCensus()
            var languages: [String: Int] = [:]
            for (_, block) in range where !block.isOmitted && (classification.kind == .notes || !block.isNote) {
                letters.add(block.letters)
                if let language = block.language?.lowercased(), block.letters.total > 0 {
                    languages[language, default: 0] += block.letters.total
                }
            }
            // A page that is only pictures the author described is read as their descriptions, when
            // they say something: a scan's label ("leaf 0002") or a cover's title is no page of a story.
            if features.words == 0 {
                let described = range.reduce(0) { $0 + $1.1.imageWords }
                if described >= Self.shortestPictureText { features.words = described }
            }
            if classification.role != .body {
                // Position decides front or back for kinds that can be either.
                if let firstBody = bodyIndices.first, index < firstBody {
                    classification.role = .front
                } else if let lastBody = bodyIndices.last, index > lastBody {
                    classification.role = .back
                }
            }
            var reasons = classification.reasons
            var included = options.includes(kind: classification.kind, role: classification.role)
            if features.words == 0 {
                if included { reasons.insert("no text to read", at: 0) }
                included = false
            }
            let number = sections.count + 1
            let title =
                defaultTitleCandidates(SectionDraft(start: draft.start, end: draft.end, features: features))
                ?? "Section \(number)"
            let spine = spineItems(from: draft.start.position, to: draft.end).map { package.spine[$0].href }
            let startItem = min(draft.start.position.spineIndex, package.spine.count - 1)
            let link =
                draft.start.link
                ?? EPUBLink(path: package.spine[startItem].href, fragment: fragment(at: draft.start.position))
            sections.append(
                BookSection(
                    number: number, title: title, partTitle: draft.start.partTitle, level: draft.start.level,
                    href: link,
                    spine: spine, role: classification.role, kind: classification.kind,
                    confidence: classification.confidence, reasons: reasons,
                    words: features.words, letters: letters, languages: languages,
                    included: included, start: draft.start.position, end: draft.end))
        }
        return sections
    }
}
