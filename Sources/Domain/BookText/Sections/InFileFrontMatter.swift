import EPUBReader

/// Front matter that shares a file with the text: a title page or a printed contents list ahead of
/// the first chapter, in the file the first TOC entry or a landmark points at. The text is cut where
/// the book's own heading says the chapter begins, so exactly the front part is judged on its own.
extension SectionBuilder {
    /// A chapter's heading is looked for among this many blocks of its file's start.
    static let headingSearchBlocks = 200

    /// The first TOC entry that points at the start of a file whose own heading for the entry comes
    /// later (after a title page, a printed contents list) starts at that heading instead; the text
    /// before it becomes a section of its own, judged on its own evidence.
    func startFirstEntryAtItsHeading(_ starts: [SectionStart]) -> [SectionStart] {
        guard let i = starts.indices.min(by: { starts[$0].position < starts[$1].position }),
            starts[i].origin == .toc, !starts[i].fromHeadings, starts[i].position.blockIndex == 0,
            let label = starts[i].label, let k = ownHeading(of: label, in: starts[i].position.spineIndex), k > 0
        else { return starts }
        var result = starts
        let spine = starts[i].position.spineIndex
        result[i].position = TextPosition(spineIndex: spine, blockIndex: k)
        result[i].link = EPUBLink(path: package.spine[spine].href, fragment: fragment(at: result[i].position))
        return result
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
