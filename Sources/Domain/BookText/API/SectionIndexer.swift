import Contracts
import EPUBReader
import Markup

/// Cuts a book into sections from its table of contents and decides which ones are read.
///
/// A section starts where a TOC entry points (at the element for `file#fragment`, at the file's
/// start otherwise) and runs until the next section starts, across files. Text the TOC does not
/// reach (a cover, a licence, a Project Gutenberg header inside a chapter file) becomes sections
/// of its own or joins the section before it, so every spine item's text belongs to exactly one
/// section. When the TOC is missing or useless, spine items and their headings are used instead.
public enum SectionIndexer {
    /// Indexes `book`. Throws only when the spine is empty; unreadable documents become warnings.
    public static func index(_ book: some BookContent, options: SectionOptions = SectionOptions()) throws
        -> SectionIndex
    {
        let package = book.package
        guard !package.spine.isEmpty else { throw BookTextError.emptySpine }
        var warnings: [EPUBWarning] = []
        let docs = loadDocuments(book, warnings: &warnings)
        var builder = SectionBuilder(package: package, docs: docs, options: options)
        var index = builder.build()
        index.warnings = warnings + index.warnings
        return index
    }

    /// Reads and flattens every spine item, one at a time, keeping only what the sections need.
    static func loadDocuments(_ book: some BookContent, warnings: inout [EPUBWarning]) -> [IndexedDocument] {
        let fragments = tocFragments(book.package.toc)
        return book.package.spine.map { item in
            do {
                let document = try book.document(forHref: item.href)
                let flat = DocumentFlattener.flatten(document.root, documentPath: item.href)
                return IndexedDocument(flat, tocFragments: fragments)
            } catch {
                warnings.append(
                    EPUBWarning(.major, path: item.href, "could not be read, its text is skipped: \(error)"))
                return IndexedDocument()
            }
        }
    }

    /// Every fragment a TOC entry points at, at any depth.
    static func tocFragments(_ toc: [TOCEntry]) -> Set<String> {
        var out: Set<String> = []
        var stack = toc[...].map { $0 }
        while let e = stack.popLast() {
            if let fragment = e.target?.fragment, !fragment.isEmpty { out.insert(fragment) }
            stack += e.children
        }
        return out
    }
}
