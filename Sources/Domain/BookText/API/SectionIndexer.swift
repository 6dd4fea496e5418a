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
        let builder = SectionBuilder(package: package, docs: docs, options: options)
        var index = builder.build()
        index.unreadableDocuments = docs.count { $0.isUnreadable }
        index.warnings = warnings + index.warnings
        index.textLanguage = textLanguage(of: index.sections, docs: docs, declared: package.metadata.languages.first)
        return index
    }

    /// `SectionIndex.textLanguage`: the language declared by the documents that hold most of the
    /// words of the sections read (a document that declares none follows `declared`), when its
    /// primary subtag is not `declared`'s.
    static func textLanguage(of sections: [BookSection], docs: [IndexedDocument], declared: String?) -> String? {
        var items = Set<Int>()
        for section in sections where section.included {
            let last = section.end.blockIndex == 0 ? section.end.spineIndex - 1 : section.end.spineIndex
            for item in section.start.spineIndex...max(section.start.spineIndex, last) where item < docs.count {
                items.insert(item)
            }
        }
        var words: [String: Int] = [:]  // by primary subtag
        var tags: [String: String] = [:]  // a primary subtag as the first document writes its tag
        for item in items.sorted() {
            guard let tag = docs[item].language ?? declared, !tag.isEmpty else { continue }
            let key = LanguageDetector.primaryLanguage(tag)
            words[key, default: 0] += docs[item].words
            if tags[key] == nil { tags[key] = tag }
        }
        let own = declared.map(LanguageDetector.primaryLanguage)
        // The most words; among equals, the first tag in alphabetical order (the same every run).
        guard let most = words.max(by: { ($0.value, $1.key) < ($1.value, $0.key) }), most.key != own,
            most.value > own.flatMap({ words[$0] }) ?? 0
        else { return nil }
        return tags[most.key]
    }

    /// Reads and flattens every spine item, keeping only what the sections need, on every core.
    /// Each worker reads its document from the container (one thread at a time: libzip is not
    /// shared between threads) and parses and flattens it while the others read theirs, so the
    /// container's inflating overlaps the parsing. The result is in spine order whatever the
    /// number of cores; only the kept part of each document outlives its worker.
    static func loadDocuments(_ book: some BookContent, warnings: inout [EPUBWarning]) -> [IndexedDocument] {
        let fragments = tocFragments(book.package.toc)
        let spine = book.package.spine
        let language = book.package.metadata.languages.first
        let styles = BookStyles(book)
        let reader = SerialReader(book)
        let loaded = Mutex([Result<IndexedDocument, any Error>?](repeating: nil, count: spine.count))
        DispatchQueue.concurrentPerform(iterations: spine.count) { spineIndex in
            let href = spine[spineIndex].href
            let result = reader.source(forHref: href).flatMap { source in
                Result {
                    let flat = DocumentFlattener.flatten(
                        try source.parse().root, documentPath: href, bookLanguage: language,
                        neighbours: neighbours(of: spineIndex, in: spine), styles: styles)
                    return IndexedDocument(flat, tocFragments: fragments)
                }
            }
            loaded.withLock { $0[spineIndex] = result }
        }
        return zip(spine, loaded.withLock { $0 }).map { item, result in
            switch result {
            case .success(let doc)?: return doc
            case .failure(let error)?:
                warnings.append(
                    EPUBWarning(.major, path: item.href, "could not be read, its text is skipped: \(error)"))
                var unreadable = IndexedDocument()
                unreadable.isUnreadable = true
                return unreadable
            case nil: return IndexedDocument()
            }
        }
    }

    /// The paths of the spine items just before and after item `index`.
    static func neighbours(of index: Int, in spine: [SpineItem]) -> Set<String> {
        Set([index - 1, index + 1].filter(spine.indices.contains).map { spine[$0].href })
    }

    /// Every fragment a TOC entry points at, at any depth.
    static func tocFragments(_ toc: [TOCEntry]) -> Set<String> {
        Set(toc.flatMap(\.flattened).compactMap { $0.target?.fragment }.filter { !$0.isEmpty })
    }
}

/// A book whose container is read by one thread at a time, for workers that parse in parallel.
///
/// `@unchecked Sendable`: the book (an `EPUBBook` owns one libzip handle) is touched only inside
/// the lock, and what leaves it, a `DocumentSource`, is `Sendable`.
private final class SerialReader: @unchecked Sendable {
    private let book: any BookContent
    private let lock = Mutex(())

    init(_ book: any BookContent) { self.book = book }

    /// The document at `href`, its bytes read now under the lock, its parse left to the caller.
    func source(forHref href: String) -> Result<DocumentSource, any Error> {
        lock.withLock { _ in Result { try book.documentSource(forHref: href) } }
    }
}
