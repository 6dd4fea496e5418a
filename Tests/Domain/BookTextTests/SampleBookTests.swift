import BookText
import Contracts
import EPUBReader
import Foundation
import Testing

/// The project's own sample books (samples/), read through the real reader.
@Suite struct SampleBookTests {
    static let samples = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../../samples").standardizedFileURL

    static func open(_ name: String) throws -> EPUBBook {
        try EPUBBook.open(path: samples.appendingPathComponent(name).path)
    }

    static let novel = "the-lighthouse-keepers-daughter.epub"
    static let treatise = "a-treatise-on-small-machines.epub"

    @Test func printSections() throws {
        guard ProcessInfo.processInfo.environment["EPUB2AUDIO_PRINT"] != nil else { return }
        for name in [Self.novel, Self.treatise] {
            let book = try Self.open(name)
            let index = try SectionIndexer.index(book)
            print("## \(name) \(index.warnings)")
            for s in index.sections {
                print(s.number, s.included, s.role, s.kind, s.href, "|", s.title, "|", s.partTitle ?? "-", s.words, s.spine, s.reasons.prefix(3))
            }
            for s in index.sections where s.included {
                let blocks = try SpokenTextExtractor.blocks(for: s, in: book, options: SpokenTextOptions(notes: .end))
                print(SpokenTextExtractor.plainText(blocks))
            }
        }
    }
}
