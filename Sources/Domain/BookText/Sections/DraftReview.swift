import Contracts
import EPUBReader

/// The stage of the section index after the drafts are assessed (`DraftAssessor`): each draft decided
/// on its evidence, then judged against the others — front and back matter by position, poems among
/// poems, sections as long as the chapters and named like matter among them, sections numbered in the
/// chapters' run, names that mislead in this book — and prose cut from a skipped page it ends. Every
/// rule here keeps the book's text from being skipped on a name or on the page before it
/// (docs/sections.md, "Conservation").
struct DraftReview: BookStage {
    let book: IndexedBook
    let statistics: BookStatistics

    /// Decides each draft from its evidence (computed with its features), then by position.
    func classify(_ drafts: inout [SectionDraft]) {
        for i in drafts.indices { drafts[i].decide() }
        addPositionEvidence(&drafts, to: Array(drafts.indices))
        readPoemsAmongPoems(&drafts)
        readChapterSizedSectionsAmongChapters(&drafts, among: Array(drafts.indices))
        readSectionsNumberedLikeTheChapters(&drafts)
    }

    /// Position: front matter clusters before the first chapter, back matter after the last; a
    /// section of text there that is short for the book (`isShortForTheBook`) is taken as front or
    /// back matter. The anthology's first story, shorter than the stories that stand out, is not.
    func addPositionEvidence(_ drafts: inout [SectionDraft], to candidates: [Int]) {
        // A section of text as long as half this book's typical one is a chapter too (a poem of
        // 40 words in a book of short poems).
        let longEnough = min(1500, max(1, statistics.typicalSectionWords / 2))
        let strongBody = drafts.indices.filter { index in
            let classification = drafts[index].classification
            return classification.role == .body && drafts[index].features.words > 0
                && (classification.bodyWeight >= 1.5 || drafts[index].features.words >= longEnough)
        }
        guard let first = strongBody.first, let last = strongBody.last else { return }
        for index in candidates where index < first || index > last {
            let words = drafts[index].features.words
            guard words < 1500, drafts[index].features.isShortForTheBook, drafts[index].classification.role == .body
            else {
                continue
            }
            let role: SectionRole = index < first ? .front : .back
            let where_ = index < first ? "before the first chapter" : "after the last chapter"
            drafts[index].evidence.append(Evidence(kind: nil, role: role, weight: 0.8, reason: "\(where_), short"))
            drafts[index].decide()
        }
    }

