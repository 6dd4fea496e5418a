import Bundling
import Foundation

/// A book opened and cut into sections once, with the final decision of what to read: what every
/// front end lists, converts, exports as text and bundles.
///
/// Opening reads the package and indexes every document once; the conversion reuses that index
/// (`indexed`) instead of reading the book again.
public struct OpenedBook {
    /// The `.epub` file, as the caller named it.
    public var path: String
    /// The book as the reader opened it.
    public var book: EPUBBook
    /// Sections in reading order; `included` is the final decision (classifier, `include`, `chapters`).
    public var sections: [BookSection]
    /// Everything worked around while reading and cutting, in order, each once.
    public var warnings: [EPUBWarning]
    /// The index as the indexer made it (before `chapters`), and the options it was made with.
    public var index: SectionIndex
    /// The section options the book was indexed with.
    public var options: SectionOptions
    /// Set when `dc:language` is contradicted by the text (its warning is in `warnings`).
    public var languageMismatch: LanguageMismatch?
    /// `chapters` chose the sections: the others are left out by the user, not skipped by the classifier.
    public var chosenByNumber: Bool
    /// The book handed to the conversion, so that its coordinator does not index it a second time.
    public let indexed: IndexedBook

    /// Opens the book at `path`, indexes it with `options` and applies `chapters` (nil: the
    /// classifier's decision stands).
    /// - Throws: `EPUBError` for a book that cannot be read, `BookTextError` for an empty spine or a
    ///   `chapters` number the book does not have.
    public static func open(path: String, options: SectionOptions, chapters: ChapterSelection? = nil) throws
        -> OpenedBook
    {
        let book = try EPUBBook.open(path: path)
        let index = try SectionIndexer.index(book, options: options)
        var sections = index.sections
        if let chapters {
            try chapters.validate(sectionCount: sections.count)
            // Named sections are converted whatever the classifier decided; the others are not.
            for position in sections.indices {
                sections[position].included = chapters.contains(sections[position].number)
            }
        }
        let mismatch = BookLanguage.mismatch(in: book)
        let warnings =
            book.package.warnings + book.lookupWarnings + index.warnings + (mismatch.map { [$0.warning] } ?? [])
        return OpenedBook(
            path: path, book: book, sections: sections, warnings: deduplicated(warnings), index: index,
            options: options, languageMismatch: mismatch, chosenByNumber: chapters != nil,
            indexed: IndexedBook(path: path, book: book, sections: index.sections, options: options))
    }

    /// The book with the sections `numbers` chosen for reading, whatever the classifier decided, and
    /// no others (the service's `chapters`; every number must be one of the book's).
    public func choosing(_ numbers: Set<Int>) -> OpenedBook {
        var chosen = self
        for position in chosen.sections.indices {
            chosen.sections[position].included = numbers.contains(chosen.sections[position].number)
        }
        chosen.chosenByNumber = true
        return chosen
    }

    /// The language the text is read in when it is not `dc:language`: the one its documents declare,
    /// or the one it reads as when they declare none.
    public var textLanguage: String? { BookLanguage.textLanguage(of: index, mismatch: languageMismatch) }

    /// The language the book is read in: `textLanguage`, else the first `dc:language`.
    public var readingLanguage: String? { textLanguage ?? book.package.metadata.languages.first }

    /// The title from the metadata; a book without one is named after its file, and says so.
    public var displayTitle: String { displayTitle(fallbackName: fileStem) }

    /// The title from the metadata; a book without one is named `name` (the service names a book by
    /// its hash), and says so.
    public func displayTitle(fallbackName name: String) -> String {
        if let title = book.package.metadata.title, !title.isEmpty { return title }
        return "\(name) (no title in the book)"
    }

    /// The folder a conversion writes to when none is given: the title (the file's name for a book
    /// without one), made safe as a file name.
    public var folderName: String {
        let title = book.package.metadata.title.flatMap { $0.isEmpty ? nil : $0 } ?? fileStem
        return OutputNaming.sanitisedTitle(title, number: 0)
    }

    /// Sections that will be converted.
    public var selectedSections: [BookSection] { sections.filter(\.included) }

    /// Why there is nothing to convert, when there is nothing: no section selected, or no text in
    /// those that are; nil when there is something to read.
    public var nothingToRead: NothingToRead? {
        let selected = selectedSections
        if selected.isEmpty {
            guard !sections.contains(where: { $0.words > 0 }) else { return .noneSelected }
            return .noText(unreadableDocuments: index.unreadableDocuments, documents: book.package.spine.count)
        }
        // Sections chosen by number are converted even when silent (the user asked for them).
        if !chosenByNumber && selected.allSatisfy({ $0.words == 0 }) { return .selectedAreSilent }
        return nil
    }

    /// The listing (`--list --json`, `GET /v1/books/{sha256}`) of the book; `speech`: what the voice
    /// a conversion would use can speak of it.
    public func listing(title: String? = nil, speech: SpeakableTextReport? = nil) -> SectionListing {
        var listing = SectionListing(
            package: book.package, title: title ?? displayTitle, sections: sections, warnings: warnings,
            textLanguage: textLanguage)
        listing.speech = speech
        return listing
    }

    /// The picture embedded in the section files and bundles: the book's cover as it is (JPEG,
    /// PNG), another raster converted by the ffmpeg at `ffmpegPath`; nil when it has none usable.
    public func cover(ffmpegPath: String? = AudiobookBundler.locateFFmpeg()) -> AudiobookCover? {
        AudiobookCover(book: book, ffmpegPath: ffmpegPath)
    }

    private var fileStem: String { URL(fileURLWithPath: path).deletingPathExtension().lastPathComponent }

    private static func deduplicated(_ warnings: [EPUBWarning]) -> [EPUBWarning] {
        var seen = Set<EPUBWarning>()
        return warnings.filter { seen.insert($0).inserted }
    }
}

/// Why a book gives nothing to convert.
public enum NothingToRead: Hashable, Sendable, CustomStringConvertible {
    /// Sections have text, but none is selected (front ends say how to choose).
    case noneSelected
    /// No section has text: its documents could not be read, or it is pictures without descriptions.
    case noText(unreadableDocuments: Int, documents: Int)
    /// The selected sections have no words.
    case selectedAreSilent

    /// The reason, as an error line says it (without the front end's hint for `noneSelected`).
    public var description: String {
        switch self {
        case .noneSelected: return "no section is selected for reading"
        case .selectedAreSilent: return "the selected sections have no text to read"
        case .noText(let unreadable, let documents):
            let start = "the book has no text to read"
            switch (unreadable, documents) {
            case (0, _): return start + " (image-only pages?)"
            case (_, 1): return start + ": its only document could not be read (see the warning)"
            case (let u, let d) where u == d:
                return start + ": none of its \(d) documents could be read (see the warnings)"
            case (let u, let d): return start + ": \(u) of its \(d) documents could not be read, the others hold none"
            }
        }
    }
}
