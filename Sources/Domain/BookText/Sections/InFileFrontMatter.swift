import Contracts
import EPUBReader

/// Front matter that shares a file with the text: a title page or a printed contents list ahead of
/// the first chapter, in the file the first TOC entry or a landmark points at. The text is cut where
/// the book's own heading says the chapter begins, so exactly the front part is judged on its own.
extension StartRefinement {
    /// A chapter's heading is looked for among this many blocks of its file's start.
    static let headingSearchBlocks = 200

    /// A TOC entry that points at the start of a file whose own heading for the entry comes later
    /// starts at that heading instead, and the text before it becomes a section of its own, judged
    /// on its own evidence: for the first entry, whatever that text is (a title page, a printed
    /// contents list); for any other, when the file opens with matter the book marks as such (a
    /// copyright page, a dedication, an epigraph in `<section epub:type>` ahead of the chapter's).
    /// Left whole, the chapter took the opening's mark, and a 3,000-word first chapter was
    /// skipped as a dedication.
    func startEntriesAtTheirHeadings(_ starts: [SectionStart]) -> [SectionStart] {
        let first = starts.indices.min { starts[$0].position < starts[$1].position }
        var result = starts
        for index in starts.indices where starts[index].origin == .toc && !starts[index].fromHeadings {
            guard starts[index].position.blockIndex == 0, let label = starts[index].label else { continue }
            let spineIndex = starts[index].position.spineIndex
            // The cheap test first: most files open with their chapter, unmarked.
            let marks = index == first ? [] : openingMatterTypes(spineIndex)
            guard index == first || !marks.isEmpty, let heading = ownHeading(of: label, in: spineIndex), heading > 0,
                index == first || marks.contains(where: { !book.docs[spineIndex].blocks[heading].types.contains($0) })
            else { continue }
            result[index].position = SourcePosition(spineIndex: spineIndex, blockIndex: heading)
            result[index].link = book.link(at: result[index].position)
        }
        return result
    }

    /// The types of front or back matter the first text of spine item `spineIndex` carries (the
    /// chapter's own heading must not carry the one that makes it matter).
    private func openingMatterTypes(_ spineIndex: Int) -> [String] {
        guard spineIndex < book.docs.count, let opening = book.docs[spineIndex].blocks.first(where: { $0.hasText })
        else { return [] }
        return opening.types.filter { type in Patterns.semanticTypes[type].map { !$0.isBody } ?? false }
    }

    /// A landmark of front or back matter (cover, title page, copyright...) that points at a file
    /// holding most of the book marks where that kind starts, not the whole file: the text resumes
    /// at the file's next heading, which starts a section of its own.
    func splitFilesLandmarksOverreach(_ starts: [SectionStart]) -> [SectionStart] {
        var result = starts
        let bookWords = statistics.bookWords
        for mark in book.package.landmarks + book.package.guide {
            guard let kind = Patterns.semanticTypes[mark.type.lowercased()], !kind.isBody,
                let spineIndex = book.spineIndex(of: mark.target.path), 2 * book.docs[spineIndex].words >= bookWords,
                bookWords > 0
            else { continue }
            let blocks = book.docs[spineIndex].blocks
            let from = mark.target.fragment.flatMap { book.docs[spineIndex].anchors[$0] } ?? 0
            guard let heading = blocks.indices.first(where: { $0 > from && blocks[$0].kind == .heading }),
                !result.contains(where: {
                    $0.position.spineIndex == spineIndex && $0.position.blockIndex > from
                        && $0.position.blockIndex <= heading
                })
            else { continue }
            let position = SourcePosition(spineIndex: spineIndex, blockIndex: heading)
            result.append(
                SectionStart(
                    position: position, origin: .toc, label: blocks[heading].text, link: book.link(at: position),
                    fromHeadings: true))
        }
        return result
    }

    /// The block of the heading in spine item `spineIndex` whose text is the TOC label (either
    /// holding the other, folded), among the first `headingSearchBlocks` blocks, when text comes
    /// before it.
    private func ownHeading(of label: String, in spineIndex: Int) -> Int? {
        let folded = TextFold.fold(label)
        guard folded.count >= 3, spineIndex < book.docs.count else { return nil }
        var wordsBefore = 0
        for (blockIndex, block) in book.docs[spineIndex].blocks.prefix(Self.headingSearchBlocks).enumerated() {
            if block.kind == .heading, !block.text.isEmpty {
                let heading = TextFold.fold(block.text)
                if heading == folded || (heading.count >= 3 && (heading.contains(folded) || folded.contains(heading))) {
                    return wordsBefore > 0 ? blockIndex : nil
                }
            }
            if !block.isNote, !block.isOmitted { wordsBefore += block.words }
        }
        return nil
    }
}
