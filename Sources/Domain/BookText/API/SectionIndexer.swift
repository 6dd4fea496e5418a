import Contracts
import Dispatch
import EPUBReader
import Markup
import Synchronization

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

    /// Spine items read from the container before their batch is parsed: bounds the bytes held.
    static let parseBatch = 64

    /// Reads and flattens every spine item, keeping only what the sections need. The container is
    /// read one document at a time (libzip is not shared between threads); the documents of a
    /// batch are parsed and flattened on every core. The result is in spine order whatever the
    /// number of cores.
    static func loadDocuments(_ book: some BookContent, warnings: inout [EPUBWarning]) -> [IndexedDocument] {
        let fragments = tocFragments(book.package.toc)
        let spine = book.package.spine
        var docs: [IndexedDocument] = []
        docs.reserveCapacity(spine.count)
        var batchStart = 0
        while batchStart < spine.count {
            let batch = spine[batchStart..<min(batchStart + parseBatch, spine.count)]
            let sources = batch.map { item in Result { try book.documentSource(forHref: item.href) } }
            let hrefs = batch.map(\.href)
            let parsed = Mutex([Result<IndexedDocument, any Error>?](repeating: nil, count: hrefs.count))
            DispatchQueue.concurrentPerform(iterations: hrefs.count) { i in
                let result = sources[i].flatMap { source in
                    Result {
                        let flat = DocumentFlattener.flatten(try source.parse().root, documentPath: hrefs[i])
                        return IndexedDocument(flat, tocFragments: fragments)
                    }
                }
                parsed.withLock { $0[i] = result }
            }
            let results = parsed.withLock { $0 }
            for (item, result) in zip(batch, results) {
                switch result {
                case .success(let doc)?: docs.append(doc)
                case .failure(let error)?:
                    warnings.append(
                        EPUBWarning(.major, path: item.href, "could not be read, its text is skipped: \(error)"))
                    docs.append(IndexedDocument())
                case nil: docs.append(IndexedDocument())
                }
            }
            batchStart += batch.count
        }
        return docs
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
