import EPUBReader
import Markup
import Testing

@testable import BookText

/// SVG content documents in the spine are read: their `<title>`, `<desc>` and `<text>`.
@Suite struct SVGDocumentTests {
    static let page = """
        <?xml version="1.0" encoding="UTF-8"?>
        <svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" xml:lang="en"
             viewBox="0 0 600 800">
          <title>The Garden</title>
          <desc>A walled garden at dusk, drawn in ink.</desc>
          <defs><text id="unused">Never shown</text><style>text { font: serif; }</style></defs>
          <image xlink:href="garden.jpg" width="600" height="600"/>
          <g id="caption">
            <text x="10" y="700"><tspan x="10" y="700">Once upon a time</tspan><tspan x="10" y="730">there was
              a g<tspan font-weight="bold">arden</tspan>.</tspan></text>
            <text x="10" y="10">The Garden</text>
          </g>
        </svg>
        """

    static func svgBook() -> MemoryBook {
        var book = MemoryBook(spine: [("page.svg", "")], toc: [])
        book.files["page.svg"] = page
        return book
    }

    @Test func anSVGDocumentIsReadFromItsTitleDescriptionAndText() throws {
        let document = try MarkupParser.parseXHTML(Array(Self.page.utf8), documentName: "page.svg")
        let flat = DocumentFlattener.flatten(document.root, documentPath: "page.svg")
        #expect(flat.title == "The Garden")
        #expect(flat.language == "en")
        #expect(flat.blocks.map(\.kind) == [.heading, .paragraph, .paragraph])
        #expect(
            flat.blocks.map(\.text) == [
                "The Garden", "A walled garden at dusk, drawn in ink.", "Once upon a time there was a garden.",
            ])
        #expect(flat.anchors["caption"] == 2)
    }

    @Test func aBookOfSVGPagesHasTextToRead() throws {
        let book = Self.svgBook()
        let index = try SectionIndexer.index(book)
        let section = try #require(index.sections.first { $0.included })
        let text = SpokenTextExtractor.plainText(try SpokenTextExtractor.blocks(for: section, in: book))
        #expect(text.contains("Once upon a time there was a garden."))
        #expect(!text.contains("Never shown"))
    }

    @Test func xhtmlInsideForeignObjectIsRead() throws {
        let svg = """
            <svg xmlns="http://www.w3.org/2000/svg"><foreignObject width="100" height="100">
            <div xmlns="http://www.w3.org/1999/xhtml"><p>A paragraph in a picture.</p></div></foreignObject></svg>
            """
        let document = try MarkupParser.parseXHTML(Array(svg.utf8), documentName: "p.svg")
        #expect(DocumentFlattener.flatten(document.root).blocks.map(\.text) == ["A paragraph in a picture."])
    }

    static func texts(_ svg: String) throws -> [String] {
        let document = try MarkupParser.parseXHTML(Array(svg.utf8), documentName: "p.svg")
        return DocumentFlattener.flatten(document.root).blocks.map(\.text)
    }

    @Test func aSwitchReadsOnlyTheChildAReaderDraws() throws {
        let svg = """
            <svg xmlns="http://www.w3.org/2000/svg" xml:lang="fr"><switch>
            <text systemLanguage="de">Guten Tag alle zusammen</text>
            <text systemLanguage="en-GB,fr-CA">Bonjour à tous</text>
            <text>Hello everyone</text></switch></svg>
            """
        #expect(try Self.texts(svg) == ["Bonjour à tous"])
    }

    @Test func hiddenTextAndPageLabelsAreNotRead() throws {
        let svg = """
            <svg xmlns="http://www.w3.org/2000/svg"><title>Page 12</title>
            <text display="none">Hidden one</text><g visibility="hidden"><text>Hidden two</text></g>
            <text>Seen words.</text></svg>
            """
        #expect(try Self.texts(svg) == ["Seen words."])
    }

    @Test(arguments: [
        ("Page 12", true), ("p012", true), ("12", true), ("pg. 4", true), ("page_0012.svg", true),
        ("The Garden", false), ("Part 2", false), ("Pigs", false),
    ])
    func pageLabels(title: String, isLabel: Bool) {
        #expect(SVGText.isPageLabel(title) == isLabel)
    }

    @Test func inlineSVGInXHTMLIsStillSkipped() throws {
        let book = MemoryBook(
            spine: [
                (
                    "c.xhtml",
                    "<section id='c'><h1>One</h1><p>Words.</p><svg><title>Chart</title><text>0 10 20</text></svg></section>"
                )
            ],
            toc: [entry("One", "c.xhtml#c")])
        let section = try #require(try SectionIndexer.index(book).sections.first)
        let text = SpokenTextExtractor.plainText(try SpokenTextExtractor.blocks(for: section, in: book))
        #expect(!text.contains("Chart") && !text.contains("0 10 20"))
    }
}
