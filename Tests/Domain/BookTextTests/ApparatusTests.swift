import EPUBReader
import Testing

@testable import BookText

/// Notes, indexes, glossaries and lists are decided by their shape at any length; a title that only
/// starts like one is no such thing. One structure per test, each made up.
@Suite struct ApparatusTests {
    /// `count` chapters of running prose, each referring to `notesPerChapter` notes in `notes.xhtml`.
    func chapters(_ count: Int, notesPerChapter: Int = 0) -> [(String, String)] {
        (1...count).map { c in
            let refs = (0..<notesPerChapter).map { n in
                let id = (c - 1) * notesPerChapter + n + 1
                return "<p>Some words of the story go on here<a id='r\(id)' href='notes.xhtml#n\(id)'>\(id)</a>.</p>"
            }
            return ("c\(c).xhtml", "<h2>Chapter \(c)</h2>\(prose(1500, "story"))" + refs.joined())
        }
    }

    /// Notes as paragraphs whose number is the link back to the reference: not read, so the
    /// paragraph reads ". Act I. ...", unnumbered.
    func notesFile(_ count: Int, wordsEach: Int) -> String {
        "<h2>Notes</h2>"
            + (1...count).map { n in
                "<p id='n\(n)'><a href='c1.xhtml#r\(n)'>\(n)</a>. "
                    + Array(repeating: "gloss", count: wordsEach).joined(separator: " ") + ".</p>"
            }.joined()
    }

    @Test func longNotesWhoseNumbersLinkBackAreNotesAtAnyLength() throws {
        // 120 notes of 60 words: 7,000 words, far past the size of a page of notes, and more than
        // the text that refers to them (a play's commentary).
        let book = MemoryBook(
            spine: chapters(3, notesPerChapter: 40) + [("notes.xhtml", notesFile(120, wordsEach: 60))],
            toc: [entry("Chapter 1", "c1.xhtml"), entry("Chapter 2", "c2.xhtml"), entry("Chapter 3", "c3.xhtml")])
        let index = try SectionIndexer.index(book)
        let notes = try #require(index.sections.last)
        #expect(notes.kind == .notes)
        #expect(!notes.included, "\(notes.reasons)")
        #expect(notes.words > 7000)
    }

    @Test func anEssayTitledAsAnAppendixToSomethingIsRead() throws {
        let book = MemoryBook(
            spine: chapters(4) + [("e.xhtml", "<h2>Appendix to a Novel</h2>\(prose(1800, "essay"))")],
            toc: (1...4).map { entry("Chapter \($0)", "c\($0).xhtml") } + [entry("Appendix to a Novel", "e.xhtml")])
        let essay = try #require(try SectionIndexer.index(book).sections.last)
        #expect(essay.included, "\(essay.reasons)")
    }

    @Test(arguments: ["Appendix", "Appendix A: Tables", "Appendix IV. The Calendar", "Appendix 2 — Proofs"])
    func anAppendixDesignatedAsOneIsSkipped(title: String) throws {
        let book = MemoryBook(
            spine: chapters(4) + [("e.xhtml", "<h2>\(title)</h2>\(prose(1800, "essay"))")],
            toc: (1...4).map { entry("Chapter \($0)", "c\($0).xhtml") } + [entry(title, "e.xhtml")])
        let appendix = try #require(try SectionIndexer.index(book).sections.last)
        #expect(appendix.kind == .appendix)
        #expect(!appendix.included, "\(appendix.reasons)")
    }

    @Test(arguments: [
        ("Appendix to a Novel", 1, true), ("Appendix on Whaling", 1, true), ("Appendix A", 1, false),
        ("Appendix: Tables", 1, false), ("Appendix iv. Notes", 1, false), ("Appendix", 1, false),
        ("Preface to the Second Edition", 1, true),
    ])
    func aTitleGoesOnAfterItsKind(title: String, phraseWords: Int, goesOn: Bool) {
        #expect(Patterns.goesOnAsATitle(title, afterWords: phraseWords) == goesOn)
    }

    /// Index entries: a term and its pages.
    func indexEntries(_ count: Int) -> String {
        (0..<count).map { n in
            let term =
                "term" + String(UnicodeScalar(UInt8(97 + n / 26 % 26))) + String(UnicodeScalar(UInt8(97 + n % 26)))
            return "<p class='index'>\(term), \(n + 3), \(2 * n + 40).</p>"
        }.joined()
    }

