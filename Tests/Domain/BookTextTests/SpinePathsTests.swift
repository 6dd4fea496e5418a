import BookText
import Contracts
import EPUBReader
import Testing

/// The spine lookup the extractor uses to find note documents, built once per book.
@Suite struct SpinePathsTests {
    static let book = MemoryBook(
        spine: [
            (
                "Text/ch1.xhtml",
                "<section id='c1'><h1>One</h1><p>A claim<a epub:type='noteref' href='Notes.xhtml#n1'>1</a> stands.</p></section>"
            ),
            ("Text/ch2.xhtml", "<section id='c2'><h1>Two</h1><p>Plain.</p></section>"),
            ("Text/notes.xhtml", "<aside epub:type='footnote' id='n1'><p>1. The evidence.</p></aside>"),
            ("Text/NOTES.xhtml", "<p>Another file that differs only in case.</p>"),
        ],
        toc: [entry("One", "Text/ch1.xhtml#c1"), entry("Two", "Text/ch2.xhtml#c2")])

    @Test func exactPathFirstThenTheFirstThatDiffersOnlyInCase() {
        let paths = SpinePaths(Self.book.package)
        #expect(paths.spineIndex(of: "Text/ch2.xhtml") == 1)
        #expect(paths.spineIndex(of: "Text/NOTES.xhtml") == 3)
        #expect(paths.spineIndex(of: "text/Notes.xhtml") == 2)
        #expect(paths.spineIndex(of: "Text/missing.xhtml") == nil)
    }

    @Test func theSameBlocksWithAGivenLookupAsWithout() throws {
        let sections = try SectionIndexer.index(Self.book).sections
        let paths = SpinePaths(Self.book.package)
        let options = SpokenTextOptions(notes: .end)
        for section in sections {
            let given = try SpokenTextExtractor.blocks(for: section, in: Self.book, options: options, spinePaths: paths)
            let built = try SpokenTextExtractor.blocks(for: section, in: Self.book, options: options)
            #expect(given == built)
        }
        let first = try #require(sections.first)
        let blocks = try SpokenTextExtractor.blocks(for: first, in: Self.book, options: options, spinePaths: paths)
        #expect(blocks.last?.kind == .note)
        #expect(blocks.last?.text == "The evidence.")
    }
}
