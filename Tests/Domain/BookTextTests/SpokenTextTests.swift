import Contracts
import EPUBReader
import Markup
import Testing

@testable import BookText

@Suite struct SpokenTextTests {
    /// Indexes a one-file book and returns the spoken blocks of its only TOC section.
    func spoken(
        _ body: String, options: SpokenTextOptions = SpokenTextOptions(), language: String = "en",
        documentLanguage: String? = "en"
    ) throws -> [SpokenBlock] {
        let book = MemoryBook(
            spine: [("c.xhtml", "<section id='c'><h1>The Title</h1>\(body)</section>")],
            toc: [entry("The Title", "c.xhtml#c")], language: language, documentLanguage: documentLanguage)
        let section = try #require(try SectionIndexer.index(book).sections.first)
        return try SpokenTextExtractor.blocks(for: section, in: book, options: options)
    }

    func text(_ body: String, options: SpokenTextOptions = SpokenTextOptions()) throws -> [String] {
        try spoken(body, options: options).dropFirst().map(\.text)
    }

    @Test func titleComesFirstAndTheRepeatedHeadingIsDropped() throws {
        let blocks = try spoken("<p>Body.</p>")
        #expect(blocks.map(\.kind) == [.title, .paragraph])
        #expect(blocks.first?.text == "The Title")
    }

    @Test(arguments: [
        ("<p>Word<a epub:type='noteref' href='#n1'>1</a> here.</p>", "Word here."),
        ("<p>Word<a role='doc-noteref' href='#n1'>*</a> here.</p>", "Word here."),
        ("<p>Word<sup><a href='#n1'>12</a></sup> here.</p>", "Word here."),
        ("<p>Word<a href='notes.xhtml#n1'>[3]</a> here.</p>", "Word here."),
        ("<p>Word<a href='#n1'>[A]</a> here.</p>", "Word here."),
        ("<p>Page<span epub:type='pagebreak' id='p4' title='4'>4</span> turn.</p>", "Page turn."),
        ("<p>Seen<span aria-hidden='true'>HIDDEN</span> text.</p>", "Seen text."),
        ("<p>Seen<span hidden=''>HIDDEN</span> text.</p>", "Seen text."),
        ("<p>Keep<script>var x = 1;</script> this.</p>", "Keep this."),
        ("<p>The 1<sup>st</sup> of May.</p>", "The 1st of May."),
        ("<p>H<sub>2</sub>O and x<sup>2</sup>.</p>", "H2O and x2."),
        ("<p>See <a href='other.xhtml#sec'>the next chapter</a> for more.</p>", "See the next chapter for more."),
        ("<p>Clocks drift (Smith, 2020) a little.</p>", "Clocks drift a little."),
        ("<p>In 1984 (as always) it rained.</p>", "In 1984 (as always) it rained."),
        ("<p>ﬁne\u{00AD}ly “quoted” — dash…</p>", "finely \"quoted\" — dash..."),
    ])
    func unspokenMarkupIsRemoved(body: String, expected: String) throws {
        #expect(try text(body) == [expected])
    }

    /// Issue 12: superscript citation lists go; a link to a note keeps its words and loses its marker.
    @Test(arguments: [
        ("<p>Drums were common<sup>14,15</sup> here.</p>", "Drums were common here."),
        ("<p>Drums were common<sup>3–5</sup> here.</p>", "Drums were common here."),
        ("<p>Drums were common<sup>3-5, 9</sup> here.</p>", "Drums were common here."),
        ("<p>Drums were common<sup>[2, 7]</sup> here.</p>", "Drums were common here."),
        ("<p>Drums were common.<sup>7</sup> Then came pipes.</p>", "Drums were common. Then came pipes."),
        ("<p>Drums<sup><a href='#r14'>14</a>,<a href='#r15'>15</a></sup> here.</p>", "Drums here."),
        ("<p>Click on <a epub:type='noteref' href='#n1'>this link</a>.</p>", "Click on this link."),
        ("<p>Read <a class='noteref' href='#n1'>this link<sup>1</sup></a> now.</p>", "Read this link now."),
        ("<p>Read <a role='doc-noteref' href='#n1'>the note<span>[2]</span></a> now.</p>", "Read the note now."),
        ("<p>Read <a epub:type='noteref' href='#n1'>this link*</a> now.</p>", "Read this link now."),
        ("<p>A claim<a epub:type='noteref' href='#n1'>Note 3</a> stands.</p>", "A claim stands."),
        // Superscripts that are not citations.
        ("<p>So e = mc<sup>2</sup> holds.</p>", "So e = mc2 holds."),
        ("<p>An area of 3 m<sup>2</sup>, roughly.</p>", "An area of 3 m2, roughly."),
        ("<p>Then (a + b)<sup>2</sup> grows.</p>", "Then (a + b)2 grows."),
        ("<p>The 2<sup>nd</sup> of May.</p>", "The 2nd of May."),
    ])
    func citationSuperscriptsAndNoteLinks(body: String, expected: String) throws {
        #expect(try text(body) == [expected])
    }

