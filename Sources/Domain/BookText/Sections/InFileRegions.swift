import Contracts
import EPUBReader

/// Starts for text inside files that no TOC entry opens: text no start reaches at all, Project
/// Gutenberg's header and licence, and the book's semantic regions (`<section epub:type="rearnotes">`).
extension StartRefinement {
    /// Types of regions inside a file that are cut off as sections of their own.
    static let regionTypes: Set<String> = [
        "frontmatter", "backmatter", "titlepage", "halftitlepage", "copyright-page", "toc", "bibliography",
        "rearnotes", "endnotes", "footnotes", "index", "glossary", "colophon", "acknowledgments", "appendix", "loi",
        "lot",
        "preface", "foreword", "afterword", "imprint",
    ]

    /// Text no start reaches (whole spine items, or the head of an item before its first start)
    /// gets a start of its own, so every word of the spine belongs to some section.
    func addingUntargetedText(_ starts: [SectionStart]) -> [SectionStart] {
        var result = starts
        var firstInFile: [Int: Int] = [:]
        for start in starts {
            let item = start.position.spineIndex
            firstInFile[item] = min(firstInFile[item] ?? .max, start.position.blockIndex)
        }
        for item in book.docs.indices where (firstInFile[item] ?? .max) > 0 {
            result.append(
                SectionStart(
                    position: SourcePosition(spineIndex: item, blockIndex: 0), origin: .untargeted,
                    link: EPUBLink(path: book.package.spine[item].href)))
        }
        result.sort { ($0.position, $0.origin.rawValue, $0.tocOrder) < ($1.position, $1.origin.rawValue, $1.tocOrder) }
        return result
    }

    /// Project Gutenberg's header ends with "*** START OF THE PROJECT GUTENBERG EBOOK ... ***" and
    /// its licence starts with "*** END OF THE PROJECT GUTENBERG EBOOK": both are cut off even
    /// inside a chapter's file.
    func splitBoilerplate(_ starts: [SectionStart]) -> [SectionStart] {
        var result = starts
        var licenceFound = false
        for (spineIndex, doc) in book.docs.enumerated() {
            let file = EPUBLink(path: book.package.spine[spineIndex].href)
            for (blockIndex, block) in doc.blocks.enumerated() where !licenceFound {
                let here = SourcePosition(spineIndex: spineIndex, blockIndex: blockIndex)
                if block.startsGutenbergText {
                    let after = SourcePosition(spineIndex: spineIndex, blockIndex: blockIndex + 1)
                    // The latest start at or before the marker in this file moves past the header.
                    if let latest = result.lastIndex(where: { $0.position <= here }),
                        result[latest].position.spineIndex == spineIndex, result[latest].origin == .toc,
                        !result.contains(where: { $0.position == after })
                    {
                        var moved = result[latest]
                        let old = moved.position
                        moved.position = after
                        result[latest] = SectionStart(position: old, origin: .boilerplate, link: file)
                        result.append(moved)
                    } else if blockIndex + 1 < doc.blocks.count {
                        result.append(SectionStart(position: after, origin: .untargeted, link: file))
                    }
                } else if block.endsGutenbergText {
                    licenceFound = true  // everything after the first end marker is licence
                    result.append(SectionStart(position: here, origin: .boilerplate, link: file))
                }
            }
        }
        return result.sortedByPositionAndOrigin()
    }

    /// Sections inside a file marked as front or back matter (`<section epub:type="rearnotes">`)
    /// become sections of their own; the text after them continues the section before.
    func splitRegions(_ starts: [SectionStart]) -> [SectionStart] {
        var result = starts
        for (spineIndex, doc) in book.docs.enumerated() where doc.blocks.count > 1 {
            let present = Set(doc.blocks.flatMap(\.types)).intersection(Self.regionTypes)
            for type in present.sorted() {
                // A <nav> inside the text is never read: it cuts no section.
                let inRegion = doc.blocks.map { $0.types.contains(type) && !$0.isNavigation }
                if inRegion.allSatisfy({ $0 }) { continue }
                for run in Self.runs(of: inRegion) {
                    let begin = SourcePosition(spineIndex: spineIndex, blockIndex: run.lowerBound)
                    result.append(
                        SectionStart(position: begin, origin: .region, link: book.link(at: begin), regionType: type))
                    let after = SourcePosition(spineIndex: spineIndex, blockIndex: run.upperBound)
                    if run.upperBound < inRegion.count,
                        !result.contains(where: { $0.position > begin && $0.position <= after })
                    {
                        result.append(SectionStart(position: after, origin: .untargeted, link: book.link(at: after)))
                    }
                }
            }
        }
        return result.sortedByPositionAndOrigin()
    }

    /// The runs of true values in `flags`, in order.
    private static func runs(of flags: [Bool]) -> [Range<Int>] {
        var runs: [Range<Int>] = []
        var index = 0
        while index < flags.count {
            guard flags[index] else {
                index += 1
                continue
            }
            var end = index
            while end < flags.count, flags[end] { end += 1 }
            runs.append(index..<end)
            index = end
        }
        return runs
    }
}
