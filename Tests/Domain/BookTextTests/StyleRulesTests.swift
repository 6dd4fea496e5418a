import EPUBReader
import Testing

@testable import BookText

/// Issue 31, point 7: elements a book's own CSS hides are not read.
@Suite struct StyleRulesTests {
    func hides(_ css: String, _ name: String, id: String? = nil, classes: [String] = []) -> Bool {
        StyleRules(css: css).decide(element: name, id: id, classes: classes).hidden
    }

    @Test func aClassAnIdOrAnElementWithAClassHides() {
        #expect(hides(".gone { display: none }", "span", classes: ["gone"]))
        #expect(hides("p.gone{display:none;}", "p", classes: ["gone", "x"]))
        #expect(!hides("p.gone{display:none;}", "span", classes: ["gone"]))
        #expect(hides("#guide { display : none }", "div", id: "guide"))
        #expect(hides(".a.b { visibility: hidden }", "div", classes: ["b", "a"]))
        #expect(!hides(".a.b { visibility: hidden }", "div", classes: ["a"]))
        #expect(hides("h1, .gone, p { display: none }", "div", classes: ["gone"]))
    }

    @Test func selectorsBeyondTheSimpleOnesAreLeftOut() {
        for css in [
            "div .gone { display: none }", "div > .gone { display: none }", ".gone:first-child { display: none }",
            "[epub|type~='pagebreak'] { display: none }", "span { display: none }", "* { display: none }",
            ".gone::before { display: none }",
        ] {
            #expect(!hides(css, "span", classes: ["gone"]), "\(css)")
        }
    }

    @Test func theCascadeDecides() {
        #expect(!hides(".gone { display: none } .gone { display: block }", "p", classes: ["gone"]))
        #expect(hides(".gone { display: none !important } .gone { display: block }", "p", classes: ["gone"]))
        #expect(!hides(".gone { display: none } p.gone { display: block }", "p", classes: ["gone"]))
        #expect(hides(".gone { display: none } .shown { display: block }", "p", classes: ["gone"]))
        #expect(!hides(".a { display: none } .b { display: block }", "p", classes: ["b", "a"]))
        #expect(hides(".b { display: block } .a { display: none }", "p", classes: ["b", "a"]))
    }

    @Test func mediaForPrintOrUnderConditionsDoesNotApply() {
        #expect(!hides("@media print { .gone { display: none } }", "p", classes: ["gone"]))
        #expect(!hides("@media screen and (max-width: 30em) { .gone { display: none } }", "p", classes: ["gone"]))
        #expect(!hides("@media amzn-kf8 { .gone { display: none } }", "p", classes: ["gone"]))
        #expect(hides("@media screen { .gone { display: none } }", "p", classes: ["gone"]))
        #expect(hides("@media only screen, print { .gone { display: none } }", "p", classes: ["gone"]))
        #expect(!hides("@supports (display: grid) { .gone { display: none } }", "p", classes: ["gone"]))
    }

    @Test func commentsStringsAndOtherAtRulesAreSkipped() {
        let css = """
            @charset "utf-8";
            @import url("other.css");
            /* .gone { display: none } */
            @font-face { font-family: "A}B"; src: url("a.otf"); }
            .quote::before { content: "{"; }
            .gone { /* hidden */ display: /* really */ none; color: red }
            """
        #expect(hides(css, "p", classes: ["gone"]))
        #expect(!hides(css, "p", classes: ["quote"]))
        #expect(!hides("/* .gone { display: none } */", "p", classes: ["gone"]))
    }

    @Test func floatsAreFound() {
        #expect(StyleRules(css: "span.dc { float: left }").decide(element: "span", id: nil, classes: ["dc"]).floated)
        #expect(!StyleRules(css: "span.dc { float: none }").decide(element: "span", id: nil, classes: ["dc"]).floated)
    }

