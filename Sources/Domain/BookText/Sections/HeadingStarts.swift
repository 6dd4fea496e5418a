import Contracts
import EPUBReader

/// How far a table of contents can be trusted to cut the book into chapters.
enum TOCQuality: Equatable, Sendable {
    /// It reaches the text at several places: its entries make the sections.
    case usable
    /// It is missing or reaches no spine item.
    case absent
    /// It reaches one place only, or leaves most of the text outside its entries (a TOC that lists
    /// only the cover, the licence or the notes): the book's own headings make the sections, with
    /// the TOC's entries kept where they point.
    case degenerate(reason: String)

    /// Below this share of the book's words in sections that TOC entries start, the TOC does not
    /// describe the text (it points at the title page, the licence or the notes).
    static let minimumCoveredShare = 0.3
}

extension StartRefinement {
    /// Judges the TOC from the starts it gave and every place any of its entries points at.
    func assessTOC(_ starts: [SectionStart], allTargets: Set<SourcePosition>) -> TOCQuality {
        if starts.isEmpty { return .absent }
        if allTargets.count <= 1 { return .degenerate(reason: "the table of contents has a single entry") }
        let labels = starts.compactMap(\.label)
        if labels.count >= 2, labels.count == starts.count, labels.allSatisfy(Patterns.isPartTitle),
            book.package.toc.allSatisfy({ $0.children.isEmpty })
        {
            return .degenerate(reason: "the table of contents lists only parts")
        }
        let total = book.docs.reduce(0) { $0 + $1.words }
        guard total > 0 else { return .usable }
        let covered = wordsInSections(startingAt: starts.map(\.position))
        if Double(covered) < TOCQuality.minimumCoveredShare * Double(total) {
            return .degenerate(reason: "the table of contents does not reach most of the text")
        }
        return .usable
    }

    /// Words from each of `positions` up to the next one, or to the next spine item that none of
    /// them reaches (such items become sections of their own).
    private func wordsInSections(startingAt positions: [SourcePosition]) -> Int {
        let sorted = Set(positions).sorted()
        let startedItems = Set(sorted.map(\.spineIndex))
        var covered = 0
        for (index, start) in sorted.enumerated() {
            let limit = index + 1 < sorted.count ? sorted[index + 1] : book.endPosition
            var spineIndex = start.spineIndex
            while spineIndex < book.docs.count, spineIndex <= limit.spineIndex {
                // Another start, or the next one, opens this file: the text here is not this start's.
                let startedElsewhere =
                    startedItems.contains(spineIndex) || limit == SourcePosition(spineIndex: spineIndex, blockIndex: 0)
                if spineIndex != start.spineIndex, startedElsewhere { break }
                let blocks = book.docs[spineIndex].blocks
                let from = spineIndex == start.spineIndex ? start.blockIndex : 0
                let to = spineIndex == limit.spineIndex ? min(limit.blockIndex, blocks.count) : blocks.count
                if from < to { covered += blocks[from..<to].reduce(0) { $0 + ($1.isNote ? 0 : $1.words) } }
                spineIndex += 1
            }
        }
        return covered
    }

    /// Starts from the book's own headings: `h1`–`h4` at the chapter level, or, when the book has
    /// too few, a family of chapter titles written as paragraphs (`HeadingFamilies`).
    func headingStarts() -> [SectionStart] {
        let marked = markedHeadingStarts()
        if marked.count >= HeadingFamilies.minimumMembers { return marked }
        let lines = headingLines()
        guard let family = HeadingFamilies.chapterHeadings(in: lines) else { return marked }
        let familyStarts = family.map { line in
            SectionStart(
                position: line.position, origin: .toc, label: line.text, link: book.link(at: line.position),
                tocOrder: line.wordOffset, fromHeadings: true)
        }
        let taken = Set(familyStarts.map(\.position))
        return (familyStarts + marked.filter { !taken.contains($0.position) }).sorted { $0.position < $1.position }
    }

