/// What web-built and converted books put around their text that a listener should not hear,
/// found by its structure once a document is flattened: a bar of links to the pages before and after,
/// a list of links atop a chapter, an image description that says what the caption beside it says.
/// Each rule marks blocks as never spoken (`OmittedContent`), so positions stay what they were.
extension FlatDocument {
    /// The most words of a navigation bar ("← Previous: The Harbour | Next: The Storm →").
    static let longestNavigationBar = 12
    /// How many blocks with words at either end of a document are looked at for a navigation bar.
    static let navigationBarReach = 3
    /// Characters that draw a direction on a link ("← Previous", "Next »").
    static let directionMarks: Set<Character> = [
        "←", "→", "«", "»", "‹", "›", "⇐", "⇒", "◀", "▶", "◄", "►", "⟵", "⟶", "⇦", "⇨", "⬅", "➡", "<", ">",
    ]

    /// Blocks with words that are read: not notes, not already set aside.
    private var textBlockIndices: [Int] {
        blocks.indices.filter { blocks[$0].noteID == nil && blocks[$0].omitted == nil && blocks[$0].words > 0 }
    }

    /// A web page's navigation bar is not read: at either end of a page of prose, a short block made
    /// only of links (at most four, none a heading) that point at the spine item before or after this
    /// one, or that show a direction ("← Previous", "Next →"). At the top only headings may stand
    /// before it (a list of links after a chapter's introduction is its outline); at the bottom only
    /// short lines may follow it (a footer). A contents page (more words in links than outside them)
    /// keeps its links: they are its text.
    mutating func dropNavigationBars() {
        let text = textBlockIndices
        let words = text.reduce(0) { $0 + blocks[$1].words }
        let linkWords = text.reduce(0) { $0 + blocks[$1].linkWords }
        guard !text.isEmpty, words - linkWords >= linkWords else { return }
        var bars: [Int] = []
        for blockIndex in text.prefix(Self.navigationBarReach) {
            if isNavigationBar(blocks[blockIndex]) {
                bars.append(blockIndex)
            } else if blocks[blockIndex].kind != .heading {
                break
            }
        }
        for blockIndex in text.suffix(Self.navigationBarReach).reversed() {
            if isNavigationBar(blocks[blockIndex]) {
                bars.append(blockIndex)
            } else if blocks[blockIndex].words > Self.longestNavigationBar {
                break
            }
        }
        for blockIndex in bars {
            blocks[blockIndex].omitted = .navigation
            blocks[blockIndex].words = 0
        }
    }

    private func isNavigationBar(_ block: RawBlock) -> Bool {
        guard block.kind != .heading, block.words <= Self.longestNavigationBar, block.linkWords >= block.words,
            (1...4).contains(block.links.total)
        else { return false }
        if block.links.neighbour > 0, block.links.sameFile == 0 { return true }
        return block.text.contains(where: Self.directionMarks.contains)
    }

    /// The fewest entries of a contents list atop a chapter.
    static let fewestContentsEntries = 3
    /// The most words outside headings before it: a subtitle, a line saying what the chapter holds.
    /// An introduction of a few sentences, then links to the chapter's sections, is read: the links
    /// may be the chapter's own outline in prose.
    static let mostWordsAboveContents = 20
    /// The most words of one entry.
    static let longestContentsEntry = 20

    /// A chapter's own contents list is not read: a run of at least three list items at the top of
    /// the document (after its headings and at most `mostWordsAboveContents` words), each a link into this document or
    /// another of the book (a number beside it at most), in a document with more words outside the
    /// list than in it. A page that is only such a list is a contents page, judged as such.
    mutating func dropContentsAtTheTop() {
        let text = textBlockIndices
        var wordsAbove = 0
        var run: [Int] = []
        for blockIndex in text {
            if isContentsEntry(blocks[blockIndex]) {
                run.append(blockIndex)
                continue
            }
            if !run.isEmpty { break }
            if blocks[blockIndex].kind != .heading { wordsAbove += blocks[blockIndex].words }
            if wordsAbove > Self.mostWordsAboveContents { return }
        }
        let runWords = run.reduce(0) { $0 + blocks[$1].words }
        let allWords = text.reduce(0) { $0 + blocks[$1].words }
        guard run.count >= Self.fewestContentsEntries, allWords - runWords > runWords else { return }
        for blockIndex in run {
            blocks[blockIndex].omitted = .navigation
            blocks[blockIndex].words = 0
        }
    }

    private func isContentsEntry(_ block: RawBlock) -> Bool {
        block.kind == .listItem && block.links.total >= 1 && block.links.external == 0
            && block.words - block.linkWords <= 1
            && block.words <= Self.longestContentsEntry
    }

    /// The most words of a paragraph beside an image that may stand as its caption.
    static let longestCaptionParagraph = 40

    /// An image description that the block just before or after it already says (a caption, or a
    /// short paragraph under the picture that holds every word of it) is not read a second time.
    mutating func dropImageDescriptionsBesideTheirCaption() {
        for blockIndex in blocks.indices {
            guard case .image(let alt) = blocks[blockIndex].omitted else { continue }
            let folded = TextFold.fold(alt)
            let saidBeside = [blockIndex - 1, blockIndex + 1].contains { neighbour in
                guard blocks.indices.contains(neighbour), blocks[neighbour].omitted == nil,
                    blocks[neighbour].noteID == blocks[blockIndex].noteID,
                    blocks[neighbour].kind == .caption || blocks[neighbour].words <= Self.longestCaptionParagraph
                else { return false }
                return AltText.containsWords(TextFold.fold(blocks[neighbour].text), folded)
            }
            if saidBeside { blocks[blockIndex].omitted = .clutter }
        }
    }
}
