internal import AudioFiles
public import BookText
import Contracts
public import EPUBReader
internal import ESpeakEngine
import Foundation
internal import Normalization

extension ConversionEnvironment {
    /// The real parts: EPUBReader + BookText for the text, espeak-ng for speech, libsndfile for files.
    ///
    /// `BookInput.options` understood: `tocDepth` (an integer), `tables`, `code`, `images`, `math`
    /// (`notice`, `skip`, `read`), `include` (comma-separated section kinds read besides the body),
    /// `includeAll` (`true`), `lexicon` (path of a user lexicon file), `normalize` (`false` turns the
    /// text normalisation off) and `language` (the language whose normalisation rules apply; default:
    /// the book's). Only one espeak-ng engine can live in a process: run sections in
    /// worker processes (`ConversionRequest.workerExecutable`) or one conversion at a time.
    public static let live = ConversionEnvironment(
        makeSource: { input in try EPUBSectionSource(input: input) },
        makeEngine: { try ESpeakSpeechEngine() },
        makeSink: { request in
            let format = AudioFiles.AudioFormat(rawValue: request.encoding.format.rawValue) ?? .wav
            let encoding = AudioFiles.AudioEncoding(
                format: format, compressionLevel: request.encoding.compressionLevel,
                bitrateMode: request.encoding.bitrateMode.flatMap { BitrateMode(rawValue: $0.rawValue) })
            let tags = AudioTags(
                title: request.tags.title, album: request.tags.album,
                artist: request.tags.artist.isEmpty ? nil : request.tags.artist,
                trackNumber: request.tags.trackText, genre: request.tags.genre)
            return try AudioFileWriter(
                path: request.path, encoding: encoding, sampleRate: request.sampleRate, tags: tags)
        })
}

/// A book the caller has already opened and cut into sections (the CLI does, to list and select),
/// handed to a conversion so that the coordinator does not read and index it a second time.
///
/// `@unchecked Sendable`: the `EPUBBook` inside is not thread-safe; the conversion uses it under a
/// lock, and the caller must not use it while a conversion that was given it runs.
public final class IndexedBook: @unchecked Sendable {
    let path: String
    let book: EPUBBook
    let sections: [BookSection]
    let options: SectionOptions

    /// - Parameters:
    ///   - path: the `.epub` file `book` was opened from (the request's `bookPath`).
    ///   - sections: the index exactly as `SectionIndexer.index(book, options: options)` returned it.
    public init(path: String, book: EPUBBook, sections: [BookSection], options: SectionOptions) {
        self.path = path
        self.book = book
        self.sections = sections
        self.options = options
    }
}

extension ConversionEnvironment {
    /// The live environment, reusing `indexed` for its book when the source options agree (worker
    /// processes receive each section's text with their job and never read the book).
    public static func live(reusing indexed: IndexedBook) -> ConversionEnvironment {
        var environment = ConversionEnvironment.live
        environment.makeSource = { input in
            if input.path == indexed.path, EPUBSectionSource.sectionOptions(input) == indexed.options {
                return try EPUBSectionSource(input: input, indexed: indexed)
            }
            return try EPUBSectionSource(input: input)
        }
        return environment
    }
}

/// A book read from an `.epub` file: sections from `SectionIndexer`, text from `SpokenTextExtractor`.
///
/// `@unchecked Sendable`: the `EPUBBook` owns a libzip handle and is not thread-safe; every use of
/// it after `init` goes through `lock`. The other stored properties are immutable values.
final class EPUBSectionSource: SectionSource, @unchecked Sendable {
    let book: BookDescription
    let sections: [PlannedSection]
    private let bookSections: [Int: BookSection]
    private let epub: EPUBBook
    private let textOptions: SpokenTextOptions
    /// Built once: the extractor would otherwise rebuild it over the whole spine for each section.
    private let spinePaths: SpinePaths
    private let normalizer: TextNormalizer?
    private let lock = NSLock()

