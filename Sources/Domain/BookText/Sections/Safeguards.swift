import Contracts
import EPUBReader

/// The last stage of the section index: what no rule before may take from a listener. A short book
/// reads the pages its TOC lists; a book is never silent, nor mostly the matter it skips; and the
/// sections are a partition of the spine (repaired, with a warning, if a stage broke it).
struct Safeguards: BookStage {
    let book: IndexedBook
    let statistics: BookStatistics

    /// Below this share of the book's words read, the decisions to skip are not to be trusted.
    static let leastShareRead = 0.01

    /// A book whose sections would all (or all but a line) be skipped is a book whose chapters
    /// are titled like front and back matter ("Sources", "Glossary", "Afterword"), or one the
    /// rules do not understand: a silent audiobook is the worst answer, so every section with
    /// text is read, with a warning. (A short poem with a long licence reads more than this.)
    func readEverythingWhenAlmostNothingIsRead(_ sections: inout [BookSection]) -> EPUBWarning? {
        let total = sections.reduce(0) { $0 + $1.words }
        let read = sections.reduce(0) { $0 + ($1.included ? $1.words : 0) }
        guard total > 0, Double(read) < Self.leastShareRead * Double(total) else { return nil }
        for i in sections.indices where !sections[i].included && sections[i].words > 0 {
            sections[i].included = true
            sections[i].reasons.append("almost nothing else would be read → read")
        }
        return EPUBWarning(
            .major,
            "every section looks like front or back matter "
                + "(\(read) of \(Counts.of(total, "word")) would be read): all are read")
    }

    /// A book of a few pages (a reading system's test book, a short story in two files): at most
    /// this many words.
    static let shortBookWords = 2_000

    /// In a book of a few pages (`shortBookWords`), a page the TOC lists, in the reading order, is
    /// read when nothing but its size and its place at the book's edge would skip it: no kind of
    /// matter from the book's marks, its title or its shape. There "very short" says nothing: every
    /// page is short, and a two-page book lost one of its two.
    func readListedPagesOfShortBooks(_ drafts: inout [SectionDraft]) {
        guard bookWords <= Self.shortBookWords else { return }
        for i in drafts.indices where drafts[i].start.origin == .toc && !drafts[i].start.fromHeadings {
            guard drafts[i].isSkippedOnlyForItsSize, drafts[i].features.words > 0,
                isLinear(drafts[i].start.position.spineIndex)
            else { continue }
            drafts[i].classification.role = .body
            drafts[i].classification.reasons.append("a page the TOC lists, in a book of a few pages → read")
        }
    }

    /// A section skipped on nothing but the book's marks and its names (an `epub:type`, a
    /// `frontmatter` mark, a landmark, its title, file name or id), nothing its text holds, is read
    /// when it has more words than all the sections read together: a book is not mostly its
    /// preface. A producer that typed the whole story `preface`, beside a copyright page typed
    /// `chapter`, would otherwise leave that page read and the book lost. The largest goes first,
    /// each against what is read by then. `onlyMarkedOrNamed` says, for each section, whether it
    /// is skipped so (`isSkippedOnlyForMarksAndNames`); it keeps its kind, with a warning.
    func readSectionsLargerThanTheText(_ sections: inout [BookSection], onlyMarkedOrNamed: [Bool]) -> [EPUBWarning] {
        var warnings: [EPUBWarning] = []
        var readWords = sections.reduce(0) { $0 + ($1.included ? $1.words : 0) }
        let largestFirst = sections.indices.filter { !sections[$0].included && onlyMarkedOrNamed[$0] }
            .sorted { sections[$0].words > sections[$1].words }
        for index in largestFirst {
            let words = sections[index].words
            guard words > readWords else { break }
            let kind = sections[index].kind.rawValue
            sections[index].included = true
            sections[index].reasons.append("only marked or named \(kind), and more words than all else read → read")
            warnings.append(
                EPUBWarning(
                    .major,
                    "section \(sections[index].number) is marked or named \(kind) but holds more words than all the "
                        + "sections read (\(KindExpectation.grouped(words)) against "
                        + "\(KindExpectation.grouped(readWords))): it is read"))
            readWords += words
        }
        return warnings
    }

    /// The sections checked, and repaired when they are no partition of the spine (`SectionPartition`):
    /// an assertion in debug builds, a warning otherwise.
    func partitioned(_ sections: [BookSection]) -> (sections: [BookSection], warning: EPUBWarning?) {
        let broken = SectionPartition.violations(of: sections, spineCount: docs.count)
        guard !broken.isEmpty else { return (sections, nil) }
        assertionFailure("the sections are no partition of the spine: \(broken.joined(separator: "; "))")
        return (
            SectionPartition.repaired(sections, spineCount: docs.count),
            EPUBWarning(.major, "sections were rebuilt in reading order: \(broken[0])")
        )
    }
}