    /// Every citation form of issue 12 in one section: all gone, the prose and look-alikes kept, no residue.
    @Test func everyCitationFormInOneSection() throws {
        let body = """
            <p>As Lindqvist (1998, pp. 12–14) argued, Okafor (2017) and Okafor (2015a) agreed (ibid.).</p>
            <p>It was cold (ibid., p. 4) and wet (Haddon, op. cit., p. 9) that year.</p>
            <p>It was new (a point disputed since; cf. Brandt 2003, 17) and rumoured (Varga, quoted in Keller 2010, 88).</p>
            <p>Founded early (Royal Society 1902, vol. iii, pp. ix–xi), drums were common [7, p. 22].</p>
            <p>Pipes too<sup>14,15</sup> and bells<sup>3–5</sup> were known.</p>
            <p>Wait for the interval [2, 9] seconds; y[5] holds the sixth, when clicking on
            <a epub:type='noteref' href='#n1'>this link</a>.</p>
            """
        let spokenText = try text(body).joined(separator: "\n")
        let expected = """
            As Lindqvist argued, Okafor and Okafor agreed.
            It was cold and wet that year.
            It was new (a point disputed since) and rumoured.
            Founded early, drums were common.
            Pipes too and bells were known.
            Wait for the interval [2, 9] seconds; y[5] holds the sixth, when clicking on this link.
            """
        #expect(spokenText == expected)
        for residue in ["(;", "; )", "()", "( )", "cf.", "ibid", "op. cit", "1998", "2017", "Brandt", "Keller", "14"] {
            #expect(!spokenText.contains(residue), "\(residue) is still spoken")
        }
    }

    @Test func aNoteLinkWithWordsStillLeadsToItsNote() throws {
        let body = """
            <p>Read on when clicking on <a epub:type='noteref' href='#fn1'>this link</a>.</p>
            <aside epub:type='footnote' id='fn1'><p>The evidence.</p></aside>
            """
        #expect(try text(body) == ["Read on when clicking on this link."])
        let atEnd = try spoken(body, options: SpokenTextOptions(notes: .end)).dropFirst()
        #expect(atEnd.map(\.text) == ["Read on when clicking on this link.", "The evidence."])
    }

    @Test func aNoteWhoseNumberLinksBackIsANoteWordStyle() throws {
        // Word's footnotes: the reference and the note's number name each other (`name`, HTML 4).
        let body = """
            <p>The tide turned.<a href="#_ftn1" name="_ftnref1"><span>[1]</span></a> Then it rained.</p>
            <div style="mso-element:footnote"><p class="MsoFootnoteText"><a href="#_ftnref1" name="_ftn1">\
            <span>[1]</span></a> A note on the tide tables.</p></div>
            """
        #expect(try text(body) == ["The tide turned. Then it rained."])
        let atEnd = try spoken(body, options: SpokenTextOptions(notes: .end)).dropFirst().map(\.text)
        #expect(atEnd.last?.contains("A note on the tide tables.") == true, "\(atEnd)")
    }

