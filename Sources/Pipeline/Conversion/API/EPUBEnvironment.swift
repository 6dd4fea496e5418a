public import BookText
import Contracts
public import EPUBReader
import Foundation

extension ConversionEnvironment {
    /// An environment that reads EPUB books (EPUBReader, BookText, Normalization) and speaks and writes
    /// with the engine and the sink the caller chooses: the composition root (the CLI, a server) says
    /// which are live, e.g. espeak-ng (`ESpeakSpeechEngine`) and libsndfile (`AudioFileWriter`).
    ///
    /// - Parameters:
    ///   - indexed: a book the caller has already opened and indexed; used instead of reading the book
    ///     again when the input names the same file and asks for the same section options.
    ///   - makeEngine: called once per process that makes sections. espeak-ng allows one engine per
    ///     process: run sections in worker processes (`ConversionRequest.workerExecutable`) or one
    ///     conversion at a time.
    ///   - makeSink: opens one section file.
    /// - Returns: the environment a `Converter` runs in.
    public static func epub(
        reusing indexed: IndexedBook? = nil, makeEngine: @escaping @Sendable () throws -> any SpeechEngine,
        makeSink: @escaping @Sendable (SinkRequest) throws -> any AudioSink
    ) -> ConversionEnvironment {
        ConversionEnvironment(
            makeSource: { input in
                if let indexed, indexed.serves(input) {
                    return try EPUBSectionSource(input: input, indexed: indexed)
                }
                return try EPUBSectionSource(input: input)
            },
            makeEngine: makeEngine, makeSink: makeSink)
    }
}

/// A book the caller has already opened and cut into sections (the CLI does, to list and select),
/// handed to a conversion so that the coordinator does not read and index it a second time.
///
/// Several conversions may share one (a server converts sections of one book in several slots at
/// once): they take turns with the book through its lock.
///
/// `@unchecked Sendable`: the `EPUBBook` inside is not thread-safe; every conversion given it reads
/// it through `withBook`, under the one lock, and the caller must not use it while one of them runs.
public final class IndexedBook: @unchecked Sendable {
    let path: String
    private let book: EPUBBook
    let sections: [BookSection]
    let options: SectionOptions
    /// The book's package, read once when it was opened: a value, shared freely.
    let package: EPUBPackage
    private let lock = NSLock()

    /// - Parameters:
    ///   - path: the `.epub` file `book` was opened from (the request's `bookPath`, relative or not).
    ///   - book: the book, opened; from now on read only through this value.
    ///   - sections: the index exactly as `SectionIndexer.index(book, options: options)` returned it.
    ///   - options: the options the book was indexed with (a request asking for others reads it anew).
    public init(path: String, book: EPUBBook, sections: [BookSection], options: SectionOptions) {
        self.path = path
        self.book = book
        self.sections = sections
        self.options = options
        package = book.package
    }

    /// Runs `body` with the book, no other conversion reading it meanwhile.
    func withBook<T>(_ body: (EPUBBook) throws -> T) rethrows -> T {
        try lock.withLock { try body(book) }
    }

    /// Whether a source built from `input` would be this book: the same file (the coordinator makes
    /// the request's path absolute) cut with the same section options.
    func serves(_ input: BookInput) -> Bool {
        Self.absolute(input.path) == Self.absolute(path) && input.options.sections == options
    }

    private static func absolute(_ path: String) -> String {
        URL(fileURLWithPath: path).standardizedFileURL.path
    }
}
