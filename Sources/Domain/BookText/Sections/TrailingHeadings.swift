import Contracts
import EPUBReader

/// Books split at page breaks often end a file with the next chapter's heading (its numeral, its
/// title) while the chapter's text goes on in the next file. The heading opens that chapter: a
/// section starts at it and runs on into the next file, whatever the TOC points at. Left where the
/// TOC put the start (the next file), every chapter ended with the next one's numeral and began
/// without its own.
extension StartRefinement {
    /// The most blocks a chapter's heading takes at the end of a file: a numeral, a title, a subtitle.
    static let trailingHeadingBlocks = 3

    /// Starts at the start of a file whose previous file ends with a heading (nothing after it but
    /// page breaks and blank elements) move back to that heading, when the file does not open with a
    /// heading of its own; and every start that stands on such trailing headings, moved or pointed
    /// at by the TOC, is marked to run on into the next file (`SectionStart.runsIntoNextFile`).
    func startingAtTrailingHeadings(_ starts: [SectionStart]) -> [SectionStart] {
        var result = starts
        let taken = Set(starts.map(\.position))
        for index in result.indices {
            let position = result[index].position
            if let trailing = trailingHeadings(in: position.spineIndex), position.spineIndex + 1 < book.docs.count,
                position.blockIndex >= trailing
            {
                result[index].runsIntoNextFile = true
                continue
            }
            guard position.blockIndex == 0, position.spineIndex > 0, !opensWithHeading(position.spineIndex),
                let trailing = trailingHeadings(in: position.spineIndex - 1)
            else { continue }
            let heading = SourcePosition(spineIndex: position.spineIndex - 1, blockIndex: trailing)
            // The heading already starts a section of its own.
            guard !taken.contains(where: { $0 >= heading && $0 < position }) else { continue }
            result[index].position = heading
            result[index].link = book.link(at: heading)
            result[index].runsIntoNextFile = true
        }
        return result
    }

    /// The first block of the headings that end spine item `spineIndex` after text of another kind:
    /// up to `trailingHeadingBlocks` headings, or heading lines of which one is a heading or names a
    /// chapter ("CHAPTER IV", then "THE STORM" as a paragraph), with only blank blocks after them.
    func trailingHeadings(in spineIndex: Int) -> Int? {
        guard spineIndex < book.docs.count else { return nil }
        let blocks = book.docs[spineIndex].blocks
        var blockIndex = blocks.count
        var first: Int?
        var count = 0
        var named = false
        while blockIndex > 0 {
            blockIndex -= 1
            let block = blocks[blockIndex]
            // Page breaks, blank elements and pictures end a page; code, a table or an equation
            // is text (announced, or read).
            if !block.hasText || block.isNavigation || block.imageWords > 0 { continue }
            guard !block.isNote, block.kind == .heading || block.isHeadingLine, count < Self.trailingHeadingBlocks
            else { break }
            named = named || block.kind == .heading || Patterns.isChapterTitle(block.text)
            first = blockIndex
            count += 1
        }
        // Something else comes before them in the file: the file is not a heading page.
        guard let first, named, blocks[..<first].contains(where: { $0.hasText && !$0.isNote && !$0.isOmitted })
        else { return nil }
        return first
    }

    /// Whether spine item `spineIndex` opens with a heading, pictures aside (its chapter has a
    /// heading of its own).
    private func opensWithHeading(_ spineIndex: Int) -> Bool {
        guard spineIndex < book.docs.count else { return false }
        let first = book.docs[spineIndex].blocks.first { $0.hasText && !$0.isNote && !$0.isOmitted }
        return first?.kind == .heading
    }
}
