import BookText
import EPUBReader
import Foundation
import Markup
import Testing

/// Writes `--list --json`-shaped output for every book, for scripts/eval.py --json-dir.
/// Runs only when EPUB2AUDIO_EVAL_DUMP names an output folder.
@Suite struct CorpusDumpTests {
    static func listJSON(_ package: EPUBPackage, _ index: SectionIndex) throws -> Data {
        struct Listing: Encodable {
            var title: String?
            var authors: [String]
            var language: String?
            var sections: [BookSection]
            var warnings: [String]
        }
        let listing = Listing(
            title: package.metadata.title, authors: package.metadata.authors,
            language: package.metadata.languages.first,
            sections: index.sections, warnings: index.warnings.map(\.description))
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(listing)
    }

    /// The shared corpus, relative to the package root (absent on machines without it).
    static let corpus = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent(
        "../../../../shared/corpus/real"
    ).standardizedFileURL

    @Test(
        "every corpus book's listing is written for scripts/eval.py (EPUB2AUDIO_EVAL_DUMP=FOLDER)",
        .enabled(if: ProcessInfo.processInfo.environment["EPUB2AUDIO_EVAL_DUMP"] != nil))
    func dumpCorpusBooks() throws {
        let env = ProcessInfo.processInfo.environment
        let out = try #require(env["EPUB2AUDIO_EVAL_DUMP"])
        // EPUB2AUDIO_EVAL_CORPUS points at another folder of books (variants of the corpus).
        let corpus = env["EPUB2AUDIO_EVAL_CORPUS"].map { URL(fileURLWithPath: $0) } ?? Self.corpus
        let fm = FileManager.default
        guard fm.fileExists(atPath: corpus.path) else {
            Issue.record("EPUB2AUDIO_EVAL_DUMP is set but the corpus is absent at \(corpus.path)")
            return
        }
        try fm.createDirectory(atPath: out, withIntermediateDirectories: true)
        let names = try fm.contentsOfDirectory(atPath: corpus.path).sorted().filter { $0.hasSuffix(".epub") }
        #expect(!names.isEmpty, "no .epub in \(corpus.path)")
        for name in names {
            let book = try EPUBBook.open(path: corpus.appendingPathComponent(name).path)
            let index = try SectionIndexer.index(book)
            let written = URL(fileURLWithPath: out).appendingPathComponent(String(name.dropLast(5)) + ".json")
            try Self.listJSON(book.package, index).write(to: written)
            #expect(fm.fileExists(atPath: written.path))
        }
    }
}
