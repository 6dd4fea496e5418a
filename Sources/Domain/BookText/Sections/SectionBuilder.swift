import Contracts
import EPUBReader

/// Builds the section index of a book as stages, each taking what the one before returns
/// (docs/sections.md): TOC starts → refined starts → drafts assessed against the book's figures →
/// review → merges → dividers → sections → safeguards.
struct SectionBuilder {
    let book: IndexedBook
    let options: SectionOptions

    init(package: EPUBPackage, docs: [IndexedDocument], options: SectionOptions) {
        book = IndexedBook(package: package, docs: docs)
        self.options = options
    }

    /// The stages in order, with the warnings each gives.
    func build() -> SectionIndex {
        var warnings: [EPUBWarning] = []
        let toc = TOCStarts(book: book, options: options).starts()
        warnings += toc.warnings
        let firstFigures = BookStatistics(book)
        let refined = StartRefinement(book: book, statistics: firstFigures).refined(toc)
        warnings += refined.warnings
        let statistics = firstFigures.measuringSections(startingAt: refined.starts, in: book)
        let review = DraftReview(book: book, statistics: statistics)
        var drafts = review.assessor.drafts(between: refined.starts)
        review.classify(&drafts)
        if let warning = review.readSectionsWhenNamesMislead(&drafts) { warnings.append(warning) }
        drafts = review.cuttingProseFromSkippedSections(drafts)
        drafts = DraftMerging(review: review, insideEntries: toc.insideEntries).merged(drafts)
        drafts = DividerMarking(book: book).marked(drafts)
        let safeguards = Safeguards(book: book, statistics: statistics)
        safeguards.readListedPagesOfShortBooks(&drafts)
        let onlyMarkedOrNamed = drafts.map(review.isSkippedOnlyForMarksAndNames)
        var sections = SectionAssembly(book: book, statistics: statistics, options: options).sections(from: drafts)
        if let warning = safeguards.readEverythingWhenAlmostNothingIsRead(&sections) { warnings.append(warning) }
        warnings += safeguards.readSectionsLargerThanTheText(&sections, onlyMarkedOrNamed: onlyMarkedOrNamed)
        let checked = safeguards.partitioned(sections)
        if let warning = checked.warning { warnings.append(warning) }
        return SectionIndex(sections: checked.sections, warnings: warnings)
    }
}

/// A stage of `SectionBuilder.build` that reads the indexed book with the figures known at that point.
protocol BookStage {
    /// The book, indexed.
    var book: IndexedBook { get }
    /// The book's figures (typical section words once the starts are refined).
    var statistics: BookStatistics { get }
}

extension BookStage {
    var package: EPUBPackage { book.package }
    var docs: [IndexedDocument] { book.docs }
    var bookWords: Int { statistics.bookWords }
    /// Measures drafts with the book's figures as this stage knows them.
    var assessor: DraftAssessor { DraftAssessor(book: book, statistics: statistics) }
    func blocks(from start: SourcePosition, to end: SourcePosition) -> [(SourcePosition, IndexedBlock)] {
        book.blocks(from: start, to: end)
    }
    func spineItems(from start: SourcePosition, to end: SourcePosition) -> [Int] {
        book.spineItems(from: start, to: end)
    }
    func fragment(at position: SourcePosition) -> String? { book.fragment(at: position) }
    func isLinear(_ spineIndex: Int) -> Bool { book.isLinear(spineIndex) }
}
