public import Contracts
public import EPUBReader
public import Foundation

/// The shape of `epub2audio BOOK --list --json` and of the service's `GET /v1/books/{sha256}`: a
/// contract other tools read. Fields may be added, never removed or renamed.
///
/// One type for both front ends, so the two documents cannot drift apart.
public struct SectionListing: Encodable, Sendable {
    /// The book's file as it was given (the CLI's listing of several books tells them apart by it).
    public var file: String?
    /// The title to show: the metadata's, or a name for a book without one.
    public var title: String
    /// `dc:creator`s, in the book's order.
    public var authors: [String]
    /// The first `dc:language`.
    public var language: String?
    /// The language the text is read in when it is not `language`: the one most of the content
    /// documents read declare (`SectionIndex.textLanguage`), or the one their text reads as when
    /// none declares any (`LanguageMismatch`). Absent when `language` is what the text is in.
    public var textLanguage: String?
    /// The package's unique identifier.
    public var identifier: String?
    /// `dc:publisher`.
    public var publisher: String?
    /// `dc:date` as written.
    public var date: String?
    /// The package document's `version` (`2.0`, `3.0`).
    public var epubVersion: String
    /// Where the sections came from: `nav`, `ncx` or `none` (`TOCSource`).
    public var tocSource: String
    /// In reading order; `included` is the final decision (classifier, `--include`, `--chapters`).
    public var sections: [BookSection]
    /// Everything worked around while reading and cutting, each once, in order.
    public var warnings: [String]
    /// Words in the sections read (`included`), and in the sections skipped.
    public var readWords: Int
    /// Words in the sections not read.
    public var skippedWords: Int
    /// What the voice a conversion would use can speak of the text read (`SpeakableText`); absent
    /// when not assessed.
    public var speech: SpeakableTextReport?
    /// What converting the sections read would write (`OutputEstimate`); absent when not estimated.
    public var estimate: OutputEstimate?

    /// The listing of `package` cut into `sections`; `title` is the title to show (the metadata's,
    /// or a name for a book without one). The word totals follow the sections' `included` flags.
    public init(
        package: EPUBPackage, title: String, sections: [BookSection], warnings: [EPUBWarning],
        textLanguage: String? = nil
    ) {
        let metadata = package.metadata
        let totals = ReadingTotals(sections: sections)
        self.title = title
        authors = metadata.authors
        language = metadata.languages.first
        self.textLanguage = textLanguage
        identifier = metadata.identifier
        publisher = metadata.publisher
        date = metadata.date
        epubVersion = package.version
        tocSource = package.tocSource.rawValue
        self.sections = sections
        self.warnings = warnings.map(\.description)
        readWords = totals.readWords
        skippedWords = totals.skippedWords
    }

    /// The JSON document: pretty-printed, keys sorted, slashes as written.
    public func json() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(self)
    }
}