    /// Whether a draft is skipped although nothing in its text points away from the text: every
    /// such piece of evidence is the book's marks, a name, or weak and general (its place in the
    /// book); notes, references, glossaries and indexes with their shapes are what they say.
    func isSkippedOnlyForMarksAndNames(_ draft: SectionDraft) -> Bool {
        draft.classification.role != .body && !hasShapeOfItsKind(draft)
            && !KindExpectation.isApparatusByItsShape(draft.classification.kind, draft.features)
            && restsOnMarksAndNames(draft)
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
    func cuttingProseFromSkippedSections(_ drafts: [SectionDraft]) -> [SectionDraft] {
        var out: [SectionDraft] = []
        out.reserveCapacity(drafts.count)
        for draft in drafts {
            guard draft.classification.role != .body, Self.pageKinds.contains(draft.classification.kind),
                !draft.evidence.contains(where: \.isSemantic), let cut = runningTextStart(draft)
            else {
                out.append(draft)
                continue
            }
            var head = SectionDraft(start: draft.start, end: cut)
            var tail = SectionDraft(start: SectionStart(position: cut, origin: .untargeted), end: draft.end)
            assessor.assess(&tail)
            tail.decide()
            guard tail.classification.role == .body else {
                out.append(draft)  // the rest is front matter too: one section, as it was
                continue
            }
            assessor.assess(&head)
            head.decide()
            out += [head, tail]
        }
        return out
    }

    /// Where running text starts under a heading line in `draft` (`cuttingProseFromSkippedSections`).
    private func runningTextStart(_ draft: SectionDraft) -> SourcePosition? {
        let blocks = blocks(from: draft.start.position, to: draft.end).filter {
            $0.1.hasText && !$0.1.isNote && !$0.1.isOmitted
        }
        let total = blocks.reduce(0) { $0 + $1.1.words }
        var before = 0
        for (index, (position, block)) in blocks.enumerated() {
            if index > 0, block.isHeadingLine, total - before > before {
                let under = blocks[(index + 1)...].prefix { !$0.1.isHeadingLine && $0.1.kind != .heading }
                if under.reduce(0, { $0 + $1.1.words }) >= Self.shortestRunningText { return position }
            }
            before += block.words
        }
        return nil
    }

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
    /// matter and sized like a chapter, is one. Several such sections in a row stand together
    /// between the chapters (a course's "Introduction" and "Notes" pages of each week), and a
    /// section titled as one of them is read as well wherever it stands (week one's). The book's
    /// own marks, and what else the text holds (a page of links, notes the text refers to, a
    /// licence), still decide; so does the shape of notes or references placed after each chapter.
    /// Appendices are left out: a textbook ends its first volume with them, between chapters.
    func readChapterSizedSectionsAmongChapters(_ drafts: inout [SectionDraft], among candidates: [Int]) {
        let named = Set(candidates.filter { isOnlyNamedLikeMatter(drafts[$0]) })
        let among = Self.runs(of: named).filter { standsAmongChapters($0, in: drafts) }.flatMap { $0 }
        for i in among {
            let kind = drafts[i].classification.kind.rawValue
            drafts[i].read(because: "only named or noted like \(kind), as long as a chapter, among chapters")
        }
        let titlesAmong = Set(among.map { TextFold.fold(drafts[$0].features.title) }.filter { !$0.isEmpty })
        for i in named.subtracting(among).sorted()
        where titlesAmong.contains(TextFold.fold(drafts[i].features.title)) {
            drafts[i].read(because: "titled as sections read among the chapters, as long as a chapter")
        }
    }

    /// Whether nothing but its name or a notice line would skip `draft`, a section as long as a
    /// chapter of this book, of a kind it has not the shape of (appendices left out).
    private func isOnlyNamedLikeMatter(_ draft: SectionDraft) -> Bool {
        let classification = draft.classification
        return classification.role != .body && classification.kind != .appendix && !draft.features.isShortForTheBook
            && restsOnNameOrNotice(draft) && !hasShapeOfItsKind(draft)
    }

    /// Names mislead in a book whose sections are read although their names say front or back
    /// matter (their text says otherwise: prose under "Index", a chapter's number, a place among
    /// chapters) at least as often (`readsMisleadingNames`) as others between the first of them
    /// and the last section read are skipped only for their names (`isOnlyNamedLikeMatter`):
    /// chapters titled "Sources", "Symbols", "Credits", essays titled "Colophon" and "About the
    /// Author". Those are read too, with a warning; a preface before them and the back matter
    /// after the text stay (a book of poems titled "Index" and "Dedication" still ends with its
    /// real index). All of them are read when they hold more words than the text read (a book is
    /// not mostly its acknowledgements), or when every section read that is as long as a chapter,
    /// two or more, is read despite such a name: no name then tells the text from its matter.
    func readSectionsWhenNamesMislead(_ drafts: inout [SectionDraft]) -> EPUBWarning? {
        let readDespiteNames = drafts.indices.filter { isReadDespiteItsName(drafts[$0]) }
        guard let firstMisnamed = readDespiteNames.first else { return nil }
        let named = drafts.indices.filter { isOnlyNamedLikeMatter(drafts[$0]) }
        let misled: [Int]
        if namesMeanNothing(in: drafts, named: named, readDespiteNames: readDespiteNames.count) {
            misled = named
        } else {
            let lastRead = drafts.lastIndex { $0.classification.role == .body } ?? 0
            let between = named.filter { $0 > firstMisnamed && $0 < lastRead }
            misled = readsMisleadingNames(readDespiteNames.count, among: between) ? between : []
        }
        guard !misled.isEmpty else { return nil }
        let verb = readDespiteNames.count == 1 ? "is" : "are"
        let why = "\(Counts.of(readDespiteNames.count, "section")) named like front or back matter \(verb) read as text"
        for i in misled {
            drafts[i].read(because: "\(why) in this book")
        }
        let words = Counts.of(misled.reduce(0) { $0 + drafts[$1].features.words }, "word")
        let more = "\(misled.count) more named so \(misled.count == 1 ? "is" : "are") read too"
        return EPUBWarning(.major, "\(why): \(more) (\(words))")
    }

    /// Whether no name of front or back matter tells the text from its matter in this book: the
    /// sections skipped only for such names (`named`) hold more words than all that is read, or
    /// every section read that is as long as a chapter, two or more (`readDespiteNames`), is read
    /// despite such a name.
    private func namesMeanNothing(in drafts: [SectionDraft], named: [Int], readDespiteNames: Int) -> Bool {
        let namedWords = named.reduce(0) { $0 + drafts[$1].features.words }
        let readWords = drafts.reduce(0) { $0 + ($1.classification.role == .body ? $1.features.words : 0) }
        if namedWords > readWords { return true }
        let readUnderOtherNames = drafts.contains {
            $0.classification.role == .body && !$0.features.isShortForTheBook && !isReadDespiteItsName($0)
        }
        return readDespiteNames >= 2 && !readUnderOtherNames
    }

    /// Whether `readDespiteNames` sections read although named like matter outnumber the sections
    /// `between` them and the last one read that only their names skip, or match them two for two
    /// or more: one misleading name against one is no pattern, two against two is.
    private func readsMisleadingNames(_ readDespiteNames: Int, among between: [Int]) -> Bool {
        readDespiteNames > between.count || (readDespiteNames == between.count && readDespiteNames >= 2)
    }

    /// Whether `draft` is read although a name (title, heading, file name, id) says front or back matter.
    private func isReadDespiteItsName(_ draft: SectionDraft) -> Bool {
        draft.classification.role == .body && draft.evidence.contains { $0.isNaming && $0.kind != nil && !$0.isBody }
    }

    /// Whether the drafts of `run` have read chapters on each side, next to them, and at least
    /// `chaptersOnEachSide` of them before and after; or, in a book with fewer chapters than that
    /// asks for, one on each side (`standsBetweenTheFewChapters`).
    private func standsAmongChapters(_ run: Range<Int>, in drafts: [SectionDraft]) -> Bool {
        guard let (before, after) = chaptersAround(run, in: drafts) else { return false }
        if before >= Self.chaptersOnEachSide && after >= Self.chaptersOnEachSide { return true }
        return before + after < 2 * Self.chaptersOnEachSide && standsBetweenTheFewChapters(run, in: drafts)
    }

    /// A book of three stories, the middle one titled "Afterword", or three poems, one titled
    /// "Dedication", has not two chapters on each side to give: there one on each side will do, when
    /// both are as long as the book's chapters (a title page read as text, short for the book, is no
    /// chapter, and the preface after it stays at the edge), and the sections between them are
    /// neither lists or entries by kind (an index, a contents list, a chapter's notes: those are
    /// read when they are running prose, as `KindExpectation` says) nor of a shape of their kind.
    private func standsBetweenTheFewChapters(_ run: Range<Int>, in drafts: [SectionDraft]) -> Bool {
        let neighbours = [drafts[run.lowerBound - 1], drafts[run.upperBound]]
        return neighbours.allSatisfy { !$0.features.isShortForTheBook }
            && run.allSatisfy { index in
                let expectation = KindExpectation.of(drafts[index].classification.kind)
                return expectation?.form != .list && expectation?.form != .entries
                    && Self.shapesShowingPerChapter(drafts[index].classification.kind) == nil
                    && !(expectation?.shapes ?? []).contains { KindExpectation.has($0, drafts[index].features) }
            }
    }

    /// How many read sections of the text stand before and after `run`, when its neighbours on both
    /// sides are such sections; nil otherwise.
    private func chaptersAround(_ run: Range<Int>, in drafts: [SectionDraft]) -> (before: Int, after: Int)? {
        // Sections of the text proper: chapters, and a prologue, interlude or epilogue.
        func isText(_ index: Int) -> Bool {
            drafts[index].classification.role == .body && KindExpectation.of(drafts[index].classification.kind) == nil
        }
        guard run.lowerBound > 0, run.upperBound < drafts.count, isText(run.lowerBound - 1), isText(run.upperBound)
        else { return nil }
        return ((0..<run.lowerBound).count(where: isText), (run.upperBound..<drafts.count).count(where: isText))
    }

    /// Share of the read sections that are poems which makes a book one of poems (`readPoemsAmongPoems`).
    static let poemBookShare = 0.6

    /// In a book of poems, a short poem is no front or back matter for being short and standing
    /// before the first long poem or after the last: a haiku collection ends on three-line poems.
    /// A section skipped only for its size and place (`isSkippedOnlyForItsSize`), listed in the
    /// TOC under a title that names nothing (not the book's), whose text is verse, is read when
    /// most of the sections read are verse too.
    func readPoemsAmongPoems(_ drafts: inout [SectionDraft]) {
        let readSections = drafts.filter { $0.classification.role == .body && $0.features.words > 0 }
        let poems = readSections.count { Self.isVerse($0.features) }
        guard readSections.count >= 3, Double(poems) >= Self.poemBookShare * Double(readSections.count) else { return }
        let bookTitle = TextFold.fold(package.metadata.title ?? "")
        for index in drafts.indices where drafts[index].isSkippedOnlyForItsSize {
            let features = drafts[index].features
            guard features.fromTOC, Self.isVerse(features), Patterns.kind(forTitle: features.title) == nil,
                TextFold.fold(features.title) != bookTitle
            else { continue }
            drafts[index].read(
                because: "verse, as \(poems) of the \(Counts.of(readSections.count, "section")) read: a poem")
        }
    }

    /// Whether a section's text, below its headings, is mostly lines of verse.
    static func isVerse(_ features: SectionFeatures) -> Bool {
        features.verseLines > 0
            && Double(features.verseLines) >= KindExpectation.verseShare
                * Double(features.textBlocks - features.headingBlocks)
    }

    /// A section numbered in the run of the read chapters around it is one of them, and read when
    /// nothing in its text (but a notice line) says otherwise, whatever its marks and names: "1
    /// Introduction" before "2 Methods" and "3 Results" (bookdown, Quarto and Sphinx number every
    /// chapter), "Chapter 6" between chapters 5 and 7 that an exporter typed `preface` and filed as
    /// `appendix.xhtml`, "Chapter 12" after chapters 10 and 11 typed `backmatter`. The number is
    /// the title's (the TOC's label), else its first heading's (Sphinx numbers the headings); the
    /// run is the next two numbered sections, each a read chapter numbered on from it
    /// (`ChapterNumbers`), or, for a title that names nothing but the number, the previous two or
    /// one on each side: DocBook numbers the back matter on ("Chapter 21. Contributors").
    func readSectionsNumberedLikeTheChapters(_ drafts: inout [SectionDraft]) {
        let numbers = drafts.map { numberingTitle($0).flatMap(ChapterNumbers.numbering(inTitle:)) }
        let numbered = drafts.indices.filter { numbers[$0] != nil }
        // A chapter read here can complete the run of another (chapters 1 and 3 both mistyped):
        // again until none is read, each at most once.
        var read: Set<Int> = []
        var changed = true
        while changed {
            changed = false
            for (position, index) in numbered.enumerated()
            where drafts[index].classification.role != .body && !read.contains(index) {
                guard let numbering = numbers[index], restsOnMarksAndNames(drafts[index], orNotice: true),
                    let because = runOfChapters(
                        around: position, numbering: numbering, numbered: numbered, numbers: numbers, drafts)
                else { continue }
                drafts[index].read(because: because)
                read.insert(index)
                changed = true
            }
        }
    }

    /// Why the numbered draft at `chapterPosition` stands in the run of the read chapters around it, numbered
    /// with the same label (`readSectionsNumberedLikeTheChapters`), or nil.
    private func runOfChapters(
        around chapterPosition: Int, numbering: ChapterNumbers.Numbering, numbered: [Int],
        numbers: [ChapterNumbers.Numbering?],
        _ drafts: [SectionDraft]
    ) -> String? {
        func areReadChapters(_ indices: [Int]) -> Bool {
            indices.allSatisfy { drafts[$0].classification.role == .body && drafts[$0].classification.kind == .chapter }
        }
        /// Whether the sections at `indices`, with this one at `position`, are numbered each right after the one before.
        func isRun(_ indices: [Int], placing position: Int) -> Bool {
            var sequence: [ChapterNumbers.Numbering?] = indices.map { numbers[$0] }
            sequence.insert(numbering, at: position)
            return zip(sequence, sequence.dropFirst()).allSatisfy { pair in
                guard let earlier = pair.0, let later = pair.1 else { return false }
                return earlier.isFollowed(by: later)
            }
        }
        func listed(_ indices: [Int]) -> String {
            indices.compactMap { numbers[$0]?.description }.joined(separator: ", ")
        }
        let run = numbering.label == ChapterNumbers.chapterLabel ? "chapters" : "\"\(numbering.label)\" sections"
        let described = numbering.description
        let next = Array(numbered[(chapterPosition + 1)...].prefix(2))
        let previous = Array(numbered[..<chapterPosition].suffix(2))
        if next.count == 2, areReadChapters(next), isRun(next, placing: 0) {
            return "numbered \(described), as the \(run) after it (\(listed(next)))"
        }
        guard let title = numberingTitle(drafts[numbered[chapterPosition]]), Patterns.kind(forTitle: title) == nil
        else { return nil }
        if let before = previous.last, let after = next.first, areReadChapters([before, after]),
            isRun([before, after], placing: 1)
        {
            return "numbered \(described), between \(run) \(listed([before])) and \(listed([after]))"
        }
        if previous.count == 2, areReadChapters(previous), isRun(previous, placing: 2) {
            return "numbered \(described), as the \(run) before it (\(listed(previous)))"
        }
        return nil
    }

    /// The runs of consecutive numbers in `indices`, in order.
    static func runs(of indices: Set<Int>) -> [Range<Int>] {
        var out: [Range<Int>] = []
        for i in indices.sorted() {
            if let last = out.last, last.upperBound == i {
                out[out.count - 1] = last.lowerBound..<(i + 1)
            } else {
                out.append(i..<(i + 1))
            }
        }
        return out
    }

    /// Whether everything that would skip the draft is its name, a notice line, or weak generic
    /// evidence (very short).
    private func restsOnNameOrNotice(_ draft: SectionDraft) -> Bool {
        draft.evidence.allSatisfy {
            $0.isBody || $0.weight <= 0 || $0.isNaming || $0.isNotice || ($0.kind == nil && $0.weight < 1)
        }
    }

    /// The title that numbers a draft: its own (the TOC's label) when that has a number, else its
    /// first heading (Sphinx numbers the headings; a TOC may label "Chapter 8" as "Index").
    private func numberingTitle(_ draft: SectionDraft) -> String? {
        if ChapterNumbers.numbering(inTitle: draft.features.title) != nil { return draft.features.title }
        return draft.features.headings.first
    }

    /// Whether everything that would skip the draft is the book's marks, its names or weak generic
    /// evidence (its place), nothing else its text holds; with `orNotice`, a notice line too.
    private func restsOnMarksAndNames(_ draft: SectionDraft, orNotice: Bool = false) -> Bool {
        draft.evidence.allSatisfy { $0.isBody || $0.weight <= 0 || !$0.isContent || (orNotice && $0.isNotice) }
    }

    /// Whether a draft of a kind placed after chapters has that kind's shape (`shapesShowingPerChapter`).
    private func hasShapeOfItsKind(_ draft: SectionDraft) -> Bool {
        guard let shapes = Self.shapesShowingPerChapter(draft.classification.kind) else { return false }
        return draft.features.noteBlocks > 0 || shapes.contains { KindExpectation.has($0, draft.features) }
    }
}
