import EPUBReader

/// Apparatus inside a file of the text: a heading that names notes, an index, a glossary, a list of
/// references or a publisher's list, followed by entries of that shape, after the last act of a
/// play or the last chapter in the same file, with no TOC entry and no mark of its own. Left in the
/// chapter's section, it was read, whatever its length (24,000 words of a play's notes). It becomes
/// a section of its own, judged on its own evidence; the text after it, if any, goes on as before.
extension SectionBuilder {
    /// The shapes that show each kind of apparatus where nothing else names it (inside a file, or in
    /// a file no TOC entry reaches): entries of its own making, never short lines alone (code, verse
    /// and tables have them in the text's flow).
    static let apparatusShapes: [SectionKind: [KindExpectation.Shape]] = [
        .notes: [.numberedEntries], .index: [.pageEntries, .links, .alphabetical],
        .glossary: [.entries, .alphabetical], .bibliography: [.entries, .numberedEntries],
        .alsoBy: [.entries, .numberedEntries, .links], .advertisement: [.entries, .numberedEntries, .links],
    ]

    /// Whether `features` show apparatus of `kind` by one of its shapes (`apparatusShapes`). Items
    /// of a list are no numbered entries here: a list under a "Note" set in the text's flow (an
    /// admonition) is the text's own.
    static func hasApparatusShape(_ kind: SectionKind, _ features: SectionFeatures) -> Bool {
        guard let shapes = apparatusShapes[kind] else { return false }
        var f = features
        f.numberedBlocks -= f.listItems
        return shapes.contains { KindExpectation.has($0, f) }
    }

    /// Starts at headings inside files that open the apparatus closing the file (`apparatusRegion`).
    func splittingApparatusInFiles(_ starts: [SectionStart]) -> [SectionStart] {
        var result = starts
        for (s, doc) in docs.enumerated() where s < package.spine.count {
            guard let firstText = doc.blocks.firstIndex(where: { $0.hasText && !$0.isNote }) else { continue }
            // A file that opens with its apparatus is a section already; its entries ("Definitions"
            // among a glossary's terms) open nothing more.
            guard apparatusRegion(at: firstText, in: s) == nil,
                let k = doc.blocks.indices.dropFirst(firstText + 1).first(where: {
                    apparatusRegion(at: $0, in: s) != nil
                })
            else { continue }
            let begin = TextPosition(spineIndex: s, blockIndex: k)
            guard !starts.contains(where: { $0.position.spineIndex == s && $0.position.blockIndex >= k }) else {
                continue
            }
            result.append(
                SectionStart(
                    position: begin, origin: .region, label: doc.blocks[k].text,
                    link: EPUBLink(path: package.spine[s].href, fragment: fragment(at: begin))))
        }
        return result.sortedByPositionAndOrigin()
    }

    /// Where the apparatus that a heading at block `k` of spine item `s` opens ends, the file's end,
    /// when no heading of its rank or above follows it in the file, the heading names a kind of
    /// apparatus and what follows it has one of that kind's shapes
    /// (`KindExpectation.has`), and is no running prose unless the heading is the kind's name
    /// itself; nil otherwise.
    func apparatusRegion(at k: Int, in s: Int) -> Int? {
        let blocks = docs[s].blocks
        let heading = blocks[k]
        guard heading.kind == .heading || heading.isHeadingLine, !heading.text.isEmpty,
            let (kind, exact) = Patterns.kind(forTitle: heading.text), Self.apparatusShapes[kind] != nil
        else { return nil }
        // Apparatus closes its file: nothing of its rank or above follows it (an index's letters
        // are ranked below). A "Note" set in the text's flow has the text's headings after it.
        let rank = heading.headingRank ?? blocks.compactMap(\.headingRank).min() ?? 1
        guard !blocks[(k + 1)...].contains(where: { $0.kind == .heading && ($0.headingRank ?? 6) <= rank }) else {
            return nil
        }
        let end = blocks.count
        let draft = SectionDraft(
            start: SectionStart(position: TextPosition(spineIndex: s, blockIndex: k + 1), origin: .region),
            end: TextPosition(spineIndex: s, blockIndex: end))
        let f = assessor.features(of: draft)
        // Notes run to paragraphs of prose, numbered; under a longer title ("Notes from a Journey"),
        // numbered paragraphs of prose are an essay's sections as often: there only a list counts.
        guard Self.hasApparatusShape(kind, f), exact || !KindExpectation.isRunningProse(f) else { return nil }
        return end
    }
}
