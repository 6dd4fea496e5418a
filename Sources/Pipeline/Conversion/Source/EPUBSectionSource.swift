import BookText
import Contracts
import EPUBReader
import Foundation
import Normalization

/// A book read from an `.epub` file: sections from `SectionIndexer`, text from `SpokenTextExtractor`.
///
/// `@unchecked Sendable`: the `EPUBBook` owns a libzip handle and is not thread-safe; every use of
/// it after `init` goes through `IndexedBook.withBook`, whose lock every source sharing the book
/// takes. The other stored properties are immutable values.
final class EPUBSectionSource: SectionSource, @unchecked Sendable {
    let book: BookDescription
    let sections: [PlannedSection]
    /// The index's sections as the indexer made them (the caller's array, not a copy) and where each
    /// number is in it: a dictionary of the sections themselves copied every record (2.7 MiB of the
    /// 10,000-section book's coordinator).
    private let bookSections: [BookSection]
    private let positions: [Int: Int]
    private let indexed: IndexedBook
    private let textOptions: SpokenTextOptions
    /// Built once: the extractor would otherwise rebuild it over the whole spine for each section.
    private let spinePaths: SpinePaths
    /// Read once: the extractor would otherwise read the book's stylesheets for each section.
    private let styles: BookStyles
    private let normalizer: TextNormalizer?

    /// Version of what `blocks(section:)` produces from the same book: 2 since the spoken text goes
    /// through `TextNormalizer`. Recorded in the manifest, so a change redoes the sections.
    var normalisationVersion: Int { normalizer == nil ? 1 : 2 }

    convenience init(input: BookInput) throws {
        let epub = try EPUBBook.open(path: input.path)
        let options = input.options.sections
        let index = try SectionIndexer.index(epub, options: options)
        try self.init(
            input: input, indexed: IndexedBook(path: input.path, book: epub, sections: index.sections, options: options)
        )
    }

    init(input: BookInput, indexed: IndexedBook) throws {
        self.indexed = indexed
        let index = SectionIndex(sections: indexed.sections)
        textOptions = input.options.text
        spinePaths = SpinePaths(indexed.package)
        styles = indexed.withBook { BookStyles($0) }
        bookSections = index.sections
        positions = Dictionary(
            index.sections.enumerated().map { ($1.number, $0) }, uniquingKeysWith: { first, _ in first })
        // "III" under "Volume I" is named "Volume I — III" in files, tags and the playlist.
        sections = index.sections.map {
            PlannedSection(
                number: $0.number, title: OutputNaming.displayTitle($0.title, partTitle: $0.partTitle),
                words: $0.words, included: $0.included)
        }
        let metadata = indexed.package.metadata
        if !input.options.normalize {
            normalizer = nil
        } else {
            let lexicon = try input.options.lexiconPath.map { try Lexicon.load(path: $0) } ?? .empty
            let language = input.options.text.language ?? metadata.languages.first ?? "en"
            normalizer = TextNormalizer(language: language, lexicon: lexicon)
        }
        let fallbackTitle = URL(fileURLWithPath: input.path).deletingPathExtension().lastPathComponent
        book = BookDescription(
            identifier: metadata.identifier, title: metadata.title ?? fallbackTitle, authors: metadata.authors)
    }

    func blocks(section: Int) throws -> [SpokenBlock] {
        guard let position = positions[section] else { throw ConversionError.unknownSection(section) }
        let bookSection = bookSections[position]
        let blocks = try indexed.withBook { epub in
            try SpokenTextExtractor.blocks(
                for: bookSection, in: epub, options: textOptions, spinePaths: spinePaths, styles: styles)
        }
        guard let normalizer else { return blocks }
        return blocks.map { block in
            var block = block
            let context: NormalizationContext = block.kind == .title || block.kind == .heading ? .heading : .running
            // A block in another language keeps its own rules (or none): the book's rules would misread it.
            let written = block.text
            if let language = block.language, !Self.sameLanguage(language, normalizer.language) {
                block.text = TextNormalizer(language: language).normalize(written, context: context)
            } else {
                block.text = normalizer.normalize(written, context: context)
            }
            // Kept for the read-along outputs, which show the book's words where the spoken ones are heard.
            if block.text != written { block.bookText = written }
            return block
        }
    }

    private static func sameLanguage(_ left: String, _ right: String) -> Bool {
        func primary(_ tag: String) -> Substring {
            tag.lowercased().split(whereSeparator: { $0 == "-" || $0 == "_" }).first ?? ""
        }
        return primary(left) == primary(right)
    }
}
