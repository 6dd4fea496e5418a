/// The conservation rules of flattening: text a document marks as something never read (notes,
/// a `<nav>`) that holds most of the document is its text in the wrong element, and is read. A
/// chapter made silent by its markup is the worst error; reading a long note costs a minute.
extension FlatDocument {
    /// Notes holding more words than the rest of the document are its text unless they look like
    /// notes: a producer that names every paragraph `footnote`, wraps a chapter in
    /// `<section epub:type="footnotes">`, or has an in-page contents list whose numbered links point
    /// at each section would otherwise make a chapter silent (notes are not read by default).
    /// Found by a class name or a link pointing at them, notes are text whatever they look like;
    /// marked by the book's semantics (`epub:type`), they stay notes when they look like notes
    /// (`looksLikeNotes`).
    mutating func readNotesThatAreTheText() {
        // One group per note, its blocks the semantics mark apart from the others (a class-named
        // wrapper around both a chapter and its marked footnotes is one note for the walk).
        var groups: [NoteGroup: [Int]] = [:]
        for (blockIndex, block) in blocks.enumerated() where block.words > 0 {
            guard let id = block.noteID else { continue }
            let marked = block.types.contains(where: DocumentFlattener.noteTypes.contains)
            groups[NoteGroup(id: id, marked: marked), default: []].append(blockIndex)
        }
        let suspect = groups.filter { !$0.key.marked || !looksLikeNotes($0.value) }.values
        let suspectWords = suspect.joined().reduce(0) { $0 + blocks[$1].words }
        guard suspectWords > words else { return }
        for blockIndex in suspect.joined() { blocks[blockIndex].noteID = nil }
    }

    /// A note is one or two paragraphs, or a list of numbered entries or list items; a run of
    /// unnumbered paragraphs, or more than `longestNote` words, is prose.
    private func looksLikeNotes(_ group: [Int]) -> Bool {
        let listed = group.filter { blocks[$0].kind == .listItem || IndexedDocument.startsWithNumber(blocks[$0].text) }
        if 2 * listed.count >= group.count { return true }
        let words = group.reduce(0) { $0 + blocks[$1].words }
        return group.count <= Self.mostNoteParagraphs && words <= Self.longestNote
    }

    private struct NoteGroup: Hashable {
        var id: String
        var marked: Bool
    }

    /// The most paragraphs an unnumbered note holds ...
    static let mostNoteParagraphs = 2
    /// ... and the most words: a thousand words of prose is a chapter in the wrong element.
    static let longestNote = 1_000

    /// A `<nav>` is never read: it is a contents list, mostly links. One that holds more words
    /// than the rest of its file, mostly not links, is the file's text in the wrong element.
    mutating func readNavigationThatIsTheText() {
        let navigation = blocks.indices.filter { blocks[$0].omitted == .navigation }
        guard !navigation.isEmpty else { return }
        let counts = navigation.map { TextMeasure.wordCount(blocks[$0].text) }
        let navigationWords = counts.reduce(0, +)
        let linkWords = navigation.reduce(0) { $0 + blocks[$1].linkWords }
        guard navigationWords > words, 2 * linkWords < navigationWords else { return }
        for (blockIndex, count) in zip(navigation, counts) {
            blocks[blockIndex].omitted = nil
            blocks[blockIndex].words = count
        }
    }
}
