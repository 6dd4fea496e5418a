import Contracts
import EPUBReader

/// Where a section boundary comes from.
enum StartOrigin: Int, Comparable, Sendable {
    /// A TOC entry (or, without a usable TOC, a spine item with a heading).
    case toc = 0
    /// A semantic region inside a file (`<section epub:type="rearnotes">`).
    case region = 1
    /// Project Gutenberg boilerplate inside a file.
    case boilerplate = 2
    /// Text the TOC does not reach: a spine item or the head of one.
    case untargeted = 3

    static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }
}

/// A place where a section starts, with what the first stages learnt about it: where it comes
/// from, its label and level, its part. A section runs from its start to the next one.
struct SectionStart: Sendable {
    var position: SourcePosition
    var origin: StartOrigin
    var label: String?
    var level = 1
    var partTitle: String?
    var isContainer = false
    var link: EPUBLink?
    var tocOrder = Int.max
    var regionType: String?
    /// Found among the book's headings rather than in its TOC.
    var fromHeadings = false
    /// A file's own `<title>` (no TOC, no heading in the file): found in the book, not in its TOC.
    var fromFileTitle = false
    /// Stands on the headings that end its file: its text is in the next file, which joins it
    /// (`StartRefinement.startingAtTrailingHeadings`).
    var runsIntoNextFile = false
}

extension [SectionStart] {
    /// The starts sorted by place, then by origin (a TOC entry before a region, boilerplate or
    /// untargeted text at the same place).
    func sortedByPositionAndOrigin() -> [SectionStart] {
        sorted { ($0.position, $0.origin.rawValue) < ($1.position, $1.origin.rawValue) }
    }
}

/// One start per place, and the warnings of TOC entries that point at the same place.
///
/// Several starts at one position: the most specific TOC entry wins (a part and its first chapter
/// at the same place make one chapter section in that part). Of two entries at one level, the first
/// is kept, unless it names front or back matter and the other does not: a producer's "Cover" entry
/// pointing at the first chapter would title the chapter "Cover", or skip it when it is short.
enum StartDeduplication {
    static func deduplicated(_ starts: [SectionStart]) -> (starts: [SectionStart], warnings: [EPUBWarning]) {
        var byPosition: [SourcePosition: SectionStart] = [:]
        var order: [SourcePosition] = []
        var warnings: [EPUBWarning] = []
        for start in starts {
            guard let existing = byPosition[start.position] else {
                byPosition[start.position] = start
                order.append(start.position)
                continue
            }
            if start.origin < existing.origin {
                byPosition[start.position] = start
            } else if start.origin == .toc, existing.origin == .toc {
                if existing.isContainer, start.level > existing.level {
                    var child = start
                    child.partTitle = child.partTitle ?? existing.label
                    byPosition[start.position] = child
                } else if start.level == existing.level, start.label != existing.label, !start.fromHeadings,
                    !existing.fromHeadings
                {
                    let kept = namesTheText(start.label) && !namesTheText(existing.label) ? start : existing
                    byPosition[start.position] = kept
                    warnings.append(
                        EPUBWarning(
                            .minor, path: start.link?.path,
                            "TOC entries \"\(existing.label ?? "")\" and \"\(start.label ?? "")\" point at the same place; keeping \"\(kept.label ?? "")\""
                        ))
                }
            }
        }
        return (order.sorted().compactMap { byPosition[$0] }, warnings)
    }

    /// Whether a TOC label names no front or back matter kind ("Chapter 1", "The Storm").
    private static func namesTheText(_ label: String?) -> Bool {
        guard let label, !label.isEmpty else { return false }
        guard let (kind, _) = Patterns.kind(forTitle: label) else { return true }
        return kind.usualRole == .body
    }
}
