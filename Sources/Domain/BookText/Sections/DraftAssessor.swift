import Contracts
import Dispatch
import EPUBReader
import Synchronization

/// Stage 3 of the section index: one draft per refined start, running until the next start, with
/// what its text looks like (`SectionFeatures`) measured against the book's figures
/// (`BookStatistics`, computed before any draft is) and the evidence those features give.
///
/// The later stages assess again with the same assessor the drafts they cut or join; the apparatus
/// search of `StartRefinement` measures a file's closing text with the figures known before any
/// section is drawn.
struct DraftAssessor: Sendable {
    let book: IndexedBook
    let statistics: BookStatistics

    /// One assessed draft per start, running until the next start. Each draft is judged on its own
    /// text alone, so they are assessed on every core (a book of 2,000 chapters has 2,000 openings
    /// to read).
    func drafts(between starts: [SectionStart]) -> [SectionDraft] {
        var drafts: [SectionDraft] = []
        // A draft is large: growing the array by doubling held a third copy at the peak of --list.
        drafts.reserveCapacity(starts.count)
        for (index, start) in starts.enumerated() {
            let end = index + 1 < starts.count ? starts[index + 1].position : book.endPosition
            guard start.position < end else { continue }
            drafts.append(SectionDraft(start: start, end: end))
        }
        let unassessed = drafts
        let assessed = Mutex(drafts)
        DispatchQueue.concurrentPerform(iterations: unassessed.count) { index in
            var draft = unassessed[index]
            assess(&draft)
            assessed.withLock { $0[index] = draft }
        }
        return assessed.withLock { $0 }
    }

    /// A draft's features and the evidence they give, for the text it covers now.
    func assess(_ draft: inout SectionDraft) {
        draft.features = features(of: draft)
        draft.evidence = SectionClassifier.evidence(draft.features)
        draft.features.openingText = ""  // read once for the evidence: not kept for every section
    }

    /// What the classifier looks at in the draft's text, its start and its files.
    func features(of draft: SectionDraft) -> SectionFeatures {
        let range = book.blocks(from: draft.start.position, to: draft.end)
        var features = startFeatures(of: draft.start)
        if draft.start.origin == .untargeted, draft.start.label == nil,
            !range.contains(where: { $0.1.kind == .heading })
        {
            features.openingLine = book.openingTitleLine(from: draft.start.position, to: draft.end)
        }
        count(range, into: &features)
        let items = book.spineItems(from: draft.start.position, to: draft.end)
        features.images = items.reduce(0) { $0 + book.docs[$1].imageCount }
        if let first = range.first(where: { $0.1.hasText || $0.1.kind == .notice }) ?? range.first {
            features.firstTypes = first.1.types
        } else if draft.start.position.spineIndex < book.docs.count {
            features.firstTypes = book.docs[draft.start.position.spineIndex].bodyTypes
        }
        if let region = draft.start.regionType, !features.firstTypes.contains(region) {
            features.firstTypes.append(region)
        }
        addFileFeatures(of: draft.start, items: items, into: &features)
        return features
    }

    /// The features a draft's start gives, and the book's figures.
    private func startFeatures(of start: SectionStart) -> SectionFeatures {
        var features = SectionFeatures(title: start.label ?? "")
        features.tocLabel = start.origin == .toc ? start.label : nil
        features.fromTOC = start.origin == .toc && !start.fromHeadings
        features.fromHeadings = start.fromHeadings
        features.fromFileTitle = start.fromFileTitle
        features.isTOCContainer = start.isContainer
        features.bookTitle = book.package.metadata.title
        features.commonFileTokens = statistics.commonFileTokens
        features.commonIdTokens = statistics.commonIdTokens
        features.bookWords = statistics.bookWords
        features.typicalSectionWords = statistics.typicalSectionWords
        return features
    }

    /// Counts the blocks of `range` (notes, numbered blocks, entries, verse, words...) and reads
    /// its opening text.
    private func count(_ range: [(SourcePosition, IndexedBlock)], into features: inout SectionFeatures) {
        var openingText = OpeningText()
        var previousSortKey = ""
        for (position, block) in range {
            if statistics.referencedNoteBlocks.contains(position) { features.referencedNotes += 1 }
            if block.kind == .heading, features.headings.count < 3 { features.headings.append(block.text) }
            if block.isNote, block.hasText { features.noteBlocks += 1 }
            guard !block.isNote, !block.isOmitted, block.hasText else { continue }
            if block.isNumbered || block.kind == .listItem { features.numberedBlocks += 1 }
            if block.kind == .listItem { features.listItems += 1 }
            if block.isEntry { features.entryBlocks += 1 }
            if block.isPageEntry { features.pageEntryBlocks += 1 }
            if let key = block.sortKey {
                features.keyedBlocks += 1
                if key >= previousSortKey { features.alphabeticalBlocks += 1 }
                previousSortKey = key
            }
            if block.isVerse { features.verseLines += 1 }
            if block.kind == .heading { features.headingBlocks += 1 }
            features.words += block.words
            features.linkWords += block.linkWords
            features.textBlocks += 1
            if block.words <= 8 { features.shortBlocks += 1 }
            if !openingText.isFull { openingText.append(block.text, pieceCount: block.openingPieceCount) }
        }
        var opening = openingText.text
        if features.textBlocks == 0, let firstText = range.first(where: { $0.1.hasText }) {
            opening = firstText.1.text  // a notes-only section still has text to look at
        }
        let hasCopyrightSign = opening.utf8.containsBytes("©") && opening.contains("©")  // bytes first: cheap
        features.openingText = TextFold.foldForASCIISearch(opening) + (hasCopyrightSign ? " ©" : "")
        features.openingNumeralShare = Self.numeralShare(features.openingText)
        features.copyrightSignals = SectionClassifier.copyrightSignals(features)
        features.hasGutenbergMarker = range.prefix(60).contains { $0.1.hasGutenbergMarker }
    }

    /// What the file a draft starts in says: its name, its size, whether the draft's files are in
    /// the reading order, the id it starts at, the landmarks pointing there.
    private func addFileFeatures(of start: SectionStart, items: [Int], into features: inout SectionFeatures) {
        let spine = book.package.spine
        let startItem = start.position.spineIndex
        guard startItem < spine.count else { return }
        features.fileNames = [spine[startItem].href]
        features.startFileWords = startItem < book.docs.count ? book.docs[startItem].words : 0
        features.allNonLinear = items.allSatisfy { $0 < spine.count && !spine[$0].linear }
        features.fragment = start.link?.fragment
        let marks = book.package.landmarks + book.package.guide
        for mark in marks where book.spineIndex(of: mark.target.path) == startItem {
            let markBlock = mark.target.fragment.flatMap { book.docs[startItem].anchors[$0] } ?? 0
            if markBlock == start.position.blockIndex {
                features.landmarkTypes.append(mark.type.lowercased())
            }
        }
    }

    /// The share of the words of folded text (`TextFold.fold`: words between single spaces)
    /// that are numbers.
    static func numeralShare(_ folded: String) -> Double {
        var words = 0
        var numerals = 0
        for word in folded.utf8.split(separator: UInt8(ascii: " ")) {
            words += 1
            if word.allSatisfy({ $0 &- UInt8(ascii: "0") < 10 }) { numerals += 1 }
        }
        return words == 0 ? 0 : Double(numerals) / Double(words)
    }
}
