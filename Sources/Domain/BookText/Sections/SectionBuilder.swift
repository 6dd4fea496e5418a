import Contracts
import Dispatch
import EPUBReader
import Markup
import Synchronization

struct SectionBuilder {
    let book: IndexedBook
    let options: SectionOptions
    var warnings: [EPUBWarning] = []
    /// The book's figures; its typical section words are set once the starts are refined.
    private(set) var statistics: BookStatistics

    init(package: EPUBPackage, docs: [IndexedDocument], options: SectionOptions) {
        book = IndexedBook(package: package, docs: docs)
        self.options = options
        statistics = BookStatistics(book)
    }

    var package: EPUBPackage { book.package }
    var docs: [IndexedDocument] { book.docs }
    var bookWords: Int { statistics.bookWords }
    private var endPosition: TextPosition { book.endPosition }
    func spineIndex(of path: String) -> Int? { book.spineIndex(of: path) }
    func position(of link: EPUBLink) -> (TextPosition, idFound: Bool)? { book.position(of: link) }
    func fragment(at p: TextPosition) -> String? { book.fragment(at: p) }
    func blocks(from start: TextPosition, to end: TextPosition) -> [(TextPosition, IndexedBlock)] {
        book.blocks(from: start, to: end)
    }
    func spineItems(from start: TextPosition, to end: TextPosition) -> [Int] { book.spineItems(from: start, to: end) }
    func isLinear(_ spineIndex: Int) -> Bool { book.isLinear(spineIndex) }

    // MARK: building

    /// TOC → candidate boundaries → heading refinement → cuts inside files → evidence → decision.
    mutating func build() -> SectionIndex {
        let toc = TOCStarts(book: book, options: options).starts()
        warnings += toc.warnings
        let refined = StartRefinement(book: book, statistics: statistics).refined(toc)
        warnings += refined.warnings
        let starts = refined.starts
        statistics = statistics.measuringSections(startingAt: starts, in: book)
        var drafts = assessor.drafts(between: starts)
        classify(&drafts)
        readSectionsWhenNamesMislead(&drafts)
        drafts = cuttingProseFromSkippedSections(drafts)
        drafts = merge(drafts, insideEntries: toc.insideEntries)
        reassessGrown(&drafts)
        drafts = DividerMarking(book: book).marked(drafts)
        readListedPagesOfShortBooks(&drafts)
        let onlyMarkedOrNamed = drafts.map(isSkippedOnlyForMarksAndNames)
        var sections = finish(drafts)
        readEverythingWhenAlmostNothingIsRead(&sections)
        readSectionsLargerThanTheText(&sections, onlyMarkedOrNamed: onlyMarkedOrNamed)
        let broken = SectionPartition.violations(of: sections, spineCount: docs.count)
        if !broken.isEmpty {
            assertionFailure("the sections are no partition of the spine: \(broken.joined(separator: "; "))")
            warnings.append(EPUBWarning(.major, "sections were rebuilt in reading order: \(broken[0])"))
            sections = SectionPartition.repaired(sections, spineCount: docs.count)
        }
        return SectionIndex(sections: sections, warnings: warnings)
    }

    /// A section that took in the text after it (files without a start of their own) is judged
    /// again on all of its text: the first file of a part can be a heading alone, "very short" and
    /// "before the first chapter", while the section runs for 100,000 words. Its size and shape,
    /// not its first page's, decide what it is.
    private func reassessGrown(_ drafts: inout [SectionDraft]) {
        let grown = drafts.indices.filter { drafts[$0].grown }
        guard !grown.isEmpty else { return }
        for i in grown {
            assessor.assess(&drafts[i])
            drafts[i].decide()
        }
        addPositionEvidence(&drafts, to: grown)
        readChapterSizedSectionsAmongChapters(&drafts, among: grown)
    }

    /// Measures drafts with the book's figures as known now.
    var assessor: DraftAssessor { DraftAssessor(book: book, statistics: statistics) }

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

    // MARK: classification

    /// Decides each draft from its evidence (computed with its features), then by position.
    private func classify(_ drafts: inout [SectionDraft]) {
        for i in drafts.indices { drafts[i].decide() }
        addPositionEvidence(&drafts, to: Array(drafts.indices))
        readPoemsAmongPoems(&drafts)
        readChapterSizedSectionsAmongChapters(&drafts, among: Array(drafts.indices))
        readSectionsNumberedLikeTheChapters(&drafts)
    }