    @Test func aPageAnchorAnIndexLinksToStaysText() throws {
        // Gutenberg: a page anchor opens a paragraph, and the index's "12" links to it; it links
        // nowhere back, so the paragraph is no note.
        let body = """
            <p><a id="page_12"></a>The harbour froze that winter.</p>
            <p class="index">Harbour, <a href="#page_12">12</a></p>
            """
        #expect(try text(body).first == "The harbour froze that winter.")
    }

    @Test func blockKinds() throws {
        let body = """
            <h2>Inside</h2><p>Para.</p><ul><li>One</li><li>Two</li></ul><blockquote><p>Quoted.</p></blockquote>
            <hr/><p>* * *</p><figure><img src='a.png' alt='A lighthouse at dusk'/><figcaption>The light.</figcaption></figure>
            <img src='o.png' alt=''/>
            """
        let blocks = try spoken(body).dropFirst()
        #expect(
            blocks.map(\.kind) == [
                .heading, .paragraph, .listItem, .listItem, .blockQuote, .sceneBreak, .sceneBreak, .notice, .caption,
            ])
        #expect(blocks.map(\.text).contains("Image: A lighthouse at dusk"))
    }

    @Test func poemLinesAndStanzas() throws {
        let body = "<div epub:type='z3998:poem'><p>Line one<br/>Line two</p><p>Line three<br/>Line four</p></div>"
        let blocks = try spoken(body).dropFirst()
        #expect(blocks.map(\.kind) == [.poemLine, .poemLine, .stanzaBreak, .poemLine, .poemLine, .stanzaBreak])
        #expect(blocks.map(\.text).filter { !$0.isEmpty } == ["Line one", "Line two", "Line three", "Line four"])
    }

    @Test func languageOfPassages() throws {
        let blocks = try spoken("<p>Hello.</p><p xml:lang='fr'>Bonjour.</p>").dropFirst()
        #expect(blocks.map(\.language) == [nil, "fr"])
    }

    /// Issue 12: the title of a chapter in another language than the book's is in that language, so
    /// that it is normalised and spoken in it ("Kapitel IV" is German, not English with an ordinal).
    @Test(
        arguments: [
            // The heading the title stands for is German.
            ("<section xml:lang='de' id='c'><h1>Kapitel IV</h1><p>Der Wind wehte.</p></section>", "de"),
            // No heading: the section's first block decides.
            ("<section xml:lang='de' id='c'><p>Der Wind wehte.</p></section>", "de"),
            // Only the heading is German (a quoted title over an English text).
            ("<section id='c'><h1 xml:lang='de'>Kapitel IV</h1><p>The wind blew.</p></section>", "de"),
            // The book's language: no language of its own.
            ("<section id='c'><h1>Kapitel IV</h1><p>The wind blew.</p></section>", nil),
            ("<section id='c'><p>The wind blew.</p><p xml:lang='de'>Der Wind wehte.</p></section>", nil),
        ] as [(String, String?)])
    func titleIsInTheLanguageOfItsHeadingOrSection(body: String, expected: String?) throws {
        let book = MemoryBook(spine: [("c.xhtml", body)], toc: [entry("Kapitel IV", "c.xhtml#c")])
        let section = try #require(try SectionIndexer.index(book).sections.first)
        let blocks = try SpokenTextExtractor.blocks(for: section, in: book)
        #expect(blocks.first?.kind == .title)
        #expect(blocks.first?.text == "Kapitel IV")
        #expect(blocks.first?.language == expected)
        #expect(blocks.filter { $0.kind == .heading }.isEmpty, "the heading is read once, as the title")
    }

    static let omitted = """
        <table><tr><th>Rad</th><th>Zähne</th></tr><tr><td>Einer</td><td>10</td></tr></table>
        <pre><code>let x = 1</code></pre><math display='block'><mtable><mtr><mtd><mn>1</mn></mtd></mtr></mtable></math>
        <p><img src='a.png' alt='ein Leuchtturm'/></p>
        """

    @Test(
        arguments: [
            (
                "de", "de",
                ["Tabelle ausgelassen.", "Codebeispiel ausgelassen.", "Formel ausgelassen.", "Bild: ein Leuchtturm"]
            ),
            ("fr-CA", nil, ["Tableau omis.", "Exemple de code omis.", "Équation omise.", "Image : ein Leuchtturm"]),
            // A language without a wording of its own: English, as before.
            ("sa", nil, ["Table omitted.", "Code example omitted.", "Equation omitted.", "Image: ein Leuchtturm"]),
        ] as [(String, String?, [String])])
    func noticesAreWordedInTheBooksLanguage(language: String, documentLanguage: String?, expected: [String]) throws {
        let blocks = try spoken(Self.omitted, language: language, documentLanguage: documentLanguage)
        #expect(blocks.filter { $0.kind == .notice }.map(\.text) == expected)
    }

    @Test func aNoticeIsWordedInItsBlocksLanguageAndAChosenWordingIsKept() throws {
        // A German chapter of an English book: its notices are German, and read by the German voice.
        let blocks = try spoken(Self.omitted, language: "en", documentLanguage: "de")
        let notices = blocks.filter { $0.kind == .notice }
        #expect(notices.first?.text == "Tabelle ausgelassen.")
        #expect(notices.allSatisfy { $0.language == "de" })
        let chosen = SpokenTextOptions(tableNotice: "A table.", imagePrefix: "Picture of ")
        let custom = try spoken(Self.omitted, options: chosen, language: "de", documentLanguage: "de")
        #expect(custom.filter { $0.kind == .notice }.map(\.text).first == "A table.")
        #expect(custom.filter { $0.kind == .notice }.map(\.text).last == "Picture of ein Leuchtturm")
    }

    @Test func tablesCodeAndMathFollowTheOptions() throws {
        let body = """
            <table><tr><th>Wheel</th><th>Teeth</th></tr><tr><td>Units</td><td>10</td></tr></table>
            <pre><code>let x = 1</code></pre>
            <p>So <math alttext='x squared'><msup><mi>x</mi><mn>2</mn></msup></math> grows.</p>
            """
        #expect(try text(body) == ["Table omitted.", "Code example omitted.", "So x squared grows."])
        let read = SpokenTextOptions(tables: .read, code: .read)
        #expect(try text(body, options: read) == ["Wheel, Teeth", "Units, 10", "let x = 1", "So x squared grows."])
        let skip = SpokenTextOptions(tables: .skip, code: .skip)
        #expect(try text(body, options: skip) == ["So x squared grows."])
    }

    /// A listing that reads as language (pseudo-code, a command line) is read by default; markup and
    /// program text full of symbols are announced.
    @Test(arguments: [
        ("set source to font file\nwhile outer < 52 and not (source at EOF)\n    increment outer", true),
        ("pip install moto server", true),
        ("<p id=\"rubyp\">\n  <ruby>2H<sub>2</sub></ruby>\n</p>", false),
        ("for line in open(path):\n    words = line.split()\n    print(len(words))", false),
        ("set x", false),  // too few words to tell
    ])
    func codeThatReadsAsLanguageIsRead(listing: String, isRead: Bool) throws {
        let escaped = listing.replacingOccurrences(of: "<", with: "&lt;").replacingOccurrences(of: ">", with: "&gt;")
        let lines = try text("<pre><code>\(escaped)</code></pre>")
        if isRead {
            #expect(lines == listing.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) })
        } else {
            #expect(lines == ["Code example omitted."])
        }
    }

    /// MathML without alternative text: simple expressions read from the markup, others announced.
    @Test(arguments: [
        ("<msup><mi>x</mi><mn>2</mn></msup>", "So x squared grows."),
        ("<mrow><mi>a</mi><mo>+</mo><msup><mi>b</mi><mn>3</mn></msup></mrow>", "So a plus b cubed grows."),
        ("<mfrac><mn>1</mn><mi>n</mi></mfrac>", "So 1 over n grows."),
        ("<msqrt><mi>x</mi><mo>+</mo><mn>1</mn></msqrt>", "So the square root of x plus 1 grows."),
        ("<mroot><mi>y</mi><mn>3</mn></mroot>", "So the cube root of y grows."),
        (
            "<msub><mi>x</mi><mi>i</mi></msub><mo>=</mo><msup><mi>e</mi><mi>t</mi></msup>",
            "So x sub i equals e to the power t grows."
        ),
        ("<mi>α</mi><mo>∈</mo><mi>ℂ</mi>", "So α is in ℂ grows."),
        ("<msup><mi>S</mi><mrow><mo>-</mo><mn>1</mn></mrow></msup>", "So S inverse grows."),
        ("<mo>□</mo>", "So grows."),
        // Too much to follow by ear: a matrix, and a long sum.
        ("<mtable><mtr><mtd><mn>1</mn></mtd></mtr></mtable>", "So equation grows."),
        (String(repeating: "<mi>a</mi><mo>+</mo>", count: 13) + "<mi>b</mi>", "So equation grows."),
    ])
    func mathWithoutAltTextIsReadFromItsMarkup(math: String, expected: String) throws {
        #expect(try text("<p>So <math>\(math)</math> grows.</p>") == [expected])
    }

    @Test func mathIsReadInTheBooksLanguageWhereTheTextDeclaresNone() throws {
        let body = """
            <p>Soit <math><msup><mi>x</mi><mn>2</mn></msup></math> ici.</p>
            <p>Et <math><mtable><mtr><mtd><mn>1</mn></mtd></mtr></mtable></math> là.</p>
            """
        let french = try spoken(body, language: "fr", documentLanguage: nil).dropFirst().map(\.text)
        #expect(french == ["Soit x au carré ici.", "Et équation là."])
        // A document that declares its language is read in it, whatever the book says.
        let declared = try spoken(body, language: "fr", documentLanguage: "de").dropFirst().map(\.text)
        #expect(declared == ["Soit x Quadrat ici.", "Et Gleichung là."])
    }

    @Test func displayMathWithoutAltTextIsReadOrAnnounced() throws {
        let simple = "<math display='block'><mfrac><mi>a</mi><mi>b</mi></mfrac></math>"
        #expect(try text(simple) == ["a over b"])
        let matrix = "<math display='block'><mtable><mtr><mtd><mn>1</mn></mtd></mtr></mtable></math>"
        #expect(try text(matrix) == ["Equation omitted."])
    }

    @Test func mathIsReadInTheLanguageOfItsBlock() throws {
        let math = "<math><msup><mi>x</mi><mn>2</mn></msup><mo>=</mo><mfrac><mn>1</mn><mn>4</mn></mfrac></math>"
        #expect(try text("<p xml:lang='fr'>Soit \(math).</p>") == ["Soit x au carré égale 1 sur 4."])
        #expect(try text("<p xml:lang='de'>Sei \(math).</p>") == ["Sei x Quadrat gleich 1 durch 4."])
    }

    /// A content document without a language of its own follows the book's only when its text agrees.
    @Test func aDocumentWithoutALanguagePlainlyInAnotherIsReadInThat() throws {
        let german =
            "Der Wärter stieg in der Dämmerung die schmale Treppe hinauf und zündete die große Lampe an. "
            + "Der Wind wehte über das Meer, und die Möwen schrien laut über dem alten Leuchtturm. "
            + "Im Winter war es sehr kalt, aber er hat das Licht nie ausgehen lassen, und die Schiffe fuhren sicher."
        let english = "The keeper climbed the narrow stair at dusk and lit the great lamp for the ships."
        let book = MemoryBook(
            spine: [
                ("one.xhtml", "<h1>One</h1><p>\(english) \(english) \(english)</p>"),
                ("zwei.xhtml", "<h1>Kapitel IV</h1><p>\(german)</p><p>\(german)</p>"),
            ],
            toc: [entry("One", "one.xhtml"), entry("Kapitel IV", "zwei.xhtml")], language: "en",
            documentLanguage: nil)
        let sections = try SectionIndexer.index(book).sections
        let first = try SpokenTextExtractor.blocks(for: sections[0], in: book)
        let second = try SpokenTextExtractor.blocks(for: sections[1], in: book)
        #expect(first.allSatisfy { $0.language == nil }, "English text in an English book: the book's voice")
        #expect(second.allSatisfy { $0.language == "de" }, "\(second.map(\.language))")
        // Too short to tell: the book's language.
        #expect(
            SpokenTextExtractor.inferredLanguage(
                of: DocumentFlattener.flatten(
                    try MarkupParser.parseXHTML(
                        Array("<html xmlns='http://www.w3.org/1999/xhtml'><body><p>Guten Tag.</p></body></html>".utf8),
                        documentName: "x"
                    ).root,
                    documentPath: "x"), bookLanguage: "en") == nil)
    }

    @Test func placeholderAltTextIsNeverSpoken() throws {
        let body = """
            <p>Form the matrix <math alttext='Alternative text not available'><mi>A</mi></math> and reduce it.</p>
            <p><img src='a.png' alt='No alt text'/></p><p><img src='b.png' alt='A lighthouse at night'/></p>
            """
        let spoken = try text(body)
        #expect(!spoken.joined(separator: " ").contains("not available"))
        #expect(!spoken.joined(separator: " ").contains("No alt text"))
        #expect(spoken.contains("Image: A lighthouse at night"))
        // An exporter's numbered names for its images say nothing either; a described number does.
        let numbered = """
            <p><img src='a.png' alt='picture0'/></p><p><img src='b.png' alt='img_003'/></p>
            <p><img src='c.png' alt='Figure 12'/></p><p><img src='d.png' alt='Rosa Luxemburg 1915'/></p>
            """
        #expect(try text(numbered) == ["Image: Rosa Luxemburg 1915"])
        #expect(spoken.first?.contains("Form the matrix A and reduce it") == true)
    }

    /// A title set as a picture is not read twice: its description after the title says the title again.
    @Test func anEPUBSwitchIsReadOnceAsAReadingSystemWithoutTheCasesMarkupDrawsIt() throws {
        let chem = "<chem xmlns='http://www.xml-cml.org/schema'><caption>hydrogen</caption></chem>"
        let switched = { (children: String) in
            "<p>Before.</p><epub:switch>\(children)</epub:switch><p>After.</p>"
        }
        let chemCase = "<epub:case required-namespace='http://www.xml-cml.org/schema'>\(chem)</epub:case>"
        #expect(
            try text(switched(chemCase + "<epub:default><p>Two hydrogen.</p></epub:default>"))
                == ["Before.", "Two hydrogen.", "After."])
        // Without a default (invalid, but met), the first case alone.
        #expect(try text(switched(chemCase + chemCase)) == ["Before.", "hydrogen", "After."])
    }

    @Test func anImageThatRepeatsTheTitleIsNotReadAfterIt() throws {
        #expect(try text("<p><img src='t.png' alt='The Title'/></p><p>Body.</p>") == ["Body."])
        #expect(try text("<h2><img src='t.png' alt='the title'/></h2><p>Body.</p>") == ["Body."])
        // Anywhere else, or describing something else, the image is read.
        #expect(
            try text("<p>Body.</p><p><img src='t.png' alt='The Title'/></p>") == ["Body.", "Image: The Title"])
        #expect(
            try text("<p><img src='l.png' alt='A lighthouse'/></p><p>Body.</p>") == ["Image: A lighthouse", "Body."])
    }

    @Test(arguments: [
        ("Stone Fence", "stone fence", true), ("Stone Fence", "i stone fence", true),
        ("A", "a late harvest", false), ("Fence", "stone fence", false), ("Stone", "ston", false),
        ("", "stone fence", false),
    ])
    func imageDescriptionRepeatingTheTitle(alt: String, foldedTitle: String, expected: Bool) {
        #expect(SpokenTextExtractor.repeatsTitle(alt, foldedTitle) == expected)
    }

    @Test(arguments: [
        ("Alternative text not available", true), ("no alt text", true), ("Image description unavailable", true),
        ("A map of the missing lands", false), ("x squared", false), ("The equation of motion", false),
        ("Walter is missing", false), ("No text on this page", true),
    ])
    func placeholderAlt(alt: String, expected: Bool) {
        #expect(AltText.isPlaceholderAlt(alt) == expected)
    }

    @Test func aTableOfWordsIsReadRowByRowAndATableOfFiguresAnnounced() throws {
        let words =
            "<table><tr><th>Term</th><th>Meaning</th></tr><tr><td>Spine</td><td>the reading order</td></tr></table>"
        #expect(try text(words) == ["Term, Meaning", "Spine, the reading order"])
        let figures =
            "<table><tr><th>Year</th><th>Count</th></tr><tr><td>1901</td><td>12</td></tr><tr><td>1902</td><td>14</td></tr></table>"
        #expect(try text(figures) == ["Table omitted."])
        // Names and their years: more words than figures, whatever the header says.
        let names =
            "<table><tr><th>Governor</th><th>Term</th></tr><tr><td>James Edward Oglethorpe</td><td>1732-1743</td></tr>"
            + "<tr><td>William Stephens</td><td>1743-1751</td></tr></table>"
        #expect(
            try text(names) == ["Governor, Term", "James Edward Oglethorpe, 1732-1743", "William Stephens, 1743-1751"])
        // A label and its figures: the header's words do not make it a table of words.
        let counts =
            "<table><tr><th>Wheel name</th><th>Teeth count</th><th>Turns per day</th></tr>"
            + "<tr><td>Units</td><td>10</td><td>240</td></tr><tr><td>Tens</td><td>10</td><td>24</td></tr></table>"
        #expect(try text(counts) == ["Table omitted."])
    }

    @Test func aNoteNoLinkCanReachIsAnAdmonitionReadInPlace() throws {
        // Technical books set "Note" boxes off in the text with epub:type="note" and no id.
        let body = """
            <p>Open the case.</p>
            <div epub:type='note'><p>Keep the lid closed while it runs.</p></div>
            <p>A claim<a epub:type='noteref' href='#n1'>1</a> stands.</p>
            <aside epub:type='note' id='n1'><p>1. The evidence.</p></aside>
            """
        #expect(try text(body) == ["Open the case.", "Keep the lid closed while it runs.", "A claim stands."])
    }

    @Test func footnotesAreSkippedOrReadAtTheEnd() throws {
        let body = """
            <p>A claim<a epub:type='noteref' href='#fn1'>1</a> stands.</p>
            <aside epub:type='footnote' id='fn1'><p>1. The evidence.</p></aside>
            <p>More text.</p>
            """
        #expect(try text(body) == ["A claim stands.", "More text."])
        let atEnd = try spoken(body, options: SpokenTextOptions(notes: .end)).dropFirst()
        #expect(atEnd.map(\.kind) == [.paragraph, .paragraph, .note])
        #expect(atEnd.last?.text == "The evidence.")
    }

    @Test func titleWithoutARepeatingHeadingHasAPositionOfItsOwn() throws {
        // The TOC label is not the heading, so the title is spoken as well as the heading.
        let book = MemoryBook(
            spine: [("c.xhtml", "<section id='c'><h1>A Heading</h1><p>Body one.</p></section>")],
            toc: [entry("Another Title", "c.xhtml")])
        let section = try #require(try SectionIndexer.index(book).sections.first)
        let blocks = try SpokenTextExtractor.blocks(for: section, in: book)
        #expect(blocks.map(\.kind) == [.title, .heading, .paragraph])
        #expect(blocks[0].source == SourcePosition(spineIndex: 0, blockIndex: -1))
        #expect(blocks[1].source == SourcePosition(spineIndex: 0, blockIndex: 0))
        #expect(Set(blocks.map(\.source)).count == blocks.count)
    }

    /// A TOC label that is a whole paragraph is cut short as the title: the paragraph, read in full,
    /// is not preceded by its own opening.
    @Test func aTitleCutFromTheOpeningParagraphIsNotAnnouncedBeforeIt() throws {
        let paragraph =
            Array(repeating: "There are several editions of this book listed here", count: 5)
            .joined(separator: ", ") + "."
        let book = MemoryBook(
            spine: [("c.xhtml", "<p>\(paragraph)</p>\(prose(40))")], toc: [entry(paragraph, "c.xhtml")])
        let section = try #require(try SectionIndexer.index(book).sections.first)
        #expect(section.title.hasSuffix("…"))
        let blocks = try SpokenTextExtractor.blocks(for: section, in: book)
        #expect(blocks.map(\.kind) == [.paragraph, .paragraph])
        #expect(blocks.first?.text == paragraph)
    }

    /// An editor's note, then the story's own heading, under a TOC label that names both: the
    /// heading says the title again and is not read after the note.
    @Test func aHeadingAFewLinesInThatRepeatsTheTitleIsNotReadAgain() throws {
        let book = MemoryBook(
            spine: [
                ("b.xhtml", "<h2>A Story Before</h2>" + prose(500)),
                (
                    "c.xhtml",
                    "<h3>204</h3><p>An editor introduces the story in a few words.</p>"
                        + "<h2>The King of the Golden River</h2>"
                        + prose(40) + "<h3>The Golden River</h3>" + prose(500) + "<h2>The King of the Golden River</h2>"
                ),
                ("d.xhtml", "<h2>Another Story</h2>" + prose(500)),
            ],
            toc: [
                entry("203 A Story Before", "b.xhtml"), entry("204 The King of the Golden River", "c.xhtml"),
                entry("205 Another Story", "d.xhtml"),
            ])
        let section = try #require(try SectionIndexer.index(book).sections.dropFirst().first)
        let texts = try SpokenTextExtractor.blocks(for: section, in: book).map(\.text)
        #expect(texts.filter { $0 == "The King of the Golden River" }.count == 1, "the late one is kept")
        #expect(texts.contains("The Golden River"), "a part of the title is a heading of its own")
        #expect(texts[1] == "An editor introduces the story in a few words.")
    }

    @Test func titleTakesThePositionOfTheHeadingItRepeats() throws {
        let blocks = try spoken("<p>Body.</p>")
        #expect(blocks.map(\.kind) == [.title, .paragraph])
        #expect(blocks[0].source == SourcePosition(spineIndex: 0, blockIndex: 0))
        #expect(blocks[1].source == SourcePosition(spineIndex: 0, blockIndex: 1))
    }

    @Test func chunkIdsOfEverySectionAreUnique() throws {
        // Sections that start mid-file, with and without headings that repeat their titles.
        let body = """
            <p id='a'>Opening words of the file.</p><h2 id='b'>Second</h2><p>Text two. More text.</p>
            <p id='c'>Third starts without a heading. It has two sentences.</p>
            """
        let book = MemoryBook(
            spine: [("c.xhtml", body), ("d.xhtml", "<p>Only a paragraph here.</p>")],
            toc: [
                entry("First", "c.xhtml#a"), entry("Second", "c.xhtml#b"), entry("Third", "c.xhtml#c"),
                entry("Fourth", "d.xhtml"),
            ])
        let sections = try SectionIndexer.index(book).sections
        #expect(sections.count == 4)
        let chunker = Chunker(options: ChunkerOptions())
        for section in sections {
            let blocks = try SpokenTextExtractor.blocks(for: section, in: book)
            let ids = chunker.chunks(section: section.number, blocks: blocks).map(\.id)
            #expect(!ids.isEmpty)
            #expect(Set(ids).count == ids.count, "duplicate chunk ids in section \(section.number): \(ids)")
        }
    }

    @Test func plainTextJoinsBlocks() {
        let at = SourcePosition(spineIndex: 0, blockIndex: 0)
        let blocks = [
            SpokenBlock(kind: .title, text: "T", source: at), SpokenBlock(kind: .paragraph, text: "P.", source: at),
            SpokenBlock(kind: .sceneBreak, text: "", source: at), SpokenBlock(kind: .poemLine, text: "a", source: at),
            SpokenBlock(kind: .poemLine, text: "b", source: at),
        ]
        #expect(SpokenTextExtractor.plainText(blocks) == "T\n\nP.\n\n* * *\n\na\nb\n")
    }
}
