import Contracts
import EPUBReader

/// Stage 1 of the section index: a start where each TOC entry at the chapter level points
/// (`file#fragment`, or a file's start), and the spine items that entries kept inside a section
/// start (a chapter's sub-sections in files of their own), which always stay in the section before.
///
/// Nested entries are chapters whatever their parent is called (a "Contents" entry holding every
/// story is no part); with `SectionOptions.tocDepth`, the entries down to that depth are sections.
struct TOCStarts {
    let book: IndexedBook
    let options: SectionOptions

    /// What the TOC gives the next stage.
    struct Output {
        /// One start per entry that reaches the spine, in TOC order.
        var starts: [SectionStart]
        /// Spine items that TOC entries kept inside a section point at (their file's start): their
        /// text belongs to that section (`DraftMerging`).
        var insideEntries: Set<Int>
        /// Every position any TOC entry points at, at any depth (entries kept inside a section too):
        /// how much of the book the TOC reaches (`TOCQuality`).
        var allTargets: Set<SourcePosition>
        var warnings: [EPUBWarning]
    }

    /// The starts the TOC gives, with the entries kept inside sections and the warnings.
    func starts() -> Output {
        var flat: [FlatEntry] = []
        var inner: [EPUBLink] = []
        flatten(book.package.toc, depth: 1, part: nil, into: &flat, inner: &inner)
        // Files that sub-entries kept inside their section point at: their text belongs to it.
        var insideEntries: Set<Int> = []
        for link in inner where link.fragment == nil {
            if let spineIndex = book.spineIndex(of: link.path) { insideEntries.insert(spineIndex) }
        }
        var starts: [SectionStart] = []
        var warnings: [EPUBWarning] = []
        for (order, flatEntry) in flat.enumerated() {
            guard let target = flatEntry.entry.target else { continue }
            guard let (position, idFound) = book.position(of: target) else {
                warnings.append(
                    EPUBWarning(
                        .major, path: target.path,
                        "TOC entry \"\(flatEntry.entry.label)\" points outside the spine; ignored"))
                continue
            }
            if !idFound {
                warnings.append(
                    EPUBWarning(
                        .minor, path: target.path,
                        "TOC entry \"\(flatEntry.entry.label)\" points at a missing id \"\(target.fragment ?? "")\"; using the file's start"
                    ))
            }
            let label = TextCleaner.normalize(flatEntry.entry.label)
            starts.append(
                SectionStart(
                    position: position, origin: .toc, label: label.isEmpty ? nil : label, level: flatEntry.depth,
                    partTitle: flatEntry.partTitle.map(TextCleaner.normalize), isContainer: flatEntry.isContainer,
                    link: target, tocOrder: order))
        }
        if zip(starts, starts.dropFirst()).contains(where: { $0.position > $1.position }) {
            warnings.append(
                EPUBWarning(.minor, "the table of contents is not in reading order; sections follow the spine"))
        }
        return Output(starts: starts, insideEntries: insideEntries, allTargets: allTargets(), warnings: warnings)
    }

    /// Every position any TOC entry points at, at any depth (entries kept inside a section too).
    private func allTargets() -> Set<SourcePosition> {
        Set(book.package.toc.flatMap(\.flattened).compactMap { $0.target.flatMap(book.position(of:))?.0 })
    }

    /// A TOC entry that makes a section (or a part holding sections), at its depth.
    private struct FlatEntry {
        var entry: TOCEntry
        var depth: Int
        var partTitle: String?
        var isContainer: Bool
    }

    /// Appends to `out` the entries of `entries` that make sections, depth first, and to `inner` the
    /// targets of the entries kept inside them.
    private func flatten(
        _ entries: [TOCEntry], depth: Int, part: String?, into out: inout [FlatEntry], inner: inout [EPUBLink]
    ) {
        for entry in entries {
            guard depth <= 64 else { return }  // nav documents can nest absurdly deep; sections never do
            let label = entry.label
            if let max = options.tocDepth {
                let split = depth < max && !entry.children.isEmpty
                out.append(FlatEntry(entry: entry, depth: depth, partTitle: part, isContainer: split))
                if split {
                    flatten(entry.children, depth: depth + 1, part: label, into: &out, inner: &inner)
                } else {
                    inner += entry.children.flatMap(Self.targets)
                }
            } else if entry.children.isEmpty || keepsChildren(entry) {
                out.append(FlatEntry(entry: entry, depth: depth, partTitle: part, isContainer: false))
                inner += entry.children.flatMap(Self.targets)
            } else {
                out.append(FlatEntry(entry: entry, depth: depth, partTitle: part, isContainer: true))
                // A "Contents" entry holding the chapters is no part: its children keep the part above.
                let isContents = Patterns.kind(forTitle: label)?.kind == .toc
                flatten(entry.children, depth: depth + 1, part: isContents ? part : label, into: &out, inner: &inner)
            }
        }
    }

    /// Whether a TOC entry with children is one section (a chapter with its sub-sections).
    private func keepsChildren(_ entry: TOCEntry) -> Bool {
        guard let target = entry.target else { return false }
        let label = entry.label
        if Patterns.isPartTitle(label) { return false }
        if Patterns.isChapterTitle(label) { return true }
        let childrenAreChaptersOrParts = entry.children.contains {
            Patterns.isExplicitChapterTitle($0.label) || Patterns.isPartTitle($0.label)
        }
        if childrenAreChaptersOrParts { return false }
        // Children of a front or back matter entry are its own parts (the notes of each chapter),
        // except under a "Contents" entry: there they are the book's chapters.
        if let (kind, _) = Patterns.kind(forTitle: label), !kind.isBody { return kind != .toc }
        // Sub-sections that all live in the entry's own file are part of it.
        let paths = entry.children.flatMap(Self.targetPaths)
        return !paths.isEmpty && paths.allSatisfy { $0 == target.path }
    }

    /// Every target below an entry (itself included).
    private static func targets(_ entry: TOCEntry) -> [EPUBLink] {
        (entry.target.map { [$0] } ?? []) + entry.children.flatMap(targets)
    }

    /// Every target path below an entry (itself included).
    private static func targetPaths(_ entry: TOCEntry) -> [String] {
        targets(entry).map(\.path)
    }
}
