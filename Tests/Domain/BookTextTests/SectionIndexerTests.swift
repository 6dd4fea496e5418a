import BookText
import EPUBReader
import Foundation
import Testing

@Suite struct SectionIndexerTests {
    @Test func twoChaptersInOneFileAndOneChapterOverTwoFiles() throws {
        let book = MemoryBook(
            spine: [
                (
                    "a.xhtml",
                    "<section id='c1'><h1>One</h1>\(prose(50))</section><section id='c2'><h1>Two</h1>\(prose(40))</section>"
                ),
                ("b.xhtml", "<h1>Three</h1>\(prose(30))"),
                ("b2.xhtml", prose(20, "more")),
            ],
            toc: [entry("One", "a.xhtml#c1"), entry("Two", "a.xhtml#c2"), entry("Three", "b.xhtml")])
        let index = try SectionIndexer.index(book)
        #expect(index.sections.map(\.title) == ["One", "Two", "Three"])
        #expect(index.sections.map(\.spine) == [["a.xhtml"], ["a.xhtml"], ["b.xhtml", "b2.xhtml"]])
        #expect(index.sections.map(\.words) == [51, 41, 51])
        #expect(index.sections.allSatisfy { $0.included })
        #expect(index.sections[1].href.description == "a.xhtml#c2")
    }

    @Test func textOutsideTheTOCIsNeverLost() throws {
        let book = MemoryBook(
            spine: [
                ("cover.xhtml", "<img src='c.png' alt='Cover'/>", false),
                ("title.xhtml", "<h1>A Test Book</h1><p>by Someone</p>", true),
                ("ch1.xhtml", "<h1>Chapter 1</h1>\(prose(300))", true),
                ("ch2.xhtml", "<h1>Chapter 2</h1>\(prose(300))", true),
                (
                    "copy.xhtml",
                    "<p>Copyright © 2020 Someone. All rights reserved.</p><p>ISBN 978-0-00-000000-0</p>", true
                ),
            ],
            toc: [entry("Chapter 1", "ch1.xhtml"), entry("Chapter 2", "ch2.xhtml")])
        let index = try SectionIndexer.index(book)
        let covered = index.sections.flatMap(\.spine)
        #expect(covered == book.package.spine.map(\.href))
        #expect(index.sections.map(\.kind) == [.cover, .titlepage, .chapter, .chapter, .copyright])
        #expect(index.sections.map(\.role) == [.front, .front, .body, .body, .back])
        #expect(index.sections.filter(\.included).map(\.title) == ["Chapter 1", "Chapter 2"])
        // Titles come from headings, never from file names.
        #expect(index.sections[1].title == "A Test Book")
        #expect(!index.sections.contains { $0.title.hasSuffix(".xhtml") })
    }

    @Test func nestedTOCGivesPartsAndChaptersWithPartTitles() throws {
        let book = MemoryBook(
            spine: [
                ("p1.xhtml", "<h1>Part One</h1><p>An introduction to the part.</p>"),
                ("c1.xhtml", "<h1>Chapter 1</h1>\(prose(100))"),
                ("c2.xhtml", "<h1>Chapter 2</h1>\(prose(100))"),
            ],
            toc: [entry("Part One", "p1.xhtml", [entry("Chapter 1", "c1.xhtml"), entry("Chapter 2", "c2.xhtml")])])
        let index = try SectionIndexer.index(book)
        #expect(index.sections.map(\.kind) == [.part, .chapter, .chapter])
        #expect(index.sections.map(\.level) == [1, 2, 2])
        #expect(index.sections.map(\.partTitle) == [nil, "Part One", "Part One"])
        #expect(index.sections.allSatisfy { $0.included })

        let top = try SectionIndexer.index(book, options: SectionOptions(tocDepth: 1))
        #expect(top.sections.count == 1)
        #expect(top.sections[0].spine == ["p1.xhtml", "c1.xhtml", "c2.xhtml"])
    }

