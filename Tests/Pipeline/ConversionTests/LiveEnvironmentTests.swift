import AudioFiles
import BookText
import Contracts
import EPUBReader
import Foundation
import Testing

@testable import Conversion

/// The EPUB source and the libsndfile writer with a fake engine (espeak-ng is process-global; its own tests cover it).
@Suite struct LiveEnvironmentTests {
    static let sample = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../../samples/the-lighthouse-keepers-daughter.epub").standardizedFileURL.path

    @Test func epubSourceGivesSectionsAndBlocks() throws {
        try #require(FileManager.default.fileExists(atPath: Self.sample), "sample book missing: \(Self.sample)")
        let source = try EPUBSectionSource(input: BookInput(path: Self.sample))
        #expect(!source.book.title.isEmpty)
        let included = source.sections.filter(\.included)
        #expect(!included.isEmpty)
        let blocks = try source.blocks(section: try #require(included.first).number)
        #expect(blocks.first?.kind == .title)
        #expect(blocks.contains { !$0.text.isEmpty && $0.kind == .paragraph })
        // Building it twice gives the same text: what workers rely on.
        let again = try EPUBSectionSource(input: BookInput(path: Self.sample))
        #expect(again.sections == source.sections)
        #expect(try again.blocks(section: included[0].number) == blocks)
    }

    /// The CLI hands over the book it indexed: with a relative path, or `--include`, the conversion
    /// used to open and index it a second time.
    @Test func anIndexedBookIsReusedForTheSameFileAndSectionOptions() throws {
        try #require(FileManager.default.fileExists(atPath: Self.sample), "sample book missing: \(Self.sample)")
        let options = SectionOptions(include: [.preface])
        let book = try EPUBBook.open(path: Self.sample)
        let indexed = IndexedBook(
            path: Self.sample, book: book, sections: try SectionIndexer.index(book, options: options).sections,
            options: options)
        let samePath = Self.sample.replacingOccurrences(of: "/samples/", with: "/samples/../samples/")
        #expect(indexed.serves(BookInput(path: samePath, options: BookOptions(sections: options))))
        #expect(!indexed.serves(BookInput(path: Self.sample)), "other section options: index anew")
        #expect(!indexed.serves(BookInput(path: "/elsewhere/book.epub", options: BookOptions(sections: options))))
    }

    /// A server gives one indexed book to every conversion of it, several at once (one per job slot):
    /// their reads of the one libzip handle must take turns. Each source used to lock only itself,
    /// and sections failed ("cannot read its text") or read another section's bytes now and then.
    @Test func conversionsSharingAnIndexedBookReadItInTurn() async throws {
        try #require(FileManager.default.fileExists(atPath: Self.sample), "sample book missing: \(Self.sample)")
        let book = try EPUBBook.open(path: Self.sample)
        let options = SectionOptions()
        let indexed = IndexedBook(
            path: Self.sample, book: book, sections: try SectionIndexer.index(book, options: options).sections,
            options: options)
        let numbers = indexed.sections.filter(\.included).map(\.number)
        let reference = try EPUBSectionSource(input: BookInput(path: Self.sample))
        let expected = try numbers.map { try reference.blocks(section: $0) }
        let sources = try (0..<4).map { _ in
            try EPUBSectionSource(input: BookInput(path: Self.sample), indexed: indexed)
        }
        let mismatches = await withTaskGroup(of: Int.self) { group in
            for source in sources {
                group.addTask {
                    var wrong = 0
                    for _ in 0..<25 {
                        for (number, blocks) in zip(numbers, expected)
                        where (try? source.blocks(section: number)) != blocks {
                            wrong += 1
                        }
                    }
                    return wrong
                }
            }
            return await group.reduce(0, +)
        }
        #expect(mismatches == 0)
    }

    @Test func liveSourceAndWriterWithAFakeEngine() async throws {
        try #require(FileManager.default.fileExists(atPath: Self.sample), "sample book missing: \(Self.sample)")
        let sandbox = try Sandbox()
        let env = epubEnvironment { FakeEngine() }
        var request = ConversionRequest(
            bookPath: Self.sample, outputDirectory: sandbox.output, voice: VoiceSettings(voice: "en"), jobs: 1)
        request.encoding = AudioEncoding(format: .flac)
        let summary = try await Converter(environment: env).run(request)
        #expect(summary.sectionsDone > 0)
        #expect(summary.sectionsFailed == 0)
        let manifest = try sandbox.manifest()
        for record in manifest.sections where record.status == .done {
            let file = try #require(record.file)
            #expect(file.hasSuffix(".flac"))
            let data = try #require(sandbox.contents(file))
            #expect(data.prefix(4) == Data("fLaC".utf8))
            #expect(Int64(data.count) == record.bytes)
        }
        // A second run resumes everything.
        #expect(try await Converter(environment: env).run(request).sectionsSkipped == summary.sectionsDone)
    }
}

/// The library's EPUB source and the libsndfile writer with `engine`: what the CLI composes, with a
/// fake engine where espeak-ng is not the subject.
func epubEnvironment(engine: @escaping @Sendable () throws -> any SpeechEngine) -> ConversionEnvironment {
    .epub(
        makeEngine: engine,
        makeSink: {
            try AudioFileWriter(path: $0.path, encoding: $0.encoding, sampleRate: $0.sampleRate, tags: $0.tags)
        })
}