    /// Version of what `blocks(section:)` produces from the same book: 2 since the spoken text goes
    /// through `TextNormalizer`. Recorded in the manifest, so a change redoes the sections.
    var normalisationVersion: Int { normalizer == nil ? 1 : 2 }

    /// The section options `input` asks for.
    static func sectionOptions(_ input: BookInput) -> SectionOptions {
        var sectionOptions = SectionOptions()
        sectionOptions.tocDepth = input.options["tocDepth"].flatMap { Int($0) }
        sectionOptions.includeAll = input.options["includeAll"] == "true"
        sectionOptions.include = Set(
            (input.options["include"] ?? "").split(separator: ",").compactMap {
                SectionKind(rawValue: $0.trimmingCharacters(in: .whitespaces))
            })
        return sectionOptions
    }

    convenience init(input: BookInput) throws {
        let epub = try EPUBBook.open(path: input.path)
        let options = Self.sectionOptions(input)
        let index = try SectionIndexer.index(epub, options: options)
        try self.init(
            input: input, indexed: IndexedBook(path: input.path, book: epub, sections: index.sections, options: options)
        )
    }

    init(input: BookInput, indexed: IndexedBook) throws {
        epub = indexed.book
        let index = SectionIndex(sections: indexed.sections)
        var options = SpokenTextOptions(notes: SpokenTextOptions.Notes(rawValue: input.notesMode) ?? .skip)
        func omission(_ key: String) -> SpokenTextOptions.Omission? {
            input.options[key].flatMap { SpokenTextOptions.Omission(rawValue: $0) }
        }
        options.tables = omission("tables") ?? options.tables
        options.code = omission("code") ?? options.code
        options.images = omission("images") ?? options.images
        options.math = omission("math") ?? options.math
        options.language = input.options["language"]
        textOptions = options
        spinePaths = SpinePaths(epub.package)
        bookSections = Dictionary(index.sections.map { ($0.number, $0) }, uniquingKeysWith: { first, _ in first })
        // "III" under "Volume I" is named "Volume I — III" in files, tags and the playlist.
        sections = index.sections.map {
            PlannedSection(
                number: $0.number, title: OutputNaming.displayTitle($0.title, partTitle: $0.partTitle),
                words: $0.words, included: $0.included)
        }
        let metadata = epub.package.metadata
        if input.options["normalize"] == "false" {
            normalizer = nil
        } else {
            let lexicon = try input.options["lexicon"].map { try Lexicon.load(path: $0) } ?? .empty
            let language = input.options["language"] ?? metadata.languages.first ?? "en"
            normalizer = TextNormalizer(language: language, lexicon: lexicon)
        }
        let fallbackTitle = URL(fileURLWithPath: input.path).deletingPathExtension().lastPathComponent
        book = BookDescription(
            identifier: metadata.identifier, title: metadata.title ?? fallbackTitle, authors: metadata.authors)
    }

    func blocks(section: Int) throws -> [SpokenBlock] {
        guard let bookSection = bookSections[section] else { throw ConversionError.unknownSection(section) }
        let blocks = try lock.withLock {
            try SpokenTextExtractor.blocks(for: bookSection, in: epub, options: textOptions, spinePaths: spinePaths)
        }
        guard let normalizer else { return blocks }
        return blocks.map { block in
            var block = block
            let context: NormalizationContext = block.kind == .title || block.kind == .heading ? .heading : .running
            // A block in another language keeps its own rules (or none): the book's rules would misread it.
            if let language = block.language, !Self.sameLanguage(language, normalizer.language) {
                block.text = TextNormalizer(language: language).normalize(block.text, context: context)
            } else {
                block.text = normalizer.normalize(block.text, context: context)
            }
            return block
        }
    }

    private static func sameLanguage(_ a: String, _ b: String) -> Bool {
        func primary(_ tag: String) -> Substring {
            tag.lowercased().split(whereSeparator: { $0 == "-" || $0 == "_" }).first ?? ""
        }
        return primary(a) == primary(b)
    }
}