    /// Position: front matter clusters before the first chapter, back matter after the last; a
    /// section of text there that is short for the book (`isShortForTheBook`) is taken as front or
    /// back matter. The anthology's first story, shorter than the stories that stand out, is not.
    private func addPositionEvidence(_ drafts: inout [SectionDraft], to candidates: [Int]) {
        // A section of text as long as half this book's typical one is a chapter too (a poem of
        // 40 words in a book of short poems).
        let longEnough = min(1500, max(1, statistics.typicalSectionWords / 2))
        let strongBody = drafts.indices.filter { i in
            let c = drafts[i].classification
            return c.role == .body && drafts[i].features.words > 0
                && (c.bodyWeight >= 1.5 || drafts[i].features.words >= longEnough)
        }
        guard let first = strongBody.first, let last = strongBody.last else { return }
        for i in candidates where i < first || i > last {
            let words = drafts[i].features.words
            guard words < 1500, drafts[i].features.isShortForTheBook, drafts[i].classification.role == .body else {
                continue
            }
            let role: SectionRole = i < first ? .front : .back
            let where_ = i < first ? "before the first chapter" : "after the last chapter"
            drafts[i].evidence.append(Evidence(kind: nil, role: role, weight: 0.8, reason: "\(where_), short"))
            drafts[i].decide()
        }
    }

    /// Text the TOC does not reach joins the section before it, unless it is something else.
    private func merge(_ drafts: [SectionDraft], insideEntries: Set<Int>) -> [SectionDraft] {
        var out: [SectionDraft] = []
        out.reserveCapacity(drafts.count)
        let firstTOC = drafts.firstIndex { $0.start.origin == .toc } ?? drafts.count
        // The last section kept began as a heading alone, or was judged skipped only for being
        // short and where it stands.
        var lastOpensWhatFollows = false
        for (i, d) in drafts.enumerated() {
            guard d.start.origin == .untargeted, i > firstTOC, var prev = out.last else {
                out.append(d)
                lastOpensWhatFollows = DividerMarking(book: book).isHeadingOnly(d) || d.isSkippedOnlyForItsSize
                continue
            }
            let c = d.classification
            let p = prev.classification
            // Only strong evidence of being something else keeps it apart (a copyright page after
            // the last chapter); sub-sections of a chapter or an appendix in files of their own join.
            let ownEvidence = d.evidence.contains { $0.weight >= 2 }
            let ownChapterHeading = d.features.headings.first.map(Patterns.isChapterTitle) ?? false
            let isInside = d.start.position.blockIndex == 0 && insideEntries.contains(d.start.position.spineIndex)
            // The text under a heading that ends the file before (`startingAtTrailingHeadings`).
            let continuesAHeading =
                prev.start.runsIntoNextFile && d.start.position.blockIndex == 0
                && d.start.position.spineIndex == prev.start.position.spineIndex + 1
            // A linear="no" item (a note popup, an answer key) is never glued to the reading order.
            let linearChanges =
                isLinear(d.start.position.spineIndex)
                != isLinear(prev.end.spineIndex - (prev.end.blockIndex == 0 ? 1 : 0))
            // Text that reads as the book's own never joins a section to be skipped unless the TOC
            // lists it under that section, or the section is only a heading naming what follows
            // ("Appendix" alone in its file) or was skipped only for being short and early (a
            // converter's cut after a poem's title and first line): its words would be lost on
            // another page's evidence (a poem after the copyright page). Joined, the section is
            // judged again on all of its text.
            let wouldBeLost = p.role != .body && c.role == .body && !lastOpensWhatFollows
            // Text that opens with a title of its own, naming nothing ("The River" after an unlisted
            // "Acknowledgement" page), is a page of its own: joined to a section named like matter,
            // it would be judged again with it and skipped for that name. ("Chapter Two" there
            // continues what came before as often as not.)
            let ownTitle = d.features.openingLine.map {
                Patterns.kind(forTitle: $0) == nil && !Patterns.isChapterTitle($0)
            }
            let apartFromAName =
                ownTitle == true && prev.evidence.contains { $0.isNaming && $0.kind != nil && !$0.isBody }
            // Apparatus with its kind's shape (a publisher's list after the last chapter, with no
            // entry of its own) stands apart, however weakly its title names it.
            let isShapedApparatus = c.role != .body && KindExpectation.hasApparatusShape(c.kind, d.features)
            let joins =
                !linearChanges
                && (isInside || continuesAHeading
                    || (!wouldBeLost && !apartFromAName && !ownChapterHeading && !isShapedApparatus
                        && (!ownEvidence || (c.role == p.role && c.kind == p.kind))))
            if joins {
                prev.end = d.end
                prev.grown = true
                out[out.count - 1] = prev
            } else {
                out.append(d)
                lastOpensWhatFollows = DividerMarking(book: book).isHeadingOnly(d) || d.isSkippedOnlyForItsSize
            }
        }
        return out
    }

    /// The fewest words of image descriptions that make a page of pictures worth reading: a sentence.
    static let shortestPictureText = 8

    private func finish(_ drafts: [SectionDraft]) -> [BookSection] {
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
            for (_, block) in range where !block.isOmitted && (c.kind == .notes || !block.isNote) {
                letters.add(block.letters)
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
                    words: f.words, letters: letters,
                    included: included, start: d.start.position, end: d.end))
        }
        return sections
    }
}
