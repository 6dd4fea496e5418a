import BookText
import EPUBReader
import Foundation

/// A book opened and cut into sections, with the final decision of what to read.
struct LoadedBook {
    var path: String
    var book: EPUBBook
    /// Sections in reading order; `included` is the final decision (classifier, `--include`, `--chapters`).
    var sections: [BookSection]
    /// Everything worked around while reading and cutting, in order.
    var warnings: [EPUBWarning]
    /// The index as the indexer made it (before `--chapters`), and the options it was made with.
    var index: SectionIndex
    var options: SectionOptions
    /// Set when `dc:language` is contradicted by the text (its warning is in `warnings`).
    var languageMismatch: LanguageMismatch?
    /// `--chapters` chose the sections: the others are left out by the user, not skipped by the classifier.
    var chosenByNumber = false

    /// The language the text is read in when it is not `dc:language`: the one its documents declare,
    /// or the one it reads as when they declare none.
    var textLanguage: String? { BookLanguage.textLanguage(of: index, mismatch: languageMismatch) }

    /// The title from the metadata; a book without one is named after its file, and says so.
    var displayTitle: String {
        if let title = book.package.metadata.title, !title.isEmpty { return title }
        let stem = URL(fileURLWithPath: path).deletingPathExtension().lastPathComponent
        return "\(stem) (no title in the book)"
    }

    /// Sections that will be converted.
    var selectedSections: [BookSection] { sections.filter(\.included) }
}

/// Opens books and applies the selection options: the one place the CLI touches the reader.
enum BookLoader {
    static func load(path: String, options: SectionOptions, chapters: ChapterSelection?) throws -> LoadedBook {
        let book = try EPUBBook.open(path: path)
        let index = try SectionIndexer.index(book, options: options)
        ProcessMemory.releaseFreed()
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
        return LoadedBook(
            path: path, book: book, sections: sections, warnings: deduplicated(warnings), index: index,
            options: options, languageMismatch: mismatch, chosenByNumber: chapters != nil)
    }

    /// Expands folders into the EPUB files they hold (recursively, sorted) and keeps files as given.
    static func expand(_ arguments: [String]) throws -> [String] {
        var books: [String] = []
        let manager = FileManager.default
        for argument in arguments {
            var isDirectory: ObjCBool = false
            guard manager.fileExists(atPath: argument, isDirectory: &isDirectory) else {
                throw CLIError.inputNotFound(argument)
            }
            guard isDirectory.boolValue else {
                books.append(argument)
                continue
            }
            let root = URL(fileURLWithPath: argument)
            let found = (manager.enumerator(atPath: argument)?.allObjects as? [String] ?? [])
                .filter { $0.lowercased().hasSuffix(".epub") }
                .sorted()
                .map { root.appendingPathComponent($0).path }
            if found.isEmpty { throw CLIError.noBooksInFolder(argument) }
            books += found
        }
        return books
    }

    private static func deduplicated(_ warnings: [EPUBWarning]) -> [EPUBWarning] {
        var seen = Set<EPUBWarning>()
        return warnings.filter { seen.insert($0).inserted }
    }
}
