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
/// `@unchecked Sendable`: the `EPUBBook` inside is not thread-safe; the conversion uses it under a
/// lock, and the caller must not use it while a conversion that was given it runs.
public final class IndexedBook: @unchecked Sendable {
    let path: String
    let book: EPUBBook
    let sections: [BookSection]
    let options: SectionOptions

    /// - Parameters:
    ///   - path: the `.epub` file `book` was opened from (the request's `bookPath`, relative or not).
    ///   - sections: the index exactly as `SectionIndexer.index(book, options: options)` returned it.
    public init(path: String, book: EPUBBook, sections: [BookSection], options: SectionOptions) {
        self.path = path
        self.book = book
        self.sections = sections
        self.options = options
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