    @Test func subsectionsInsideTheChapterFileStayInTheChapter() throws {
        let book = MemoryBook(
            spine: [
                (
                    "art.xhtml",
                    "<h1 id='t'>Article</h1>\(prose(50))<h2 id='s1'>Climate</h2>\(prose(50))<h2 id='s2'>History</h2>\(prose(50))"
                )
            ],
            toc: [
                entry("Article", "art.xhtml#t", [entry("Climate", "art.xhtml#s1"), entry("History", "art.xhtml#s2")])
            ])
        #expect(try SectionIndexer.index(book).sections.count == 1)
        #expect(try SectionIndexer.index(book, options: SectionOptions(tocDepth: 2)).sections.count == 3)
    }

    @Test func brokenTOCLinksBecomeWarnings() throws {
        let book = MemoryBook(
            spine: [("a.xhtml", "<h1>A</h1>\(prose(80))"), ("b.xhtml", "<h1>B</h1>\(prose(80))")],
            toc: [
                entry("B", "b.xhtml"), entry("A", "a.xhtml#nowhere"), entry("Gone", "missing.xhtml"),
                entry("A again", "a.xhtml"),
            ])
        let index = try SectionIndexer.index(book)
        #expect(index.sections.map(\.title) == ["A", "B"])
        let messages = index.warnings.map(\.message).joined(separator: "\n")
        #expect(messages.contains("outside the spine"))
        #expect(messages.contains("missing id"))
        #expect(messages.contains("not in reading order"))
    }

    @Test func missingTOCFallsBackToHeadings() throws {
        let book = MemoryBook(
            spine: [
                ("part0001.xhtml", "<h1>The Beginning</h1>\(prose(200))"),
                ("part0002.xhtml", prose(100, "continued")),
                ("part0003.xhtml", "<h1>The Middle</h1>\(prose(200))"),
            ],
            toc: [])
        let index = try SectionIndexer.index(book)
        #expect(index.sections.map(\.title) == ["The Beginning", "The Middle"])
        #expect(index.sections[0].spine == ["part0001.xhtml", "part0002.xhtml"])
        #expect(index.warnings.contains { $0.message.contains("no table of contents") })
    }

    @Test func gutenbergBoilerplateIsCutOffInsideAChapterFile() throws {
        let header =
            "<p>The Project Gutenberg EBook of A Test Book. This eBook is for the use of anyone.</p>"
            + "<p>*** START OF THIS PROJECT GUTENBERG EBOOK A TEST BOOK ***</p>"
        let licence =
            "<p>End of the Project Gutenberg EBook of A Test Book</p>"
            + "<p>Project Gutenberg-tm License terms apply to this work.</p>" + prose(200, "licence")
        let book = MemoryBook(
            spine: [("all.xhtml", header + "<h1 id='c1'>Chapter I</h1>\(prose(500))" + licence)],
            toc: [entry("Chapter I", "all.xhtml")])
        let index = try SectionIndexer.index(book)
        #expect(index.sections.map(\.kind) == [.license, .chapter, .license])
        #expect(index.sections.filter(\.included).map(\.words) == [502])
    }

    @Test func semanticRegionsInsideAFileAreSplitOff() throws {
        let body =
            "<section epub:type='chapter' id='c'><h1>Poem</h1>\(prose(120))</section>"
            + "<section epub:type='rearnotes' id='n'><h2>Notes</h2><p>Notes on the poem, by the poet.</p></section>"
        let book = MemoryBook(spine: [("p.xhtml", body)], toc: [entry("Poem", "p.xhtml#c")])
        let index = try SectionIndexer.index(book)
        #expect(index.sections.map(\.kind) == [.chapter, .notes])
        #expect(index.sections.map(\.included) == [true, false])
    }

