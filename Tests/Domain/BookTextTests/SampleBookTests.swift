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

    struct Expected: Decodable {
        struct Spine: Decodable {
            var href: String
            var label: String
        }
        struct Chapter: Decodable {
            var title: String
            var href: String
            var part: String?
        }
        struct Text: Decodable {
            var keep: [String]?
            var drop: [String]?
        }
        var spine: [Spine]
        var chapters: [Chapter]
        var text: Text?
    }

    static func expected(_ name: String) throws -> Expected {
        struct File: Decodable { var books: [String: Expected] }
        let data = try Data(contentsOf: samples.appendingPathComponent("expected.json"))
        return try #require(try JSONDecoder().decode(File.self, from: data).books[name])
    }

    @Test(arguments: [novel, treatise])
    func readsBodySkipsFrontAndBackMatter(name: String) throws {
        let book = try Self.open(name)
        let expected = try Self.expected(name)
        let index = try SectionIndexer.index(book)
        // Every spine item belongs to exactly one... or more sections (split by fragments), never to none.
        let covered = Set(index.sections.flatMap(\.spine))
        #expect(covered == Set(book.package.spine.map(\.href)))
        let read = Set(index.sections.filter(\.included).flatMap(\.spine))
        let opf = "OEBPS/"
        for item in expected.spine {
            let href = item.href.hasPrefix(opf) ? String(item.href.dropFirst(opf.count)) : item.href
            #expect(read.contains(href) == (item.label == "body"), "\(href) is \(item.label)")
        }
    }

    @Test(arguments: [novel, treatise])
    func chaptersMatchTheExpectedList(name: String) throws {
        let book = try Self.open(name)
        let expected = try Self.expected(name)
        let chapters = try SectionIndexer.index(book).sections.filter { $0.included && $0.kind != .part }
        #expect(chapters.map(\.href.description) == expected.chapters.map(\.href))
        #expect(chapters.map(\.title) == expected.chapters.map(\.title))
        #expect(chapters.map(\.partTitle) == expected.chapters.map(\.part))
    }

    /// All spoken text of the included sections, notes at the end of their sections.
    static func spokenText(_ name: String, notes: SpokenTextOptions.Notes = .skip) throws -> String {
        let book = try open(name)
        let index = try SectionIndexer.index(book)
        var out = ""
        for section in index.sections where section.included {
            let blocks = try SpokenTextExtractor.blocks(
                for: section, in: book, options: SpokenTextOptions(notes: notes))
            out += SpokenTextExtractor.plainText(blocks) + "\n"
        }
        return out
    }

    @Test func novelSpokenText() throws {
        let text = try Self.spokenText(Self.novel)
        #expect(text.contains("1st of March, 1897"))
        #expect(text.contains("(as she always did, though she would have died before admitting it)"))
        #expect(text.contains("« Merci, mademoiselle."))
        #expect(text.contains("Image: Drawing of the lens"))
        #expect(!text.contains("↩"))
        // The in-chapter footnotes are not read in place.
        let book = try Self.open(Self.novel)
        let index = try SectionIndexer.index(book)
        let chapter6 = try #require(index.sections.first { $0.title == "Chapter 6: Morning" })
        let skipped = try SpokenTextExtractor.blocks(for: chapter6, in: book)
        let withNotes = try SpokenTextExtractor.blocks(for: chapter6, in: book, options: SpokenTextOptions(notes: .end))
        #expect(!skipped.contains { $0.kind == .note })
        #expect(withNotes.filter { $0.kind == .note }.count >= 2)
        #expect(skipped.filter { $0.language == "fr" }.count == 1)
        // Page-break numbers and note markers never end up glued to words.
        #expect(text.range(of: #"[a-z][0-9†*]"#, options: .regularExpression) == nil)
    }

    @Test func treatiseCitationsAreDroppedLookAlikesKept() throws {
        let text = try Self.spokenText(Self.treatise)
        for citation in ["Smith, 2020", "Okafor", "Brandt", "[12]", "[3-5]", "[1, 4]", "[7]"] {
            #expect(!text.contains(citation), "\(citation) is still spoken")
        }
        for kept in ["in 1984", "Chapter (i) of the appendix", "1st of April 1991", "H2O"] {
            #expect(text.contains(kept), "\(kept) was lost")
        }
        #expect(text.contains("Table omitted.") && text.contains("Code example omitted."))
    }

    /// A developer's view of the sample books' sections and text, printed with EPUB2AUDIO_PRINT=1.
    @Test(
        "the sample books' sections and text are printed (EPUB2AUDIO_PRINT=1)",
        .enabled(if: ProcessInfo.processInfo.environment["EPUB2AUDIO_PRINT"] != nil))
    func printSections() throws {
        for name in [Self.novel, Self.treatise] {
            let book = try Self.open(name)
            let index = try SectionIndexer.index(book)
            #expect(index.sections.contains { $0.included }, "\(name) reads no section")
            print("## \(name) \(index.warnings)")
            for s in index.sections {
                print(
                    s.number, s.included, s.role, s.kind, s.href, "|", s.title, "|", s.partTitle ?? "-", s.words,
                    s.spine, s.reasons.prefix(3))
            }
            for s in index.sections where s.included {
                let blocks = try SpokenTextExtractor.blocks(for: s, in: book, options: SpokenTextOptions(notes: .end))
                print(SpokenTextExtractor.plainText(blocks))
            }
        }
    }

    @Test(
        "a notes section asked for reads its notes, without the punctuation of their dropped numbers",
        arguments: [novel, treatise])
    func notesSectionReadsItsNotes(_ name: String) throws {
        let book = try Self.open(name)
        let index = try SectionIndexer.index(book)
        let notes = try #require(index.sections.first { $0.kind == .notes })
        #expect(!notes.included, "notes are skipped by default")
        let blocks = try SpokenTextExtractor.blocks(for: notes, in: book)
        let text = blocks.dropFirst().filter { $0.kind != .heading }
        #expect(text.count >= 3, "the note bodies are the section's text: \(blocks.map(\.text))")
        #expect(!blocks.contains { $0.text.hasPrefix(". ") || $0.text.hasPrefix(") ") })
        // --include notes brings it back, with its words counted.
        let asked = try SectionIndexer.index(book, options: SectionOptions(include: [.notes]))
        let included = try #require(asked.sections.first { $0.kind == .notes })
        #expect(included.included)
        #expect(included.words > 20)
    }
}
