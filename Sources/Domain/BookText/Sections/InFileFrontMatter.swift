import EPUBReader

/// Front matter that shares a file with the text: a title page or a printed contents list ahead of
/// the first chapter, in the file the first TOC entry or a landmark points at. The text is cut where
/// the book's own heading says the chapter begins, so exactly the front part is judged on its own.
extension SectionBuilder {
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
        for i in starts.indices where starts[i].origin == .toc && !starts[i].fromHeadings {
            guard starts[i].position.blockIndex == 0, let label = starts[i].label else { continue }
            let spine = starts[i].position.spineIndex
            // The cheap test first: most files open with their chapter, unmarked.
            let marks = i == first ? [] : openingMatterTypes(spine)
            guard i == first || !marks.isEmpty, let k = ownHeading(of: label, in: spine), k > 0,
                i == first || marks.contains(where: { !docs[spine].blocks[k].types.contains($0) })
            else { continue }
            result[i].position = TextPosition(spineIndex: spine, blockIndex: k)
            result[i].link = EPUBLink(path: package.spine[spine].href, fragment: fragment(at: result[i].position))
        }
        return result
    }

    /// The types of front or back matter the first text of spine item `s` carries (the chapter's
    /// own heading must not carry the one that makes it matter).
    private func openingMatterTypes(_ s: Int) -> [String] {
        guard s < docs.count, let opening = docs[s].blocks.first(where: { $0.hasText }) else { return [] }
        return opening.types.filter { type in Patterns.semanticTypes[type].map { !$0.isBody } ?? false }
    }

    /// A landmark of front or back matter (cover, title page, copyright...) that points at a file
    /// holding most of the book marks where that kind starts, not the whole file: the text resumes
    /// at the file's next heading, which starts a section of its own.
    func splitFilesLandmarksOverreach(_ starts: [SectionStart]) -> [SectionStart] {
        var result = starts
        for mark in package.landmarks + package.guide {
            guard let kind = Patterns.semanticTypes[mark.type.lowercased()], !kind.isBody,
                let s = spineIndex(of: mark.target.path), 2 * docs[s].words >= bookWords, bookWords > 0
            else { continue }
            let from = mark.target.fragment.flatMap { docs[s].anchors[$0] } ?? 0
            guard let k = docs[s].blocks.indices.first(where: { $0 > from && docs[s].blocks[$0].kind == .heading }),
                !result.contains(where: {
                    $0.position.spineIndex == s && $0.position.blockIndex > from && $0.position.blockIndex <= k
                })
            else { continue }
            let position = TextPosition(spineIndex: s, blockIndex: k)
            result.append(
                SectionStart(
                    position: position, origin: .toc, label: docs[s].blocks[k].text,
                    link: EPUBLink(path: package.spine[s].href, fragment: fragment(at: position)), fromHeadings: true))
        }
        return result
    }

    /// The block of the heading in spine item `s` whose text is the TOC label (either holding the
    /// other, folded), among the first `headingSearchBlocks` blocks, when text comes before it.
    private func ownHeading(of label: String, in s: Int) -> Int? {
        let folded = TextCleaner.fold(label)
        guard folded.count >= 3, s < docs.count else { return nil }
        var wordsBefore = 0
        for (k, b) in docs[s].blocks.prefix(Self.headingSearchBlocks).enumerated() {
            if b.kind == .heading, !b.text.isEmpty {
                let heading = TextCleaner.fold(b.text)
                if heading == folded || (heading.count >= 3 && (heading.contains(folded) || folded.contains(heading))) {
                    return wordsBefore > 0 ? k : nil
                }
            }
            if !b.isNote, !b.isOmitted { wordsBefore += b.words }
        }
        return nil
    }
}
