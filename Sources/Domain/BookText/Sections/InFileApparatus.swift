import Contracts
import EPUBReader

/// Apparatus inside a file of the text: a heading that names notes, an index, a glossary, a list of
/// references or a publisher's list, followed by entries of that shape, after the last act of a
/// play or the last chapter in the same file, with no TOC entry and no mark of its own. Left in the
/// chapter's section, it was read, whatever its length (24,000 words of a play's notes). It becomes
/// a section of its own, judged on its own evidence; the text after it, if any, goes on as before.
extension StartRefinement {
    /// Starts at headings inside files that open the apparatus closing the file (`apparatusRegion`).
    func splittingApparatusInFiles(_ starts: [SectionStart]) -> [SectionStart] {
        var result = starts
        for (spineIndex, doc) in book.docs.enumerated() where spineIndex < book.package.spine.count {
            guard let firstText = doc.blocks.firstIndex(where: { $0.hasText && !$0.isNote }) else { continue }
            // A file that opens with its apparatus is a section already; its entries ("Definitions"
            // among a glossary's terms) open nothing more.
            guard apparatusRegion(at: firstText, in: spineIndex) == nil,
                let heading = doc.blocks.indices.dropFirst(firstText + 1).first(where: {
                    apparatusRegion(at: $0, in: spineIndex) != nil
                })
            else { continue }
            let begin = SourcePosition(spineIndex: spineIndex, blockIndex: heading)
            let startedAfter = starts.contains {
                $0.position.spineIndex == spineIndex && $0.position.blockIndex >= heading
            }
            guard !startedAfter else { continue }
            result.append(
                SectionStart(
                    position: begin, origin: .region, label: doc.blocks[heading].text, link: book.link(at: begin)))
        }
        return result.sortedByPositionAndOrigin()
    }

    /// Where the apparatus that a heading at block `headingIndex` of spine item `spineIndex` opens
    /// ends, the file's end, when no heading of its rank or above follows it in the file, the heading
    /// names a kind of apparatus and what follows it has one of that kind's shapes
    /// (`KindExpectation.hasApparatusShape`), and is no running prose unless the heading is the
    /// kind's name itself; nil otherwise.
    func apparatusRegion(at headingIndex: Int, in spineIndex: Int) -> Int? {
        let blocks = book.docs[spineIndex].blocks
        let heading = blocks[headingIndex]
        guard heading.kind == .heading || heading.isHeadingLine, !heading.text.isEmpty,
            let (kind, exact) = Patterns.kind(forTitle: heading.text), KindExpectation.apparatusShapes[kind] != nil
        else { return nil }
        // Apparatus closes its file: nothing of its rank or above follows it (an index's letters
        // are ranked below). A "Note" set in the text's flow has the text's headings after it.
        let rank = heading.headingRank ?? blocks.compactMap(\.headingRank).min() ?? 1
        let outranked = blocks[(headingIndex + 1)...].contains {
            $0.kind == .heading && ($0.headingRank ?? 6) <= rank
        }
        guard !outranked else { return nil }
        let end = blocks.count
        let draft = SectionDraft(
            start: SectionStart(
                position: SourcePosition(spineIndex: spineIndex, blockIndex: headingIndex + 1), origin: .region),
            end: SourcePosition(spineIndex: spineIndex, blockIndex: end))
        let features = DraftAssessor(book: book, statistics: statistics).features(of: draft)
        // Notes run to paragraphs of prose, numbered; under a longer title ("Notes from a Journey"),
        // numbered paragraphs of prose are an essay's sections as often: there only a list counts.
        guard KindExpectation.hasApparatusShape(kind, features), exact || !KindExpectation.isRunningProse(features)
        else { return nil }
        return end
    }
}