    /// Glossary entries in alphabetical order, the term set apart by a period alone.
    func glossaryEntries(_ count: Int) -> String {
        (0..<count).map { n in
            let term =
                "Term" + String(UnicodeScalar(UInt8(97 + n / 26 % 26))) + String(UnicodeScalar(UInt8(97 + n % 26)))
            return "<p><b>\(term)</b>. Its meaning is given here in a few words of plain prose.</p>"
        }.joined()
    }

    @Test(arguments: [
        ("Notes", "notes"), ("Glossary", "glossary"), ("Index", "index"), ("Books by the Same Publisher", "alsoBy"),
    ])
    func apparatusUnderAHeadingAfterTheLastChapterInItsFileIsASectionOfItsOwn(title: String, kind: String) throws {
        let entries: String =
            switch kind {
            case "notes": notesFile(40, wordsEach: 30).replacing("<h2>Notes</h2>", with: "")
            case "glossary": glossaryEntries(60)
            case "index": indexEntries(300)
            default:
                (1...30).map { "<p>\($0). A Title of a Book. By A. Author. Cloth, 4s. 6d. net; leather, 5s. net.</p>" }
                    .joined()
            }
        var spine = chapters(3, notesPerChapter: kind == "notes" ? 13 : 0)
        spine[2].1 += "<h2>\(title)</h2>\(entries)"
        let book = MemoryBook(
            spine: spine,
            toc: [entry("Chapter 1", "c1.xhtml"), entry("Chapter 2", "c2.xhtml"), entry("Chapter 3", "c3.xhtml")])
        let index = try SectionIndexer.index(book)
        let last = try #require(index.sections.last)
        #expect(last.title == title)
        #expect(last.kind.rawValue == kind || (kind == "alsoBy" && last.kind == .alsoBy))
        #expect(!last.included, "\(last.reasons)")
        #expect(index.sections.filter(\.included).map(\.title) == ["Chapter 1", "Chapter 2", "Chapter 3"])
    }

    @Test func aHeadingNamingApparatusOverProseIsNone() throws {
        // "Notes from a Journey" over numbered paragraphs of prose: an essay's sections.
        var spine = chapters(3)
        spine[2].1 +=
            "<h2>Notes from a Journey</h2>"
            + (1...8).map { "<p>\($0). \(Array(repeating: "walk", count: 60).joined(separator: " ")).</p>" }.joined()
        let book = MemoryBook(
            spine: spine,
            toc: [entry("Chapter 1", "c1.xhtml"), entry("Chapter 2", "c2.xhtml"), entry("Chapter 3", "c3.xhtml")])
        let index = try SectionIndexer.index(book)
        #expect(index.sections.count == 3)
        #expect(index.sections.allSatisfy { $0.included })
    }

    @Test func anIndexLongerThanTheBookIsAnIndex() throws {
        let book = MemoryBook(
            spine: chapters(2) + [("ix.xhtml", "<h2>Index</h2>\(indexEntries(2000))")],
            toc: [entry("Chapter 1", "c1.xhtml"), entry("Chapter 2", "c2.xhtml"), entry("Index", "ix.xhtml")])
        let index = try SectionIndexer.index(book)
        let last = try #require(index.sections.last)
        #expect(last.words > 3000)
        #expect(last.kind == .index)
        #expect(!last.included, "\(last.reasons)")
    }

    @Test func anIndexOfFirstLinesNoEntryListsDoesNotJoinTheLastPoem() throws {
        let lines = (0..<40).map { n in "<p>A first line of a poem number \(n) . . . \(n + 10)</p>" }.joined()
        let book = MemoryBook(
            spine: chapters(3) + [("fl.xhtml", "<h2>Index of First Lines</h2>\(lines)")],
            toc: [entry("Chapter 1", "c1.xhtml"), entry("Chapter 2", "c2.xhtml"), entry("Chapter 3", "c3.xhtml")])
        let index = try SectionIndexer.index(book)
        let last = try #require(index.sections.last)
        #expect(last.kind == .index)
        #expect(!last.included)
        #expect(index.sections.filter(\.included).map(\.words) == [1502, 1502, 1502])
    }

    @Test(arguments: [
        ("Aphaeresis, 212, 240.", true), ("Because the night was cold . . . 91", true), ("Chapter IV\t37", true),
        ("He was born in 1812", false), ("The road ran on for miles and miles, 12", true),
        ("It cost him 40", false),
    ])
    func entriesEndingWithTheirPages(text: String, isEntry: Bool) {
        #expect(IndexedDocument.endsWithPageNumber(text, words: TextMeasure.wordCount(text)) == isEntry)
    }
}