    @Test func brokenOrHugeStylesheetsAreBounded() {
        #expect(StyleRules(css: ".gone { display: none").isEmpty == false)
        #expect(StyleRules(css: "}}}{{{ .a { display: none }").count <= 1)
        let many = (0..<(StyleRules.maxRules + 100)).map { ".a\($0) { display: none }" }.joined()
        #expect(StyleRules(css: many).count == StyleRules.maxRules)
        let repeated = String(repeating: ".a { display: none } .a { display: block } ", count: 1000)
        #expect(StyleRules(css: repeated).count == 1)
        #expect(!hides(repeated, "p", classes: ["a"]))
        let crowded = (0..<1000).map { ".a.b\($0) { display: none }" }.joined()
        #expect(StyleRules(css: crowded).count == StyleRules.maxRulesPerName)
        let deep = String(repeating: "@media screen { ", count: 50) + ".gone { display: none }"
        #expect(!hides(deep, "p", classes: ["gone"]))
    }

    // MARK: in a book

    static let css = ".gone { display: none } .dc { float: left }"
    static let link = "<link rel='stylesheet' type='text/css' href='css/book.css'/>"
    static let sentence = "The keeper climbed the stair at dusk and lit the great lamp for the ships."

    func text(_ body: String, head: String = Self.link, css: String = Self.css) throws -> [String] {
        let book = MemoryBook(
            spine: [("text/c.xhtml", "<section id='c'><h1>The Title</h1>\(body)</section>")],
            toc: [entry("The Title", "text/c.xhtml#c")],
            head: head.replacingOccurrences(of: "'css/", with: "'../css/"), stylesheets: ["css/book.css": css])
        let section = try #require(try SectionIndexer.index(book).sections.first)
        return try SpokenTextExtractor.blocks(for: section, in: book).dropFirst().map(\.text)
    }

    @Test func anElementTheBooksStylesheetHidesIsNotRead() throws {
        let body = "<p>\(Self.sentence)<span class='gone'> Answer: the lamp.</span></p><p class='gone'>Hidden.</p>"
        #expect(try text(body) == [Self.sentence])
    }

    @Test func aStyleElementOfTheDocumentHidesToo() throws {
        let body = "<p>\(Self.sentence)</p><p class='gone'>Hidden.</p>"
        #expect(try text(body, head: "<style>.gone { display: none }</style>", css: "") == [Self.sentence])
    }

    @Test func anAlternateOrPrintStylesheetHidesNothing() throws {
        let body = "<p>\(Self.sentence)</p><p class='gone'>Shown.</p>"
        let alternate = "<link rel='alternate stylesheet' title='B' href='css/book.css'/>"
        let print = "<link rel='stylesheet' media='print' href='css/book.css'/>"
        #expect(try text(body, head: alternate) == [Self.sentence, "Shown."])
        #expect(try text(body, head: print) == [Self.sentence, "Shown."])
    }

    @Test func anInlineDisplayShowsWhatAClassHid() throws {
        let body = "<p>\(Self.sentence)</p><p class='gone' style='display: block'>Shown.</p>"
        #expect(try text(body) == [Self.sentence, "Shown."])
    }

    @Test func aClassThatWouldHideMostOfTheTextHidesNothing() throws {
        let body = "<div class='gone'>\(prose(300))</div><p>\(Self.sentence)</p>"
        #expect(try text(body).count == 2)
    }

    @Test func aContentsEntryPointingIntoHiddenTextStartsAfterIt() throws {
        let book = MemoryBook(
            spine: [
                (
                    "text/c.xhtml",
                    "<h1 id='one'>One</h1>\(prose(300))<div class='gone'><p id='two'>Hidden.</p></div>"
                        + "<p>\(Self.sentence)</p>\(prose(300))"
                )
            ],
            toc: [entry("One", "text/c.xhtml#one"), entry("Two", "text/c.xhtml#two")],
            head: Self.link.replacingOccurrences(of: "'css/", with: "'../css/"),
            stylesheets: ["css/book.css": Self.css])
        let sections = try SectionIndexer.index(book).sections
        let two = try #require(sections.first { $0.title == "Two" })
        let spoken = try SpokenTextExtractor.blocks(for: two, in: book).dropFirst().map(\.text)
        #expect(spoken.first == Self.sentence)
    }

    @Test func aCapitalFloatedByTheStylesheetJoinsItsWord() throws {
        let body = "<p class='dc'>I</p><p>T WAS dusk when the keeper climbed the stair to the lamp.</p>"
        #expect(try text(body) == ["IT WAS dusk when the keeper climbed the stair to the lamp."])
    }
}
