import EPUBReader

/// Steps of `SectionBuilder.build` that keep the book's text from being skipped on the evidence of
/// the page before it, or skipped whole.
extension SectionBuilder {
    /// Below this share of the book's words read, the decisions to skip are not to be trusted.
    static let leastShareRead = 0.01

    /// A book whose sections would all (or all but a line) be skipped is a book whose chapters
    /// are titled like front and back matter ("Sources", "Glossary", "Afterword"), or one the
    /// rules do not understand: a silent audiobook is the worst answer, so every section with
    /// text is read, with a warning. (A short poem with a long licence reads more than this.)
    mutating func readEverythingWhenAlmostNothingIsRead(_ sections: inout [BookSection]) {
        let total = sections.reduce(0) { $0 + $1.words }
        let read = sections.reduce(0) { $0 + ($1.included ? $1.words : 0) }
        guard total > 0, Double(read) < Self.leastShareRead * Double(total) else { return }
        for i in sections.indices where !sections[i].included && sections[i].words > 0 {
            sections[i].included = true
            sections[i].reasons.append("almost nothing else would be read → read")
        }
        warnings.append(
            EPUBWarning(
                .major,
                "every section looks like front or back matter (\(read) of \(total) words would be read): all are read")
        )
    }

    /// The fewest words under a heading line that make running text, not a page of front matter.
    static let shortestRunningText = 100

    /// Kinds that are a page of a few lines by nature: running text under a heading of its own
    /// after them is something else. (Notes, appendices, introductions run on under headings.)
    static let pageKinds: Set<SectionKind> = [
        .cover, .titlepage, .halftitle, .copyright, .imprint, .dedication, .epigraph,
    ]

    /// A page to be skipped (`pageKinds`) on what its text says (a copyright notice), not on the
    /// book's semantics, that ends in running text under a heading written as a paragraph
    /// ("Prologue" and its first page, after the copyright and dedication lines of a book whose
    /// chapters the TOC does not reach) is cut there when that text, judged on its own words, is
    /// to be read: the evidence of the page before it cannot skip it. The cut is made at the first
    /// such line under which at least `shortestRunningText` words run before the next one, when
    /// the text from it on outweighs the text before it.
    func cuttingProseFromSkippedSections(_ drafts: [Draft]) -> [Draft] {
        var out: [Draft] = []
        out.reserveCapacity(drafts.count)
        for draft in drafts {
            guard draft.classification.role != .body, Self.pageKinds.contains(draft.classification.kind),
                !draft.evidence.contains(where: \.isSemantic), let cut = runningTextStart(draft)
            else {
                out.append(draft)
                continue
            }
            var head = Draft(start: draft.start, end: cut)
            var tail = Draft(start: SectionStart(position: cut, origin: .untargeted), end: draft.end)
            assess(&tail)
            decide(&tail)
            guard tail.classification.role == .body else {
                out.append(draft)  // the rest is front matter too: one section, as it was
                continue
            }
            assess(&head)
            decide(&head)
            out += [head, tail]
        }
        return out
    }

    /// Where running text starts under a heading line in `draft` (`cuttingProseFromSkippedSections`).
    private func runningTextStart(_ draft: Draft) -> TextPosition? {
        let blocks = blocks(from: draft.start.position, to: draft.end).filter {
            $0.1.hasText && !$0.1.isNote && !$0.1.isOmitted
        }
        let total = blocks.reduce(0) { $0 + $1.1.words }
        var before = 0
        for (i, (position, block)) in blocks.enumerated() {
            if i > 0, block.isHeadingLine, total - before > before {
                let under = blocks[(i + 1)...].prefix { !$0.1.isHeadingLine && $0.1.kind != .heading }
                if under.reduce(0, { $0 + $1.1.words }) >= Self.shortestRunningText { return position }
            }
            before += block.words
        }
        return nil
    }
}

extension SectionBuilder {
    /// For kinds that some books place after each chapter (its notes, its references, a glossary
    /// of its terms), the shapes that show one: between chapters they keep their kind when their
    /// text has one of them. Notes are numbered (a poem of short lines titled "Notes toward…" is
    /// none); references and glossaries have the shapes they may have at any length. Nil for the
    /// other kinds.
    static func shapesShowingPerChapter(_ kind: SectionKind) -> [KindExpectation.Shape]? {
        switch kind {
        case .notes: [.numberedEntries]
        case .bibliography, .glossary: KindExpectation.of(kind)?.shapes
        default: nil
        }
    }

    /// Read sections of the text a section needs on each side to stand among the chapters, not
    /// at their edge: the preface after a title page read as text is at the edge.
    static let chaptersOnEachSide = 2

    /// A section as long as the book's chapters, standing among sections of the text that are
    /// read (`chaptersOnEachSide`, its neighbours among them), is read too when nothing but its
    /// name, or a notice line, says it is front or back matter: a poem titled "Index" or
    /// "Dedication" in a book of poems, a story titled "Acknowledgments" or opening with its
    /// permission line ("First published in… All rights reserved") in a collection. Front and back
    /// matter gather before the first chapter and after the last; a page among chapters, named like
    /// matter and sized like a chapter, is one. The book's own marks, and what else the text holds
    /// (a page of links, notes the text refers to, a licence), still decide; so does the shape of
    /// notes or references placed after each chapter. Appendices are left out: a textbook ends
    /// its first volume with them, between chapters.
    func readChapterSizedSectionsAmongChapters(_ drafts: inout [Draft], among candidates: [Int]) {
        let before = drafts.map(\.classification)
        let isText = before.map { $0.role == .body && $0.kind == .chapter }
        var textBefore = [0]  // textBefore[i]: sections of the text before draft i
        for t in isText { textBefore.append(textBefore[textBefore.count - 1] + (t ? 1 : 0)) }
        for i in candidates
        where before[i].role != .body && before[i].kind != .appendix && i > 0 && i + 1 < drafts.count {
            let textAfter = textBefore[drafts.count] - textBefore[i + 1]
            guard isText[i - 1], isText[i + 1], textBefore[i] >= Self.chaptersOnEachSide,
                textAfter >= Self.chaptersOnEachSide
            else { continue }
            let draft = drafts[i]
            guard !draft.features.isShortForTheBook, restsOnNameOrNotice(draft), !hasShapeOfItsKind(draft) else {
                continue
            }
            let reason = "only named or noted like \(before[i].kind.rawValue), as long as a chapter, among chapters"
            drafts[i].evidence.append(Evidence(kind: nil, role: .body, weight: 100, reason: reason))
            decide(&drafts[i])
        }
    }

    /// Whether everything that would skip the draft is its name, a notice line, or weak generic
    /// evidence (very short).
    private func restsOnNameOrNotice(_ draft: Draft) -> Bool {
        draft.evidence.allSatisfy {
            $0.isBody || $0.weight <= 0 || $0.isNaming || $0.isNotice || ($0.kind == nil && $0.weight < 1)
        }
    }

    /// Whether a draft of a kind placed after chapters has that kind's shape (`shapesShowingPerChapter`).
    private func hasShapeOfItsKind(_ draft: Draft) -> Bool {
        guard let shapes = Self.shapesShowingPerChapter(draft.classification.kind) else { return false }
        return draft.features.noteBlocks > 0 || shapes.contains { KindExpectation.has($0, draft.features) }
    }
}
