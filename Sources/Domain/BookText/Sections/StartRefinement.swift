import EPUBReader

/// Stage 2 of the section index: the TOC's starts refined from the book's own structure, so that
/// each start opens one kind of text and every word of the spine lies after some start.
///
/// In order: the book's headings where the TOC is missing or degenerate (`HeadingStarts.swift`);
/// an entry's start moved to its own heading past front matter in its file, a front-matter
/// landmark cut short at the next heading (`InFileFrontMatter.swift`), and a chapter started at
/// the headings that end the file before it (`TrailingHeadings.swift`); then text no start reaches,
/// Project Gutenberg's header and licence, semantic regions (`InFileRegions.swift`) and apparatus
/// closing a file of the text (`InFileApparatus.swift`). Each step takes the starts of the one
/// before and returns new ones; several starts at one place are made one
/// (`StartDeduplication`) after the headings, after the moves, and at the end.
struct StartRefinement {
    let book: IndexedBook
    /// The book's figures as known before any section is drawn (`typicalSectionWords` unknown):
    /// its words, and the blocks note references point at (the apparatus search measures text).
    let statistics: BookStatistics

    /// The refined starts, in reading order, one per place, and the warnings met.
    struct Output {
        var starts: [SectionStart]
        var warnings: [EPUBWarning]
    }

    /// The starts of `toc`, refined.
    func refined(_ toc: TOCStarts.Output) -> Output {
        var warnings: [EPUBWarning] = []
        let fromTOCAndHeadings = startsFromTOCAndHeadings(toc)
        warnings += fromTOCAndHeadings.warnings
        var starts = fromTOCAndHeadings.starts
        starts = startingAtTrailingHeadings(splitFilesLandmarksOverreach(startEntriesAtTheirHeadings(starts)))
        let moved = StartDeduplication.deduplicated(starts)
        warnings += moved.warnings
        starts = splittingApparatusInFiles(splitRegions(splitBoilerplate(addingUntargetedText(moved.starts))))
        let cut = StartDeduplication.deduplicated(starts)
        warnings += cut.warnings
        return Output(starts: cut.starts, warnings: warnings)
    }

    /// The TOC's starts, with the book's headings where the TOC is missing or degenerate
    /// (`TOCQuality`), one per place; chapters found among the headings take the part the TOC
    /// lists them under.
    private func startsFromTOCAndHeadings(_ toc: TOCStarts.Output) -> Output {
        var starts = toc.starts
        var warnings: [EPUBWarning] = []
        switch assessTOC(starts, allTargets: toc.allTargets) {
        case .usable:
            break
        case .absent:
            let reason =
                book.package.toc.isEmpty ? "the book has no table of contents" : "the table of contents is not usable"
            warnings.append(EPUBWarning(.major, "\(reason); sections follow the spine and its headings"))
            starts = headingStarts()
            starts = (starts + fileTitleStarts(besides: starts)).sorted { $0.position < $1.position }
        case .degenerate(let reason):
            let headings = headingStarts()
            if !headings.isEmpty {
                warnings.append(EPUBWarning(.minor, "\(reason); sections also follow the book's headings"))
                starts += headings
            }
        }
        let deduplicated = StartDeduplication.deduplicated(starts)
        return Output(starts: partTitlesForHeadings(deduplicated.starts), warnings: warnings + deduplicated.warnings)
    }

    /// Chapters found among the headings inside a part the TOC lists take that part's title.
    private func partTitlesForHeadings(_ starts: [SectionStart]) -> [SectionStart] {
        guard starts.contains(where: \.fromHeadings) else { return starts }  // the usual case: nothing to do
        var part: String?
        return starts.map { start in
            var start = start
            if start.origin == .toc, !start.fromHeadings {
                part =
                    start.label.flatMap { Patterns.isPartTitle($0) ? $0 : nil }
                    ?? (start.isContainer ? start.label : nil)
            } else if start.fromHeadings, start.partTitle == nil, let label = start.label, !Patterns.isPartTitle(label)
            {
                start.partTitle = part
                start.level = part == nil ? 1 : 2
            }
            return start
        }
    }
}
