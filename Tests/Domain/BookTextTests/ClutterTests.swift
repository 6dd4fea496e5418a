import Contracts
import EPUBReader
import Markup
import Testing

@testable import BookText

/// Issue 31, point 5: what web-built and converted books put around their text, one structure a test.
@Suite struct ClutterTests {
    /// The spoken text (title left out) of a one-file book.
    func text(_ body: String, head: String = "", stylesheets: [String: String] = [:]) throws -> [String] {
        let book = MemoryBook(
            spine: [("c.xhtml", "<section id='c'><h1>The Title</h1>\(body)</section>")],
            toc: [entry("The Title", "c.xhtml#c")], head: head, stylesheets: stylesheets)
        let section = try #require(try SectionIndexer.index(book).sections.first)
        return try SpokenTextExtractor.blocks(for: section, in: book).dropFirst().map(\.text)
    }

    /// The spoken text of the middle chapter of a three-chapter book, each chapter a file.
    func middleChapter(_ body: String) throws -> [String] {
        let book = MemoryBook(
            spine: [
                ("c1.xhtml", "<h1>One</h1>\(prose(300))"), ("c2.xhtml", "<h1>Two</h1>\(body)"),
                ("c3.xhtml", "<h1>Three</h1>\(prose(300))"),
            ],
            toc: [entry("One", "c1.xhtml"), entry("Two", "c2.xhtml"), entry("Three", "c3.xhtml")])
        let sections = try SectionIndexer.index(book).sections
        let section = try #require(sections.first { $0.title == "Two" })
        return try SpokenTextExtractor.blocks(for: section, in: book).dropFirst().map(\.text)
    }

    static let sentence = "The keeper climbed the stair at dusk and lit the great lamp for the ships."

    // MARK: pictographs and web buttons

    @Test(arguments: [
        "<a href='https://example.org/book/chapter-1/#audio-1'>🔊 Listen</a>",
        "<a href='audio/poem.mp3'>▶️ Play</a>",
    ])
    func aPictographLinkOutOfTheBookOrToMediaIsNotRead(link: String) throws {
        #expect(try text("<p>\(Self.sentence) \(link)</p>") == [Self.sentence])
    }

    @Test func aPictographLinkIntoTheBookIsRead() throws {
        #expect(try text("<p>\(Self.sentence) <a href='#c'>⭐ Top</a></p>") == [Self.sentence + " Top"])
    }

    // MARK: media left out, addresses

    @Test func aBlockStandingForMediaLeftOutIsNotRead() throws {
        let url = "https://example.org/book/chapter/the-keeper/#audio-123-1"
        let body = """
            <p>\(Self.sentence)</p>
            <div class="textbox"><span class="icon"></span><p>An audio element has been excluded from this version
            of the text. You can listen to it online here: <a href="\(url)">\(url)</a></p></div>
            """
        #expect(try text(body) == [Self.sentence])
    }

    @Test func aLinkToAWebPageWithoutAPlaceInItIsReadAsItsHost() throws {
        let url = "https://www.example.org/book/the-keeper/"
        let body = "<p>You can read more online here: <a href=\"\(url)\">\(url)</a></p>"
        #expect(try text(body) == ["You can read more online here: example.org"])
    }

    @Test(arguments: [
        ("See https://www.example.org/a/b.html?x=1 for more.", "See example.org for more."),
        ("(http://lighthouses.example.net/list), then", "(lighthouses.example.net), then"),
        ("Mail user@example.org or visit www.example.org.", "Mail user@example.org or visit example.org."),
        ("https://example.org:8080/x", "example.org"),
        ("No address here: a.b and http:// alone.", "No address here: a.b and http:// alone."),
    ])
    func addressesAreReadAsTheirHost(input: String, expected: String) {
        #expect(WebLinks.readingAddresses(input) == expected)
    }

    // MARK: image descriptions

    @Test func anImageDescriptionItsFigureCaptionSaysIsReadOnce() throws {
        let body = """
            <figure><img src="l.png" alt="A lighthouse at dusk"/>
            <figcaption>Figure 2. A lighthouse at dusk.</figcaption></figure><p>\(Self.sentence)</p>
            """
        #expect(try text(body) == ["Figure 2. A lighthouse at dusk.", Self.sentence])
    }

    @Test func anImageDescriptionTheCaptionBesideItSaysIsReadOnce() throws {
        let body = """
            <p class="illus"><img src="l.png" alt="A lighthouse at dusk"/></p>
            <p class="caption">A lighthouse at dusk, from the harbour wall.</p><p>\(Self.sentence)</p>
            """
        #expect(try text(body) == ["A lighthouse at dusk, from the harbour wall.", Self.sentence])
    }

    @Test func anImageDescriptionTheCaptionDoesNotSayIsRead() throws {
        let body = """
            <figure><img src="l.png" alt="A lighthouse at dusk"/><figcaption>Figure 2.</figcaption></figure>
            """
        #expect(try text(body) == ["Image: A lighthouse at dusk", "Figure 2."])
    }

    // MARK: navigation

    @Test func aBarOfLinksToTheNextAndPreviousPagesIsNotRead() throws {
        let body = "\(prose(200))<p><a href='c1.xhtml'>Previous</a> | <a href='c3.xhtml'>Next</a></p>"
        #expect(try middleChapter(body).count == 1)
    }

