import Contracts
import EPUBReader

/// The book as every stage of the section index reads it: its package, its indexed documents, and
/// the lookups the stages share (the spine item of a path, the place a link points at, the blocks
/// between two places). Built once, before the first stage, and never changed.
struct IndexedBook: Sendable {
    let package: EPUBPackage
    /// The spine items, indexed (`IndexedDocument`), in spine order.
    let docs: [IndexedDocument]
    private let spineByPath: [String: Int]
    private let spineByLowerPath: [String: Int]

    init(package: EPUBPackage, docs: [IndexedDocument]) {
        self.package = package
        self.docs = docs
        var byPath: [String: Int] = [:]
        var byLowerPath: [String: Int] = [:]
        for item in package.spine {
            if byPath[item.href] == nil { byPath[item.href] = item.index }
            if byLowerPath[item.href.lowercased()] == nil { byLowerPath[item.href.lowercased()] = item.index }
        }
        spineByPath = byPath
        spineByLowerPath = byLowerPath
    }

    /// The place after the last block of the spine: where the last section ends.
    var endPosition: SourcePosition { SourcePosition(spineIndex: docs.count, blockIndex: 0) }

    /// The spine item of `path` (matched exactly, else ignoring case), or nil.
    func spineIndex(of path: String) -> Int? {
        spineByPath[path] ?? spineByLowerPath[path.lowercased()]
    }

    /// Where a link points, and whether its fragment (if any) names an id of the file; nil outside the spine.
    func position(of link: EPUBLink) -> (SourcePosition, idFound: Bool)? {
        guard let spineIndex = spineIndex(of: link.path) else { return nil }
        guard let fragment = link.fragment, !fragment.isEmpty else {
            return (SourcePosition(spineIndex: spineIndex, blockIndex: 0), true)
        }
        guard let block = docs[spineIndex].anchors[fragment] else {
            return (SourcePosition(spineIndex: spineIndex, blockIndex: 0), false)
        }
        if block >= docs[spineIndex].blocks.count, spineIndex + 1 < docs.count {
            return (SourcePosition(spineIndex: spineIndex + 1, blockIndex: 0), true)
        }
        return (SourcePosition(spineIndex: spineIndex, blockIndex: block), true)
    }

    /// An id that points at this block, if the document has one (the shortest, for stability).
    func fragment(at position: SourcePosition) -> String? {
        guard position.blockIndex > 0, position.spineIndex < docs.count else { return nil }
        return docs[position.spineIndex].anchors.filter { $0.value == position.blockIndex }.map(\.key).min {
            ($0.count, $0) < ($1.count, $1)
        }
    }

    /// A link to `position`: its file, and an id pointing at its block when there is one.
    func link(at position: SourcePosition) -> EPUBLink {
        EPUBLink(path: package.spine[position.spineIndex].href, fragment: fragment(at: position))
    }

    /// The blocks from `start` up to `end` (excluded), with their places, across files.
    func blocks(from start: SourcePosition, to end: SourcePosition) -> [(SourcePosition, IndexedBlock)] {
        var out: [(SourcePosition, IndexedBlock)] = []
        var spineIndex = start.spineIndex
        while spineIndex < docs.count, spineIndex <= end.spineIndex {
            let blocks = docs[spineIndex].blocks
            let from = spineIndex == start.spineIndex ? start.blockIndex : 0
            let to = spineIndex == end.spineIndex ? min(end.blockIndex, blocks.count) : blocks.count
            if from < to {
                for blockIndex in from..<to {
                    out.append((SourcePosition(spineIndex: spineIndex, blockIndex: blockIndex), blocks[blockIndex]))
                }
            }
            spineIndex += 1
        }
        return out
    }

    /// The spine items that text from `start` up to `end` touches (at least `start`'s).
    func spineItems(from start: SourcePosition, to end: SourcePosition) -> [Int] {
        let last = end.blockIndex == 0 ? end.spineIndex - 1 : end.spineIndex
        guard start.spineIndex <= min(last, docs.count - 1) else { return [start.spineIndex] }
        return Array(start.spineIndex...min(last, docs.count - 1))
    }

    /// Whether spine item `spineIndex` is in the reading order (`linear` is not "no"); true outside the spine.
    func isLinear(_ spineIndex: Int) -> Bool {
        spineIndex < 0 || spineIndex >= package.spine.count || package.spine[spineIndex].linear
    }

    /// A heading written as a paragraph that opens the text from `start` to `end`, with text after
    /// it ("Cold Orchard" over the poem), that is not the book's title: the title a reader sees there.
    func openingTitleLine(from start: SourcePosition, to end: SourcePosition) -> String? {
        let texts = blocks(from: start, to: end).lazy.map(\.1).filter { $0.hasText && !$0.isOmitted }
        var lines = texts.makeIterator()
        guard let first = lines.next(), first.isHeadingLine, !first.text.isEmpty, lines.next() != nil,
            TextFold.fold(first.text) != TextFold.fold(package.metadata.title ?? "")
        else { return nil }
        return first.text
    }
}
