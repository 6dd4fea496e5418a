internal import AudioFiles
internal import BookText
import Contracts
internal import EPUBReader
internal import ESpeakEngine
import Foundation

extension ConversionEnvironment {
    /// The real parts: EPUBReader + BookText for the text, espeak-ng for speech, libsndfile for files.
    ///
    /// `BookInput.options` understood: `tocDepth` (an integer), `tables`, `code`, `images`, `math`
    /// (`notice`, `skip`, `read`), `include` (comma-separated section kinds read besides the body)
    /// and `includeAll` (`true`). Only one espeak-ng engine can live in a process: run sections in
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
                trackNumber: String(request.tags.trackNumber), genre: request.tags.genre)
            return try AudioFileWriter(
                path: request.path, encoding: encoding, sampleRate: request.sampleRate, tags: tags)
        })
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
    private let lock = NSLock()

    init(input: BookInput) throws {
        epub = try EPUBBook.open(path: input.path)
        var sectionOptions = SectionOptions()
        sectionOptions.tocDepth = input.options["tocDepth"].flatMap { Int($0) }
        sectionOptions.includeAll = input.options["includeAll"] == "true"
        sectionOptions.include = Set(
            (input.options["include"] ?? "").split(separator: ",").compactMap {
                SectionKind(rawValue: $0.trimmingCharacters(in: .whitespaces))
            })
        let index = try SectionIndexer.index(epub, options: sectionOptions)
        var options = SpokenTextOptions(notes: SpokenTextOptions.Notes(rawValue: input.notesMode) ?? .skip)
        func omission(_ key: String) -> SpokenTextOptions.Omission? {
            input.options[key].flatMap { SpokenTextOptions.Omission(rawValue: $0) }
        }
        options.tables = omission("tables") ?? options.tables
        options.code = omission("code") ?? options.code
        options.images = omission("images") ?? options.images
        options.math = omission("math") ?? options.math
        textOptions = options
        bookSections = Dictionary(index.sections.map { ($0.number, $0) }, uniquingKeysWith: { first, _ in first })
        sections = index.sections.map {
            PlannedSection(number: $0.number, title: $0.title, words: $0.words, included: $0.included)
        }
        let metadata = epub.package.metadata
        let fallbackTitle = URL(fileURLWithPath: input.path).deletingPathExtension().lastPathComponent
        book = BookDescription(
            identifier: metadata.identifier, title: metadata.title ?? fallbackTitle, authors: metadata.authors)
    }

    func blocks(section: Int) throws -> [SpokenBlock] {
        guard let bookSection = bookSections[section] else { throw ConversionError.unknownSection(section) }
        return try lock.withLock { try SpokenTextExtractor.blocks(for: bookSection, in: epub, options: textOptions) }
    }
}
