import Contracts
import EPUBReader
import Testing

@testable import BookText

/// Where a section begins and ends: one structure per test, each made up.
@Suite struct SectionBoundaryTests {
    /// The spoken text of every section read, one string each.
    func spokenSections(_ book: MemoryBook) throws -> [String] {
        try SectionIndexer.index(book).sections.filter(\.included).map { section in
            try SpokenTextExtractor.blocks(for: section, in: book).map(\.text).joined(separator: " | ")
        }
    }

    /// A book split at page breaks: each file ends with the next chapter's heading (numeral as a
    /// heading, title as a paragraph), whose text goes on in the next file.
    func splitAtPageBreaks(toc: [TOCEntry]) -> MemoryBook {
        MemoryBook(
            spine: [
                ("s1.xhtml", "<h2>I</h2><p>The Beginning</p>\(prose(300, "one"))<h2 id='c2'>II</h2><p>The Storm</p>"),
                (
                    "s2.xhtml",
                    "\(prose(300, "two"))<h2 id='c3'>III</h2><p>The Calm</p><div><span epub:type='pagebreak'>7</span></div>"
                ),
                ("s3.xhtml", prose(300, "three")),
            ],
            toc: toc)
    }

    @Test func aHeadingThatEndsAFileStartsTheChapterThatGoesOnInTheNextFile() throws {
        let book = splitAtPageBreaks(toc: [
            entry("I. The Beginning", "s1.xhtml"), entry("II. The Storm", "s2.xhtml"),
            entry("III. The Calm", "s3.xhtml"),
        ])
        let index = try SectionIndexer.index(book)
        #expect(index.sections.map(\.title) == ["I. The Beginning", "II. The Storm", "III. The Calm"])
        #expect(index.sections.map(\.spine) == [["s1.xhtml"], ["s1.xhtml", "s2.xhtml"], ["s2.xhtml", "s3.xhtml"]])
        #expect(index.sections.map(\.words) == [303, 303, 303])
        let spoken = try spokenSections(book)
        #expect(spoken[0].hasSuffix("one one."), "chapter I ends with its own text, not II's numeral")
        #expect(spoken[1].hasPrefix("II. The Storm | two"), "the title once: the heading and its rest are the title")
        #expect(spoken[2].hasPrefix("III. The Calm | three"))
    }

    @Test func aTOCAnchorOnTheLastElementOfItsFileRunsIntoTheNextFile() throws {
        let book = splitAtPageBreaks(toc: [
            entry("I. The Beginning", "s1.xhtml"), entry("II. The Storm", "s1.xhtml#c2"),
            entry("III. The Calm", "s2.xhtml#c3"),
        ])
        let index = try SectionIndexer.index(book)
        #expect(index.sections.map(\.spine) == [["s1.xhtml"], ["s1.xhtml", "s2.xhtml"], ["s2.xhtml", "s3.xhtml"]])
        #expect(index.sections.allSatisfy { $0.included })
    }

    @Test func aFileThatOpensWithItsOwnHeadingKeepsItsStart() throws {
        // The heading at the end of the first file is no chapter's: the next one has its own.
        let book = MemoryBook(
            spine: [
                ("a.xhtml", "<h2>One</h2>\(prose(200, "one"))<h3>Afterthought</h3>"),
                ("b.xhtml", "<h2>Two</h2>\(prose(200, "two"))"),
            ],
            toc: [entry("One", "a.xhtml"), entry("Two", "b.xhtml")])
        let index = try SectionIndexer.index(book)
        #expect(index.sections.map(\.spine) == [["a.xhtml"], ["b.xhtml"]])
        #expect(index.sections.map(\.words) == [202, 201])
    }

    @Test func aFileOfOnlyAHeadingIsAPageOfItsOwn() throws {
        // A part's page is no heading at the end of a chapter's text.
        let book = MemoryBook(
            spine: [
                ("c1.xhtml", "<h2>Chapter 1</h2>\(prose(200))"),
                ("p2.xhtml", "<h1>Part Two</h1>"),
                ("c2.xhtml", prose(200, "two")),
            ],
            toc: [entry("Chapter 1", "c1.xhtml"), entry("Part Two", "p2.xhtml"), entry("Chapter 2", "c2.xhtml")])
        let index = try SectionIndexer.index(book)
        #expect(index.sections.map(\.spine) == [["c1.xhtml"], ["p2.xhtml"], ["c2.xhtml"]])
    }

    @Test func withoutATOCTheChaptersHeadingsThatEndFilesMakeTheSections() throws {
        // Two files open with a heading, of two ranks (a title page's h1, the first chapter's h2):
        // the chapters' level is the h2 the book uses throughout, at the ends of files.
        let book = MemoryBook(
            spine: [
                ("t.xhtml", "<h1>The Book</h1><p>A novel.</p>"),
                ("a.xhtml", "<h2>Chapter I</h2>\(prose(200, "one"))"),
                ("b.xhtml", "\(prose(100, "one"))<h2>Chapter II</h2>"),
                ("c.xhtml", "\(prose(200, "two"))<h2>Chapter III</h2>"),
                ("d.xhtml", prose(200, "three")),
            ],
            toc: [])
        let index = try SectionIndexer.index(book)
        let chapters = index.sections.filter { $0.included && $0.title.hasPrefix("Chapter") }
        #expect(chapters.map(\.title) == ["Chapter I", "Chapter II", "Chapter III"])
        #expect(chapters.map(\.words) == [302, 202, 202])
    }

    @Test(arguments: [[5, 400, 6], [4, 6, 300], [300, 7]])
    func everyPageTheTOCListsInABookOfAFewPagesIsRead(words: [Int]) throws {
        // A reading system's test book: pages of a few words at its edges are its pages.
        let spine = words.enumerated().map { i, n in ("p\(i).xhtml", "<h1>Page \(i)</h1>\(prose(n, "w\(i)"))") }
        let book = MemoryBook(spine: spine, toc: spine.indices.map { entry("Page \($0)", "p\($0).xhtml") })
        let index = try SectionIndexer.index(book)
        #expect(index.sections.allSatisfy { $0.included }, "\(index.sections.map(\.reasons))")
    }

    @Test func aShortPageAtTheEdgeOfALongBookIsStillSkipped() throws {
        // In a book of many pages, a few words before the first chapter are a title line.
        let chapters = (1...3).map { ("c\($0).xhtml", "<h1>Chapter \($0)</h1>\(prose(900))") }
        let book = MemoryBook(
            spine: [("t.xhtml", "<p>In Prose</p>")] + chapters,
            toc: [entry("In Prose", "t.xhtml")] + (1...3).map { entry("Chapter \($0)", "c\($0).xhtml") })
        let first = try #require(try SectionIndexer.index(book).sections.first)
        #expect(!first.included)
    }
}
