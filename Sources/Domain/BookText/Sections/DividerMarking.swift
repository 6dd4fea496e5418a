/// The stage of the section index after the merges: a read section whose only text is one or two
/// headings, or a few lines under a heading that outranks the next section's, followed by read
/// sections, is a part (a divider). Only the kind changes; what is read stays as it was.
struct DividerMarking {
    let book: IndexedBook

    /// The most text a divider holds: a part's number and name ("Part Two: The Trial", "II").
    static let longestDivider = 20

    /// A section read as a chapter whose only text is its heading, followed by read sections
    /// ("II" over a poem's own title, "Part One" in a file of its own), is a part: it introduces
    /// what follows. Only the kind changes; the text is read as before. A title followed by
    /// numbered pieces ("The Swan", then "I", "II") names one work in parts and stays a chapter.
    /// Without a TOC, a part's heading alone in its file is judged front or back matter for being
    /// short and for standing before (or after) the chapters that stand out; with no kind of its
    /// own, it is a part all the same, and read.
    ///
    /// A few lines under a heading that outranks the next section's (a story's title and its
    /// epigraph, then the story's numbered chapters under lower headings) open what follows too:
    /// skipped only for being short and early, they are a part, and read.
    func marked(_ drafts: [SectionDraft]) -> [SectionDraft] {
        var drafts = drafts
        for index in drafts.indices.dropLast() {
            let classification = drafts[index].classification
            let readAsChapter =
                classification.role == .body && (classification.kind == .chapter || classification.kind == .other)
            let skippedHeading =
                classification.role != .body && classification.kind == .other && drafts[index].start.fromHeadings
            guard drafts[index + 1].classification.role == .body else { continue }
            if readAsChapter || skippedHeading, isHeadingOnly(drafts[index]),
                !isBareNumeral(drafts[index + 1].start.label ?? drafts[index + 1].features.headings.first ?? "")
            {
                drafts[index].classification.kind = .part
                drafts[index].classification.role = .body
                drafts[index].classification.reasons.append("only a heading, before the sections it introduces → part")
            } else if classification.role != .body, classification.kind == .other,
                opensWhatFollows(drafts[index], next: drafts[index + 1])
            {
                drafts[index].classification.kind = .part
                drafts[index].classification.role = .body
                drafts[index].classification.reasons.append(
                    "a few lines under a heading above the next section's → part")
            }
        }
        return drafts
    }

    /// The most words a part's opening holds, its heading included: an epigraph, a dedication of
    /// the part, a line of place and date.
    static let longestPartOpening = 150

    /// Whether `draft` starts with a heading that outranks the first heading of `next`, and holds
    /// a few lines at most (`longestPartOpening`).
    private func opensWhatFollows(_ draft: SectionDraft, next: SectionDraft) -> Bool {
        guard draft.features.words <= Self.longestPartOpening,
            let rank = firstHeadingRank(draft), let nextRank = firstHeadingRank(next)
        else { return false }
        return rank < nextRank
    }

    /// The rank of a draft's first block with text when that block is a heading.
    private func firstHeadingRank(_ draft: SectionDraft) -> Int? {
        let first = book.blocks(from: draft.start.position, to: draft.end).first { $0.1.hasText && !$0.1.isOmitted }
        guard let block = first?.1, block.kind == .heading else { return nil }
        return block.headingRank
    }

    /// "IV", "4", "iv.": a title that is only a number.
    private func isBareNumeral(_ title: String) -> Bool {
        var word = Substring(TextFold.fold(title))
        while word.last == "." || word.last == " " { word = word.dropLast() }
        return !word.isEmpty && !word.contains(" ") && Patterns.isNumeral(String(word))
    }

    /// Whether a draft's text is one or two headings and nothing else.
    func isHeadingOnly(_ draft: SectionDraft) -> Bool {
        var headings = 0
        var words = 0
        for (_, block) in book.blocks(from: draft.start.position, to: draft.end)
        where block.hasText && !block.isNote && !block.isOmitted {
            guard block.kind == .heading else { return false }
            headings += 1
            words += block.words
        }
        return headings > 0 && headings <= 2 && words <= Self.longestDivider
    }
}
