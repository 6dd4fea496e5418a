import Contracts

/// The book as the manifest and the tags name it.
public struct BookDescription: Hashable, Sendable, Codable {
    /// The package's unique identifier, when it has one.
    public var identifier: String?
    /// The title (the file name when the book has none).
    public var title: String
    /// The authors, in order.
    public var authors: [String]

    /// A description of a book.
    public init(identifier: String? = nil, title: String, authors: [String] = []) {
        self.identifier = identifier
        self.title = title
        self.authors = authors
    }
}

/// A section as planned by the book text: what `--list` shows.
public struct PlannedSection: Hashable, Sendable, Codable {
    /// The section number, unique in the book; names the file (`NNN - ...`) and the manifest entry.
    public var number: Int
    /// The title as spoken and shown.
    public var title: String
    /// The title used for the file name (often shorter); sanitised before use.
    public var fileTitle: String
    /// Words in the section.
    public var words: Int
    /// Whether the book text selects the section by default (front matter is usually not).
    public var included: Bool

    /// A section; `fileTitle` defaults to `title`.
    public init(number: Int, title: String, fileTitle: String? = nil, words: Int, included: Bool = true) {
        self.number = number
        self.title = title
        self.fileTitle = fileTitle ?? title
        self.words = words
        self.included = included
    }
}

/// Where the pipeline gets the book's sections and their spoken text.
///
/// The live implementation reads an EPUB (EPUBReader + BookText); tests use an in-memory one.
/// A source is built once per process (coordinator and each worker) from a `BookInput`, so it
/// must give the same sections and blocks every time it is built from the same input.
public protocol SectionSource: Sendable {
    /// Identifier, title and authors.
    var book: BookDescription { get }
    /// Every section of the book in order, selected or not.
    var sections: [PlannedSection] { get }
    /// Version of the text normalisation; recorded in the manifest (default 1).
    var normalisationVersion: Int { get }
    /// The spoken blocks of section `section` (its number), in order.
    func blocks(section: Int) throws -> [SpokenBlock]
}

extension SectionSource {
    /// 1: a source without text normalisation.
    public var normalisationVersion: Int { 1 }
}

/// What a section source is built from: the book's path and how to read it.
///
/// Part of every worker job, so that a worker that has to read the book builds exactly the same
/// source as the coordinator.
public struct BookInput: Hashable, Sendable, Codable {
    /// Path of the `.epub` file.
    public var path: String
    /// Sections, spoken text and normalisation options.
    public var options: BookOptions

    /// The input for the book at `path`, read with `options`.
    public init(path: String, options: BookOptions = BookOptions()) {
        self.path = path
        self.options = options
    }
}

/// Everything an audio sink factory needs to open one section file.
public struct SinkRequest: Hashable, Sendable, Codable {
    /// Where to write (always a `.part` file inside the output folder).
    public var path: String
    /// Format and encoder settings.
    public var encoding: AudioEncoding
    /// What the file is tagged with.
    public var tags: AudioTags
    /// Sample rate of the PCM that will be written (the engine's).
    public var sampleRate: Int

    /// A request to open `path`.
    public init(path: String, encoding: AudioEncoding, tags: AudioTags, sampleRate: Int) {
        self.path = path
        self.encoding = encoding
        self.tags = tags
        self.sampleRate = sampleRate
    }
}

/// The three seams of the pipeline: where text comes from, what speaks it, where audio goes.
///
/// Tests pass a fake engine and an in-memory source; the CLI passes the live parts. The same
/// environment must be used by the coordinator and by its worker processes (`WorkerMain`).
public struct ConversionEnvironment: Sendable {
    /// Builds the section source of a book (called once per process and book).
    public var makeSource: @Sendable (BookInput) throws -> any SectionSource
    /// Builds a speech engine (called once per process; `reset()`, best effort, before every section).
    public var makeEngine: @Sendable () throws -> any SpeechEngine
    /// Opens an audio sink for one section file.
    public var makeSink: @Sendable (SinkRequest) throws -> any AudioSink

    /// An environment of these three parts.
    public init(
        makeSource: @escaping @Sendable (BookInput) throws -> any SectionSource,
        makeEngine: @escaping @Sendable () throws -> any SpeechEngine,
        makeSink: @escaping @Sendable (SinkRequest) throws -> any AudioSink
    ) {
        self.makeSource = makeSource
        self.makeEngine = makeEngine
        self.makeSink = makeSink
    }
}

/// Fingerprint of a section's spoken text: SHA-256 over every block's kind, language and text.
package enum SpokenTextFingerprint {
    /// Hex SHA-256; changes when any block's text, kind or language changes, or blocks are added, removed, reordered.
    package static func sha256(_ blocks: [SpokenBlock]) -> String {
        var hasher = SHA256()
        for block in blocks {
            // Unit and record separators cannot appear in cleaned book text, so the encoding is unambiguous.
            hasher.update("\(block.kind.rawValue)\u{1F}\(block.language ?? "")\u{1F}\(block.text)\u{1E}")
        }
        return hasher.finalizeHex()
    }
}

extension ConversionRequest {
    /// What a section source is built from for this request.
    var bookInput: BookInput { BookInput(path: bookPath, options: bookOptions) }
}

extension ConversionEnvironment {
    /// The request's section source; an error that is not already a `ConversionError` means the
    /// book could not be read.
    func source(for request: ConversionRequest) throws -> any SectionSource {
        do {
            return try makeSource(request.bookInput)
        } catch let error as ConversionError {
            throw error
        } catch {
            throw ConversionError.unreadableBook(path: request.bookPath, reason: "\(error)")
        }
    }
}
