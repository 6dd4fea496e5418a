import Contracts
import EPUBReader

/// The spoken book is a partition of the spine's text: every block of every content document lies
/// in exactly one section, the sections in reading order, whatever the TOC says (entries out of
/// order, several at one place, sub-entries inside their parent's file). A section is the blocks
/// from its `start` up to its `end`, so the partition holds when the first section starts at the
/// spine's first block, each ends where the next starts, and the last ends after the last item.
/// Text the extractor reads is taken only from those ranges, so no word is read twice (notes read
/// at a section's end with `--notes end` are the one exception the listener asks for).
enum SectionPartition {
    /// What breaks the partition of `spineCount` spine items by `sections`, one line each; empty
    /// when they are a partition.
    static func violations(of sections: [BookSection], spineCount: Int) -> [String] {
        guard spineCount > 0 else { return [] }
        let origin = SourcePosition(spineIndex: 0, blockIndex: 0)
        let end = SourcePosition(spineIndex: spineCount, blockIndex: 0)
        guard let first = sections.first, let last = sections.last else { return ["no section holds the spine"] }
        var problems: [String] = []
        if first.start != origin { problems.append("the text before \(first.start) is in no section") }
        for (section, next) in zip(sections, sections.dropFirst()) where section.end != next.start {
            let what = section.end < next.start ? "leaves out" : "shares"
            problems.append(
                "sections \(section.number) and \(next.number) \(what) the text between \(section.end) and \(next.start)"
            )
        }
        for section in sections where !(section.start < section.end) {
            problems.append("section \(section.number) runs backwards (\(section.start) to \(section.end))")
        }
        if last.end != end { problems.append("the text after \(last.end) is in no section") }
        return problems
    }

    /// `sections` made a partition again: ordered by start, each running to the next one's start,
    /// the first from the spine's start and the last to its end; a section left without text is
    /// dropped, and the sections are numbered anew. Only a defect of the section code calls this:
    /// the book is then read whole and once rather than with text twice or lost.
    static func repaired(_ sections: [BookSection], spineCount: Int) -> [BookSection] {
        let end = SourcePosition(spineIndex: spineCount, blockIndex: 0)
        var ordered = sections.sorted { ($0.start, $0.number) < ($1.start, $1.number) }
        if !ordered.isEmpty { ordered[0].start = SourcePosition(spineIndex: 0, blockIndex: 0) }
        var out: [BookSection] = []
        for (index, section) in ordered.enumerated() {
            var placed = section
            placed.end = index + 1 < ordered.count ? ordered[index + 1].start : end
            guard placed.start < placed.end else { continue }
            placed.number = out.count + 1
            out.append(placed)
        }
        return out
    }
}