    /// The chapter level is the rank (`IndexedBlock.headingRank`: the level, deeper for each
    /// nested `<section>`) of the headings that open spine items (when at least two open with one
    /// rank: a title page's `h1` and the first chapter's `h2` say nothing, in a book split at page
    /// breaks whose chapters' headings end files), else the highest rank of `h1`–`h4` used three times; every heading at that rank or above starts a
    /// section, once per run of headings with no text between them.
    private func markedHeadingStarts() -> [SectionStart] {
        var openingRanks: [Int] = []
        var counts: [Int: Int] = [:]
        var chapterLike: Set<Int> = []  // ranks of h1–h4 headings
        for doc in book.docs {
            let opening = doc.blocks.prefix(while: { $0.kind != .paragraph }).prefix(4)
            if let rank = opening.first(where: { $0.kind == .heading })?.headingRank { openingRanks.append(rank) }
            for block in doc.blocks where block.kind == .heading {
                let rank = block.headingRank ?? 6
                counts[rank, default: 0] += 1
                if (block.headingLevel ?? 6) <= 4 { chapterLike.insert(rank) }
            }
        }
        var chapterLevel: Int
        if let (rank, files) = mostCommon(openingRanks), files >= 2 {
            chapterLevel = rank
        } else if let rank = counts.keys.sorted().first(where: { chapterLike.contains($0) && counts[$0]! >= 3 }) {
            chapterLevel = rank
        } else {
            return []
        }
        // Parts are no chapters: when every heading at that rank names a part, chapters are the
        // next rank used below it.
        let atLevel = book.docs.flatMap { $0.blocks.filter { $0.kind == .heading && $0.headingRank == chapterLevel } }
        if !atLevel.isEmpty, atLevel.allSatisfy({ Patterns.isPartTitle($0.text) }),
            let below = counts.keys.sorted().first(where: {
                $0 > chapterLevel && chapterLike.contains($0) && counts[$0]! >= 2
            })
        {
            chapterLevel = below
        }
        var starts: [SectionStart] = []
        for (spineIndex, doc) in book.docs.enumerated() {
            var previousWasStart = false
            for (blockIndex, block) in doc.blocks.enumerated() {
                if block.kind == .heading, (block.headingRank ?? 6) <= chapterLevel {
                    if !previousWasStart {
                        let position = SourcePosition(spineIndex: spineIndex, blockIndex: blockIndex)
                        starts.append(
                            SectionStart(
                                position: position, origin: .toc, label: block.text, link: book.link(at: position),
                                tocOrder: starts.count, fromHeadings: true))
                    }
                    // A part's heading does not swallow the first chapter's heading that follows it.
                    previousWasStart = !Patterns.isPartTitle(block.text)
                } else if block.hasText, block.kind != .heading {
                    previousWasStart = false
                }
            }
        }
        return starts
    }

    /// Without a TOC, a file with no heading still names its text when its `<title>` is its own:
    /// not the book's title, not the title of the file before it (a chapter cut into two files),
    /// not a file name. An epic or an anthology cut into one file per chapter often names the
    /// chapters only there. Only in a book where most files with text have titles of their own:
    /// one whose files repeat the book's title, or a few generic titles, gets no such start.
    func fileTitleStarts(besides starts: [SectionStart]) -> [SectionStart] {
        let filesWithStarts = Set(starts.map(\.position.spineIndex))
        let bookTitle = book.package.metadata.title.map(TextFold.fold)
        let filesWithText = book.docs.indices.filter { book.docs[$0].words > 0 }
        var ownTitles: [(file: Int, title: String)] = []
        var previous: String?
        for spineIndex in filesWithText {
            guard let title = book.docs[spineIndex].title else { continue }
            defer { previous = title }
            guard title != previous, title.count <= SectionAssembly.longestTitle, !Patterns.looksLikeFileName(title),
                TextFold.fold(title) != bookTitle
            else { continue }
            ownTitles.append((spineIndex, title))
        }
        guard filesWithText.count >= Self.minimumFilesForTitles,
            Double(ownTitles.count) >= Self.titledShare * Double(filesWithText.count)
        else { return [] }
        return ownTitles.filter { !filesWithStarts.contains($0.file) }.map { file, title in
            let position = SourcePosition(spineIndex: file, blockIndex: 0)
            return SectionStart(
                position: position, origin: .toc, label: title, link: book.link(at: position), tocOrder: file,
                fromHeadings: true, fromFileTitle: true)
        }
    }

    /// The files' titles name chapters only when at least this share of the files with text have
    /// titles of their own ...
    static let titledShare = 0.5
    /// ... in a book of at least this many files with text (one or two files say nothing).
    static let minimumFilesForTitles = 3

    /// Every paragraph of the book short enough to be a heading, with its place in the text.
    private func headingLines() -> [HeadingFamilies.Line] {
        var lines: [HeadingFamilies.Line] = []
        var offset = 0
        var classesOfText: Set<String> = []  // classes of the book's other blocks of text
        for (spineIndex, doc) in book.docs.enumerated() {
            for (blockIndex, block) in doc.blocks.enumerated() {
                if block.isHeadingLine, !block.text.isEmpty {
                    lines.append(
                        HeadingFamilies.Line(
                            position: SourcePosition(spineIndex: spineIndex, blockIndex: blockIndex), text: block.text,
                            wordOffset: offset,
                            headingClass: block.styleClass))
                } else if block.hasText, let styleClass = block.styleClass {
                    classesOfText.insert(styleClass)
                }
                if !block.isNote { offset += block.words }
            }
        }
        for index in lines.indices where lines[index].headingClass.map(classesOfText.contains) ?? false {
            lines[index].headingClass = nil
        }
        return lines
    }

    /// The value most often in `values` (the smallest of equals) and how often, nil when empty.
    private func mostCommon(_ values: [Int]) -> (Int, Int)? {
        var counts: [Int: Int] = [:]
        for value in values { counts[value, default: 0] += 1 }
        return counts.max { ($0.value, -$0.key) < ($1.value, -$1.key) }.map { ($0.key, $0.value) }
    }
}