    @Test func aBarOfLinksShowingADirectionIsNotRead() throws {
        let body = """
            <p><a href="https://example.org/book/one/">← Previous: One</a></p>\(prose(200))
            <p><a href="https://example.org/book/three/">Next: Three →</a></p>
            """
        #expect(try middleChapter(body).count == 1)
    }

    @Test func aListOfLinksAfterTheIntroductionIsRead() throws {
        // A chapter's outline: its introduction, then a link to each section, the first the next page.
        let body = """
            \(prose(50))<ul><li><a href="c3.xhtml">The stair</a></li><li><a href="c3.xhtml#b">The lamp</a></li>
            <li><a href="c3.xhtml#c">The ships</a></li></ul>\(prose(200))
            """
        #expect(try middleChapter(body).dropFirst().first == "The stair")
    }

    @Test func aTitleLinkingToAPlaceInThePageBeforeIsRead() throws {
        // A title written as a paragraph that links back to its entry in the contents before it.
        let body = "<p><a href='c1.xhtml#entry-2'>The Lamp Room</a></p>\(prose(200))"
        #expect(try middleChapter(body).first == "The Lamp Room")
    }

    @Test func aLinkToTheNextChapterInASentenceIsRead() throws {
        let body = "\(prose(200))<p>Read on in <a href='c3.xhtml'>the next chapter</a>.</p>"
        #expect(try middleChapter(body).last == "Read on in the next chapter.")
    }

    @Test func aChaptersOwnContentsListIsNotRead() throws {
        let body = """
            <ul><li><a href="#s1">The stair</a></li><li><a href="#s2">The lamp</a></li>
            <li><a href="#s3">The ships</a></li></ul>
            <p id="s1">\(Self.sentence)</p>\(prose(100))<p id="s2">\(Self.sentence)</p>\(prose(100))
            """
        let spoken = try text(body)
        #expect(spoken.first == Self.sentence)
        #expect(spoken.count == 4)
    }

    @Test func aListOfLinksDeepInAChapterIsRead() throws {
        let body = """
            \(prose(30))<ul><li><a href="#s1">The stair</a></li><li><a href="#s2">The lamp</a></li>
            <li><a href="#s3">The ships</a></li></ul>
            """
        #expect(try text(body).suffix(3) == ["The stair", "The lamp", "The ships"])
    }

    // MARK: drop capitals

    @Test(arguments: [
        "<div class='dropcap'>T</div><p>HE keeper climbed the stair at dusk and lit the lamp.</p>",
        "<p class='dropcap'>T</p><p>he keeper climbed the stair at dusk and lit the lamp.</p>",
        "<div class='dropcap'><img src='t.png' alt='T'/></div><p>HE keeper climbed the stair at dusk and lit the lamp.</p>",
        "<p><img src='th.png' alt='TH'/>E keeper climbed the stair at dusk and lit the lamp.</p>",
    ])
    func aDropCapitalJoinsItsWord(body: String) throws {
        let spoken = try text(body)
        #expect(spoken.count == 1)
        #expect(spoken.first?.lowercased() == "the keeper climbed the stair at dusk and lit the lamp.")
    }

    @Test func aFloatingNumeralLetterJoinsItsWord() throws {
        let body = "<p style='float: left'>I</p><p>T WAS dusk when the keeper climbed the stair to the lamp.</p>"
        #expect(try text(body) == ["IT WAS dusk when the keeper climbed the stair to the lamp."])
    }

    @Test(arguments: [
        // A title page's lines, a section number over a paragraph that opens in capitals, a capitalised word.
        ("<p>A</p><p>NOVEL</p>", ["A", "NOVEL"]),
        (
            "<p>I</p><p>IT WAS dusk when the keeper climbed the stair to the lamp.</p>",
            ["I", "IT WAS dusk when the keeper climbed the stair to the lamp."]
        ),
        (
            "<p>A</p><p>Keeper climbed the stair at dusk and lit the lamp for them.</p>",
            ["A", "Keeper climbed the stair at dusk and lit the lamp for them."]
        ),
    ])
    func aCapitalThatBeginsNoWordStaysApart(body: String, expected: [String]) throws {
        #expect(try text(body) == expected)
    }

    // MARK: notes

    @Test(arguments: ["note 1", "n. 1", "Anm. 1", "Note 12"])
    func aNoteLinkReadingItsMarkersNameIsDropped(label: String) throws {
        let body = """
            <p>It was revised in the second edition.<a href="#n1">\(label)</a> Then it sold.</p>
            <aside id="n1"><p>The note.</p></aside>
            """
        #expect(try text(body) == ["It was revised in the second edition. Then it sold."])
    }

    @Test(arguments: [
        "<a href='c.xhtml#r3'>[←3]</a> A remark on the stair.",
        "[<a href='c.xhtml#r3'>←3</a>] A remark on the stair.",
        "<a href='c.xhtml#r3'>↑</a> A remark on the stair.",
    ])
    func aBackLinkDrawnAsAnArrowIsNotRead(paragraph: String) throws {
        #expect(try text("<p>\(paragraph)</p>") == ["A remark on the stair."])
    }
}