    @Test func includeOptionReadsChosenKinds() throws {
        let book = MemoryBook(
            spine: [("pre.xhtml", "<h1>Preface</h1>\(prose(100))"), ("c1.xhtml", "<h1>Chapter 1</h1>\(prose(100))")],
            toc: [entry("Preface", "pre.xhtml"), entry("Chapter 1", "c1.xhtml")])
        #expect(try SectionIndexer.index(book).sections.map(\.included) == [false, true])
        let withPreface = try SectionIndexer.index(book, options: SectionOptions(include: [.preface]))
        #expect(withPreface.sections.map(\.included) == [true, true])
        let all = try SectionIndexer.index(book, options: SectionOptions(includeAll: true))
        #expect(all.sections.map(\.included) == [true, true])
    }

    @Test func frenchAndGermanTitlesAreRecognised() throws {
        let book = MemoryBook(
            spine: [
                (
                    "a.xhtml",
                    "<h1>Sommaire</h1><p><a href='b.xhtml'>Chapitre premier</a></p><p><a href='c.xhtml'>Remerciements</a></p>"
                ),
                ("b.xhtml", "<h1>Chapitre premier</h1>\(prose(200, "mot"))"),
                ("c.xhtml", "<h1>Danksagung</h1>\(prose(60, "danke"))"),
            ],
            toc: [entry("Sommaire", "a.xhtml"), entry("Chapitre premier", "b.xhtml"), entry("Danksagung", "c.xhtml")])
        let index = try SectionIndexer.index(book)
        #expect(index.sections.map(\.kind) == [.toc, .chapter, .acknowledgments])
    }

    @Test func jsonUsesStringHrefs() throws {
        let book = MemoryBook(
            spine: [("a.xhtml", "<section id='x'><h1>One</h1>\(prose(10))</section>")], toc: [entry("One", "a.xhtml#x")]
        )
        let section = try #require(try SectionIndexer.index(book).sections.first)
        let data = try JSONEncoder().encode(section)
        let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        #expect(object["href"] as? String == "a.xhtml#x")
        for key in ["number", "title", "spine", "role", "kind", "included", "confidence", "reasons", "words"] {
            #expect(object[key] != nil, "missing \(key)")
        }
        var decoded = try JSONDecoder().decode(BookSection.self, from: data)
        #expect(abs(decoded.confidence - section.confidence) < 0.01)
        decoded.confidence = section.confidence
        #expect(decoded == section)
    }
}

@Suite struct ClassifierPatternTests {
    @Test func numberedChapterWithAFrontMatterNameIsAChapter() throws {
        let book = MemoryBook(
            spine: [
                ("c24.xhtml", "<h1>Chapter 24. The Advocate.</h1>\(prose(300))"),
                ("c25.xhtml", "<h1>Chapter 25. Postscript.</h1>\(prose(300))"),
                ("app.xhtml", "<h1>Chapter 26. Appendix A</h1>\(prose(300))"),
            ],
            toc: [
                entry("Chapter 24. The Advocate.", "c24.xhtml"), entry("Chapter 25. Postscript.", "c25.xhtml"),
                entry("Chapter 26. Appendix A", "app.xhtml"),
            ])
        let index = try SectionIndexer.index(book)
        #expect(index.sections.map(\.kind) == [.chapter, .chapter, .appendix])
        #expect(index.sections.map(\.included) == [true, true, false])
    }
}

@Suite("The languages a section's blocks are marked with")
struct SectionLanguagesTests {
    @Test("letters by xml:lang, the document's and a passage's; blocks without a language are not counted")
    func languagesCensus() throws {
        let book = MemoryBook(
            spine: [
                ("a.xhtml", "<h1>One</h1><p>Plain words here.</p><p xml:lang='de'>Guten Tag, Welt.</p>"),
                ("b.xhtml", "<h1>Two</h1><p>No language at all.</p>"),
            ],
            toc: [entry("One", "a.xhtml"), entry("Two", "b.xhtml")],
            documentLanguage: nil, documentLanguages: ["a.xhtml": "en-GB"])
        let index = try SectionIndexer.index(book)
        let first = try #require(index.sections.first)
        #expect(first.languages["de"] == 12, "\(first.languages)")  // Guten Tag Welt
        #expect((first.languages["en-gb"] ?? 0) > 10, "\(first.languages)")
        #expect(index.sections.last?.languages.isEmpty == true)
    }
}
