import Contracts
import EPUBReader
import Testing

@testable import BookText

/// One structure per test: the shapes of books that lose text when a section index trusts the
/// wrong evidence. Every fixture is made up; none copies a corpus book.
@Suite struct SectionStructureTests {
    /// Lines of verse: `n` paragraphs of four words each.
    func verse(_ n: Int, _ word: String = "line") -> String {
        (0..<n).map { "<p>\(word) of the song \($0 % 7)</p>" }.joined()
    }

    func wordsRead(_ index: SectionIndex) -> Int { index.sections.filter(\.included).reduce(0) { $0 + $1.words } }
    func wordsSkipped(_ index: SectionIndex) -> Int {
        index.sections.filter { !$0.included }.reduce(0) { $0 + $1.words }
    }

    @Test func storiesNestedUnderAContentsEntryAreChapters() throws {
        let book = MemoryBook(
            spine: [
                ("title.xhtml", "<h1>Tales</h1><p>by Someone</p>"),
                (
                    "text.xhtml",
                    "<div id='c'><h2>Contents</h2><p><a href='#s1'>The Fir</a></p><p><a href='#s2'>The Bell</a></p></div>"
                        + "<div id='s1'><h2>The Fir</h2>\(prose(400))</div><div id='s2'><h2>The Bell</h2>\(prose(300))</div>"
                ),
                ("more.xhtml", "<div id='s3'><h2>The Shadow</h2>\(prose(500))</div>"),
            ],
            toc: [
                entry("Tales", "title.xhtml"),
                entry(
                    "Contents", "text.xhtml#c",
                    [
                        entry("The Fir", "text.xhtml#s1"), entry("The Bell", "text.xhtml#s2"),
                        entry("The Shadow", "more.xhtml#s3"),
                    ]),
            ])
        let index = try SectionIndexer.index(book)
        let read = index.sections.filter(\.included)
        #expect(read.map(\.title) == ["The Fir", "The Bell", "The Shadow"])
        #expect(read.allSatisfy { $0.partTitle == nil }, "a Contents entry is no part")
        #expect(read.map(\.words) == [402, 302, 502])
    }

    @Test func partsAndChaptersNumberedByTheirLabelsAreStillPartsAndChapters() throws {
        // DocBook numbers its TOC labels: "I. Part One" holding "1. Chapter I", each in its own file.
        let book = MemoryBook(
            spine: [
                ("pt01.xhtml", "<h1>Part I. Part One</h1>"),
                ("ch01.xhtml", "<h2>Chapter 1. Chapter I</h2>\(prose(400))"),
                ("ch02.xhtml", "<h2>Chapter 2. Chapter II</h2>\(prose(300))"),
                ("pt02.xhtml", "<h1>Part II. Part Two</h1>"),
                ("ch03.xhtml", "<h2>Chapter 3. Chapter III</h2>\(prose(500))"),
            ],
            toc: [
                entry(
                    "I. Part One", "pt01.xhtml",
                    [entry("1. Chapter I", "ch01.xhtml"), entry("2. Chapter II", "ch02.xhtml")]),
                entry("II. Part Two", "pt02.xhtml", [entry("3. Chapter III", "ch03.xhtml")]),
            ])
        let index = try SectionIndexer.index(book)
        #expect(
            index.sections.map(\.title) == [
                "I. Part One", "1. Chapter I", "2. Chapter II", "II. Part Two", "3. Chapter III",
            ])
        #expect(index.sections.map(\.kind) == [.part, .chapter, .chapter, .part, .chapter])
        #expect(Patterns.isPartTitle("I. Part One") && Patterns.isExplicitChapterTitle("1. Chapter I"))
        #expect(!Patterns.isPartTitle("I. Preface"))
    }

    @Test func chapterTitlesInOtherScriptsAreChapterTitles() throws {
        #expect(Patterns.isChapterTitle("Глава 3") && Patterns.isChapterTitle("第五章 心猿"))
        #expect(!Patterns.isChapterTitle("Предисловие") && !Patterns.isChapterTitle("序言"))
        // A short first chapter keeps its place in the text by its title, as "Chapter 1" would.
        let files =
            [("c1.xhtml", "<h1>Глава 1</h1>\(prose(40, "слово"))")]
            + (2...4).map { ("c\($0).xhtml", "<h1>Глава \($0)</h1>\(prose(1000, "слово"))") }
        let book = MemoryBook(
            spine: files, toc: (1...4).map { entry("Глава \($0)", "c\($0).xhtml") }, language: "ru",
            documentLanguage: "ru")
        let first = try SectionIndexer.index(book).sections[0]
        #expect(first.included && first.reasons.first == "chapter title \"Глава 1\" → text", "\(first.reasons)")
    }

    @Test func aChapterAfterMarkedMatterInItsFileKeepsItsOwnKind() throws {
        // The TOC points at the file; a copyright page and a dedication, each marked, open it
        // ahead of the chapter's own section and heading.
        let opening =
            "<section epub:type='copyright-page'><p>© 2019 A. Writer. All rights reserved.</p>"
            + "<p>ISBN 978-0-12-345678-9</p></section>"
            + "<section epub:type='dedication'><p>For Anna</p></section>"
            + "<section epub:type='chapter'><h1>Salt and Iron</h1>\(prose(900))\(prose(900))</section>"
        let files = [
            ("title.xhtml", "<section epub:type='titlepage'><h1>Second Light</h1><p>A. Writer</p></section>"),
            ("c1.xhtml", opening),
            ("c2.xhtml", "<section epub:type='chapter'><h1>The Long Field</h1>\(prose(900))\(prose(900))</section>"),
            ("c3.xhtml", "<section epub:type='chapter'><h1>Small Hours</h1>\(prose(900))\(prose(900))</section>"),
        ]
        let book = MemoryBook(
            spine: files,
            toc: [
                entry("Second Light", "title.xhtml"), entry("Salt and Iron", "c1.xhtml"),
                entry("The Long Field", "c2.xhtml"), entry("Small Hours", "c3.xhtml"),
            ])
        let sections = try SectionIndexer.index(book).sections
        let chapter = try #require(sections.first { $0.title == "Salt and Iron" })
        #expect(chapter.included && chapter.kind == .chapter && chapter.words >= 1_800, "\(sections)")
        #expect(sections.filter { !$0.included }.map(\.kind) == [.titlepage, .copyright, .dedication])
    }

    @Test func shortPoemsAtTheEdgesOfABookOfPoemsAreRead() throws {
        // No marks: a title page of lines, two three-line poems, five long poems, three three-line poems.
        func poem(_ title: String, lines: Int) -> String {
            "<h2>\(title)</h2><p>" + (1...lines).map { "the \(title) line \($0) of it" }.joined(separator: "<br/>")
                + "</p>"
        }
        let titles = ["Heron", "Frost"] + (1...5).map { "Long \($0)" } + ["Gull", "Ember", "Reeds"]
        let files =
            [("t.xhtml", "<p>THE FAR SHORE<br/>Poems<br/>Probe Author</p>")]
            + titles.map { ("\($0).xhtml", poem($0, lines: $0.hasPrefix("Long") ? 40 : 3)) }
        let book = MemoryBook(
            title: "The Far Shore", spine: files,
            toc: [entry("The Far Shore", "t.xhtml")] + titles.map { entry($0, "\($0).xhtml") })
        let sections = try SectionIndexer.index(book).sections
        #expect(
            sections.map(\.included) == [false] + Array(repeating: true, count: 10),
            "\(sections.map { ($0.kind, $0.reasons) })")
        #expect(sections[1].reasons.first == "verse, as 5 of the 5 sections read: a poem → text")
    }

    @Test func aTitleThatIsOnlyItsFilesNumberedNameGivesWayToTheHeading() throws {
        // A converter labels entries with its file names; "Chapter 1" in chapter1.xhtml is a title.
        let book = MemoryBook(
            spine: [
                ("content001.xhtml", "<h1>Loomings</h1>\(prose(300))"), ("chapter1.xhtml", prose(300)),
                ("part0005.xhtml", prose(300)),
            ],
            toc: [
                entry("content 001", "content001.xhtml"), entry("Chapter 1", "chapter1.xhtml"),
                entry("part0005", "part0005.xhtml"),
            ])
        let titles = try SectionIndexer.index(book).sections.map(\.title)
        #expect(titles == ["Loomings", "Chapter 1", "Section 3"])
    }

    @Test func aPoemInTheFileAfterTheCopyrightPageIsNotSkippedWithIt() throws {
        // One TOC entry (the cover), every paragraph of one class, the first poem's title unlike the others'.
        let copyright = "Copyright © 2024 A Small Press. All rights reserved. ISBN 978-0-00-000000-0."
        func poem(_ title: String, _ words: Int) -> String {
            "<p class='t'>\(title)</p>" + (0..<(words / 10)).map { _ in "<p class='t'>\(verse(1))</p>" }.joined()
        }
        let book = MemoryBook(
            spine: [
                ("cover.xhtml", "<p class='t'>Cover</p>"),
                ("copyright.xhtml", "<p class='t'>\(copyright)</p>"),
                ("p1.xhtml", poem("Cold Orchard", 400)),
                ("p2.xhtml", poem("The Fir", 1_600)),
                ("p3.xhtml", poem("The Bell", 1_600)),
                ("p4.xhtml", poem("The Shadow", 1_600)),
            ],
            toc: [entry("Start", "cover.xhtml")])
        let index = try SectionIndexer.index(book)
        let skipped = index.sections.filter { !$0.included }
        #expect(skipped.map(\.kind).contains(.copyright))
        #expect(wordsSkipped(index) < 30, "only the cover and the copyright notice: \(skipped.map(\.words))")
        #expect(index.sections.filter(\.included).first?.title == "Cold Orchard", "titled by its opening line")
    }

    @Test func aStorysTitleAndEpigraphAboveItsChaptersArePartOfTheStory() throws {
        // Without a TOC: a story's title (h1) and its epigraph alone in a file, its chapters under h2.
        let book = MemoryBook(
            spine: [
                ("letter.xhtml", "<h1>A Letter Found</h1>\(prose(900))"),
                ("shot.xhtml", "<h1>The Shot</h1><p>We fought a duel.</p><p>— A Poet</p>"),
                ("shot1.xhtml", "<h2>I</h2>\(prose(2_000))"),
                ("shot2.xhtml", "<h2>II</h2>\(prose(1_600))"),
                ("storm.xhtml", "<h1>The Storm</h1>\(prose(3_000))"),
            ],
            toc: [])
        let index = try SectionIndexer.index(book)
        let shot = try #require(index.sections.first { $0.title == "The Shot" })
        #expect(shot.included && shot.kind == .part)
        #expect(wordsSkipped(index) == 0)
    }

    @Test func headingsWrittenAsParagraphsOfAClassOfTheirOwnAreChapters() throws {
        // One file, no TOC: titles share no word, only a class no other paragraph has (on the
        // paragraph, or on a wrapper around it); front matter headings stand close together.
        for heading in ["<p class='h'>%@</p>", "<div class='s3'><p class='c2'>%@</p></div>"] {
            func title(_ text: String) -> String { heading.replacingOccurrences(of: "%@", with: text) }
            let titles = [
                "Gate", "Cold Orchard", "Hay Wagon", "Late Ferns", "Well Rope", "Stone Fence", "Barn Owl",
                "Wet Meadow",
            ]
            let text =
                "<p class='c2'>"
                + String(repeating: "The wind goes over the hill and the stones stay where they were. ", count: 25)
                + "</p>"
            let body =
                title("Copyright") + "<p class='c2'>Copyright © 2024 A Small Press. All rights reserved.</p>"
                + title("Dedication") + "<p class='c2'>For the keeper of the lamp.</p>"
                + titles.map { title($0) + text }.joined()
            let book = MemoryBook(spine: [("book.xhtml", body)], toc: [])
            let index = try SectionIndexer.index(book)
            #expect(index.sections.filter(\.included).map(\.title) == titles, "\(heading)")
            #expect(index.sections.filter { !$0.included }.map(\.kind) == [.copyright, .dedication])
        }
    }

    @Test func aShortFirstChapterAfterTheCopyrightLinesIsCutFromThemAndRead() throws {
        // One file, one TOC entry (the cover), every paragraph of one class: the chapter family
        // misses "Prologue", which follows the copyright and dedication lines.
        func p(_ text: String) -> String { "<p class='t'>\(text)</p>" }
        let page = String(repeating: "The traveller spoke of time and of the three dimensions of space. ", count: 4)
        var body = p("The Time Book") + p("Copyright") + p("Copyright © 2024 A Small Press. All rights reserved.")
        body += p("ISBN 978-0-00-000000-0.") + p("Dedication") + p("For the keeper of the lamp.")
        body += p("Prologue") + p(page) + p(page) + p(page)
        for n in ["II", "III", "IV"] { body += p("Chapter \(n)") + String(repeating: p(page), count: 20) }
        let book = MemoryBook(
            spine: [("cover.xhtml", "<p>Cover</p>"), ("book.xhtml", body)], toc: [entry("Start", "cover.xhtml")])
        let index = try SectionIndexer.index(book)
        let prologue = try #require(index.sections.first { $0.title == "Prologue" })
        #expect(prologue.included && prologue.words == 145)
        #expect(index.sections.contains { $0.kind == .copyright && !$0.included && $0.words < 40 })
    }

    @Test(arguments: [
        ("À propos de l'auteur", SectionKind.aboutAuthor), ("L’auteur", .aboutAuthor), ("Sull'autore", .aboutAuthor),
        ("Droits d'auteur", .copyright), ("Посвящение", .dedication), ("Указатель", .index),
        ("Примечания", .notes), ("Об авторе", .aboutAuthor), ("Другие книги автора", .alsoBy),
    ])
    func titlesWithElisionsAndInRussianNameTheirKind(title: String, kind: SectionKind) {
        #expect(Patterns.kind(forTitle: title)?.kind == kind)
    }

    @Test(arguments: ["Reading Group Guide", "A Reading Group Guide", "Newsletter Sign-Up", "Book Club Guide"])
    func aPublishersPagesForReadersAreAdvertisements(title: String) {
        #expect(Patterns.kind(forTitle: title)?.kind == .advertisement)
    }

    @Test func aLongNotesSectionThatIsAnOrderedListIsNotes() throws {
        // The list numbers the notes; their text starts with no number of its own.
        let note =
            "<li><p>" + String(repeating: "The annotator remarks on this word in the first edition. ", count: 4)
            + "</p></li>"
        let book = MemoryBook(
            spine: [
                ("c1.xhtml", "<h1>One</h1>\(prose(3_000))"), ("c2.xhtml", "<h1>Two</h1>\(prose(3_000))"),
                ("notes.xhtml", "<h1>Notes</h1><ol>" + String(repeating: note, count: 60) + "</ol>"),
            ],
            toc: [entry("One", "c1.xhtml"), entry("Two", "c2.xhtml"), entry("Notes", "notes.xhtml")])
        let index = try SectionIndexer.index(book)
        let notes = try #require(index.sections.last)
        #expect(notes.words > 2_000 && notes.kind == .notes && !notes.included)
    }

    @Test func aBookWhoseEverySectionLooksLikeFrontOrBackMatterIsReadWhole() throws {
        let titles = ["Sources", "Glossary", "Acknowledgements", "Afterword"]
        let spine = titles.enumerated().map { ("c\($0.offset).xhtml", "<h1>\($0.element)</h1>\(prose(250))") }
        let toc = titles.enumerated().map { entry($0.element, "c\($0.offset).xhtml") }
        let index = try SectionIndexer.index(MemoryBook(spine: spine, toc: toc))
        #expect(index.sections.allSatisfy { $0.included })
        #expect(index.warnings.contains { $0.message.contains("all are read") })
        // One chapter among them is enough: the others stay skipped.
        let withChapter = MemoryBook(
            spine: spine + [("c9.xhtml", "<h1>The Story</h1>\(prose(900))")],
            toc: toc + [entry("The Story", "c9.xhtml")])
        let oneChapter = try SectionIndexer.index(withChapter)
        #expect(oneChapter.sections.filter(\.included).map(\.title) == ["The Story"])
    }

    @Test func aSectionTheBookMarksAsMatterThatHoldsMoreThanAllElseReadIsRead() throws {
        // The whole story typed `frontmatter preface`, and the copyright page typed `chapter`: the
        // page alone was read, the book lost.
        let copyright =
            "<section epub:type='chapter'><h1>Rights</h1><p>Copyright © 2024 Harbour Press. All rights reserved."
            + "</p><p>ISBN 978-0-00-000000-0</p>\(prose(80))</section>"
        func book(storyWords: Int) -> MemoryBook {
            MemoryBook(
                spine: [
                    ("title.xhtml", "<h1>The Lamp</h1><p>Ann Lee</p>"), ("chapter99.xhtml", copyright),
                    ("story.xhtml", "<section epub:type='frontmatter preface'>\(prose(storyWords))</section>"),
                ],
                toc: [
                    entry("Title Page", "title.xhtml"), entry("Rights", "chapter99.xhtml"),
                    entry("The Lamp", "story.xhtml"),
                ])
        }
        let index = try SectionIndexer.index(book(storyWords: 1_200))
        let story = try #require(index.sections.last)
        #expect(story.kind == .preface && story.included, "\(story.reasons)")
        #expect(index.warnings.contains { $0.message.contains("holds more words than all the sections read") })
        #expect(index.sections.filter(\.included).map(\.title) == ["Rights", "The Lamp"])
        // Shorter than what is read (the copyright page), it stays a preface.
        let short = try SectionIndexer.index(book(storyWords: 60))
        #expect(short.sections.filter(\.included).map(\.title) == ["Rights"])
    }

    @Test func anUnlistedPageWithATitleOfItsOwnIsNotJoinedToAPageNamedLikeMatter() throws {
        // A word processor's partial TOC over stories titled in paragraphs of one style: the
        // unlisted story after an unlisted "Acknowledgement" joined it, and was skipped with it
        // when the grown section was judged again by that page's name.
        func page(_ title: String, _ text: String = "") -> String {
            "<p class='MsoHeading1'>\(title)</p>\(text)" + (0..<5).map { _ in prose(33) }.joined()
        }
        let notice = "<p>Copyright © 1990 by Ann Lee. All rights reserved.</p>"
        let book = MemoryBook(
            spine: [
                ("p1.xhtml", page("Notes from the Underground House")), ("p2.xhtml", page("Index of Dreams")),
                ("p3.xhtml", page("The Copyright Thief", notice)), ("p4.xhtml", page("Acknowledgement")),
                ("p5.xhtml", page("The River")), ("p6.xhtml", "<p class='MsoHeading1'>License</p><p>Licensed.</p>"),
            ],
            toc: [entry("The Copyright Thief", "p3.xhtml"), entry("License", "p6.xhtml")])
        let index = try SectionIndexer.index(book)
        let river = try #require(index.sections.first { $0.title == "The River" }, "\(index.sections.map(\.title))")
        #expect(river.included && river.words >= 165)
    }

    @Test func aChapterSizedSectionNamedLikeMatterBetweenTheOnlyChaptersIsRead() throws {
        // Three stories, the middle one titled "Afterword": no two chapters on each side to ask for.
        func book(_ titles: [String]) -> MemoryBook {
            let files = titles.enumerated().map { ("c\($0.offset).xhtml", "<h1>\($0.element)</h1>\(prose(300))") }
            return MemoryBook(spine: files, toc: zip(titles, files).map { entry($0.0, $0.1.0) })
        }
        let three = try SectionIndexer.index(book(["The Lamp", "Afterword", "Low Tide"]))
        #expect(three.sections.map(\.included) == [true, true, true])
        // In a longer book one chapter after it is the edge of the text: an afterword before a last
        // section read (a list of links taken for a chapter) stays an afterword.
        let titles = ["The Lamp", "Low Tide", "Wild Plums", "The Ferry", "Salt", "Afterword", "Further Reading"]
        let long = try SectionIndexer.index(book(titles))
        #expect(long.sections.first { $0.title == "Afterword" }?.included == false)
    }

    @Test func aTOCLabelThatIsAWholeContentsListIsNoTitle() throws {
        let long = (1...60).map { "The Tale of Number \($0)" }.joined(separator: " ")
        let book = MemoryBook(
            spine: [("a.xhtml", "<h2>A Story</h2>\(prose(300))"), ("b.xhtml", "<p>More of it.</p>\(prose(300))")],
            toc: [entry(long, "a.xhtml"), entry("The Next", "b.xhtml")])
        let index = try SectionIndexer.index(book)
        #expect(index.sections.map(\.title) == ["A Story", "The Next"])
    }

    @Test func aOneEntryTOCAtTheCoverLeavesTheTextToItsParagraphHeadings() throws {
        // A converter's single "Start" entry at the cover page; song titles are plain paragraphs
        // that share their last word, each followed by more than 100 words of verse.
        let songs = ["First song", "Second song", "Third song", "Fourth song"]
        let book = MemoryBook(
            spine: [("cover.xhtml", "<img src='cover.jpg' alt='cover'/>")]
                + songs.enumerated().map { ("part\($0.offset).html", "<p>\($0.element)</p>\(verse(40))") },
            toc: [entry("Start", "cover.xhtml")],
            landmarks: [EPUBLandmark(type: "cover", title: "Cover", target: EPUBLink(path: "cover.xhtml"))])
        let index = try SectionIndexer.index(book)
        let read = index.sections.filter(\.included)
        #expect(read.map(\.title) == songs)
        #expect(wordsRead(index) == 4 * (2 + 40 * 5))
        #expect(index.sections.first?.kind == .cover)
        #expect(index.warnings.contains { $0.message.contains("single entry") })
    }

    @Test func aParagraphTitleIsSpokenOnce() throws {
        let songs = ["First song", "Second song", "Third song"]
        let book = MemoryBook(
            spine: songs.enumerated().map { ("part\($0.offset).html", "<p>\($0.element)</p>\(verse(40))") }, toc: [])
        let index = try SectionIndexer.index(book)
        let section = try #require(index.sections.first { $0.title == "Second song" })
        let blocks = try SpokenTextExtractor.blocks(for: section, in: book)
        #expect(blocks.first?.text == "Second song")
        #expect(blocks.filter { $0.text == "Second song" }.count == 1)
    }

    /// A stanza of four short lines broken with `<br/>`.
    func stanza(_ n: Int) -> String {
        "<p>" + (0..<4).map { "line \($0) of stanza \(n) here" }.joined(separator: "<br/>") + "</p>"
    }

    @Test func aPoemTitledLikeAPrefaceIsAPoem() throws {
        let poems = (0..<10).map(stanza).joined()
        let book = MemoryBook(
            spine: [
                ("p0.xhtml", "<h2>To the Reader</h2>\(poems)"), ("p1.xhtml", "<h2>The Swan</h2>\(poems)"),
                ("p2.xhtml", "<h2>The Voyage</h2>\(poems)"),
            ],
            toc: [entry("Preface", "p0.xhtml"), entry("The Swan", "p1.xhtml"), entry("The Voyage", "p2.xhtml")])
        let first = try #require(try SectionIndexer.index(book).sections.first)
        #expect(first.included)
        #expect(first.reasons.first?.contains("a poem, not a preface") == true)
    }

    @Test func aVersePrefaceTheBookMarksStaysAPreface() throws {
        let poems = (0..<10).map(stanza).joined()
        let book = MemoryBook(
            spine: [("pre.xhtml", "<h2>Preface</h2>\(poems)"), ("ch1.xhtml", "<h1>Chapter 1</h1>\(prose(3000))")],
            toc: [entry("Preface", "pre.xhtml"), entry("Chapter 1", "ch1.xhtml")],
            landmarks: [EPUBLandmark(type: "preface", title: "Preface", target: EPUBLink(path: "pre.xhtml"))])
        let index = try SectionIndexer.index(book)
        #expect(index.sections.map(\.kind) == [.preface, .chapter])
        #expect(index.sections.map(\.included) == [false, true])
    }

    @Test func aPrintedContentsLaidOutAsATableOfLinksIsSkipped() throws {
        let rows = (1...12).map { "<tr><td><a href='ch\($0).xhtml'>The Chapter Called \($0)</a></td></tr>" }.joined()
        let book = MemoryBook(
            spine: [
                ("front.xhtml", "<h2>Contents</h2><table>\(rows)</table>"),
                ("ch1.xhtml", "<h1>Chapter 1</h1>\(prose(3000))"),
            ],
            toc: [entry("Chapter 1", "ch1.xhtml")])
        let index = try SectionIndexer.index(book)
        #expect(index.sections.map(\.kind) == [.toc, .chapter])
        #expect(index.sections.map(\.included) == [false, true])
        #expect(index.sections[0].words > 40, "the rows are words now, not an omitted table")
    }

    @Test func aTitlePageAheadOfTheFirstChapterInItsFileIsCutOff() throws {
        let contents = (1...8).map { "<p><a href='#c\($0)'>Chapter \($0)</a></p>" }.joined()
        let book = MemoryBook(
            title: "Big Book",
            spine: [
                (
                    "text.xhtml",
                    "<h1>Big Book</h1><p>by Somebody Else</p><h2>Contents</h2>\(contents)<h2 id='c1'>Chapter 1</h2>\(prose(900))"
                ),
                ("more.xhtml", "<h2>Chapter 2</h2>\(prose(900))"),
            ],
            toc: [entry("Chapter 1", "text.xhtml"), entry("Chapter 2", "more.xhtml")])
        let index = try SectionIndexer.index(book)
        #expect(index.sections.filter(\.included).map(\.title) == ["Chapter 1", "Chapter 2"])
        #expect(index.sections.filter(\.included).map(\.words) == [902, 902])
        #expect(index.sections.first?.included == false)
    }

    @Test func aLandmarkAtTheFileHoldingTheBookMarksOnlyWhereItsKindStarts() throws {
        let book = MemoryBook(
            title: "Big Book",
            spine: [
                (
                    "book.xhtml",
                    "<p>Big Book</p><p>by Somebody Else</p><p>Copyright © 2001. All rights reserved.</p>"
                        + "<h2>The First Chapter</h2>\(prose(3000))<h2>The Second Chapter</h2>\(prose(3000))"
                )
            ],
            toc: [entry("Big Book", "book.xhtml")],
            landmarks: [EPUBLandmark(type: "title-page", title: "Title", target: EPUBLink(path: "book.xhtml"))])
        let index = try SectionIndexer.index(book)
        #expect(index.sections.first?.included == false)
        #expect(index.sections.first?.words ?? 0 < 20)
        #expect(index.sections.filter(\.included).reduce(0) { $0 + $1.words } == 2 * 3003)
    }

    @Test func aTOCOfPartsOnlyGetsTheChaptersFromHeadings() throws {
        let part = { (name: String, a: Int) in
            "<h1>Part \(name)</h1><h2>Chapter \(a)</h2>\(prose(500))<h2>Chapter \(a + 1)</h2>\(prose(500))"
        }
        let book = MemoryBook(
            spine: [("p1.xhtml", part("One", 1)), ("p2.xhtml", part("Two", 3))],
            toc: [entry("Part One", "p1.xhtml"), entry("Part Two", "p2.xhtml")])
        let index = try SectionIndexer.index(book)
        let chapters = index.sections.filter { $0.kind == .chapter }
        #expect(chapters.map(\.title) == ["Chapter 1", "Chapter 2", "Chapter 3", "Chapter 4"])
        #expect(chapters.map(\.partTitle) == ["Part One", "Part One", "Part Two", "Part Two"])
        #expect(index.sections.allSatisfy { $0.included })
    }

    @Test func aShortOpeningPoemTheContentsListsIsRead() throws {
        // Short lines, before the first long section: two weak hints of front matter, no kind named.
        let poem = (0..<16).map { "<p>a line of the opening poem \($0)</p>" }.joined()
        let book = MemoryBook(
            spine: [("p.xhtml", "<h2>Invocation</h2>\(poem)"), ("c1.xhtml", "<h2>Chapter 1</h2>\(prose(3000))")],
            toc: [entry("Invocation", "p.xhtml"), entry("Chapter 1", "c1.xhtml")])
        let index = try SectionIndexer.index(book)
        #expect(index.sections.map(\.included) == [true, true])
    }

    @Test func aSingleFileNovelWithoutTOCGetsItsChaptersFromTitleLines() throws {
        // A plain-text conversion: one file, chapter titles as paragraphs ending in a period, and
        // short one-line paragraphs of narration that must not be taken for headings.
        let chapters = ["I", "II", "III", "IV"].map { "<p>CHAPTER \($0).</p>\(prose(200))<p>He left.</p>\(prose(200))" }
        let book = MemoryBook(spine: [("novel.html", chapters.joined())], toc: [])
        let index = try SectionIndexer.index(book)
        #expect(index.sections.map(\.title) == ["CHAPTER I.", "CHAPTER II.", "CHAPTER III.", "CHAPTER IV."])
        #expect(index.sections.allSatisfy { $0.included })
    }

    @Test func aCoverThatHoldsTheWholeBookIsRead() throws {
        // The only TOC entry and a cover landmark point at the file where the whole text is.
        let book = MemoryBook(
            spine: [("book.xhtml", "<img src='c.jpg' alt='cover'/>\(prose(3000))")],
            toc: [entry("Cover", "book.xhtml")],
            landmarks: [EPUBLandmark(type: "cover", title: "Cover", target: EPUBLink(path: "book.xhtml"))])
        let section = try #require(try SectionIndexer.index(book).sections.first)
        #expect(section.included)
        #expect(section.role == .body)
        #expect(section.reasons.contains { $0.contains("too long for a cover") })
    }

    @Test func withoutATOCChaptersComeFromHeadingsInsideFiles() throws {
        let book = MemoryBook(
            spine: [
                ("a.xhtml", "<h2>One</h2>\(prose(200))<h2>Two</h2>\(prose(200))"),
                ("b.xhtml", "<h2>Three</h2>\(prose(200))<h3>A scene</h3>\(prose(50))<h2>Four</h2>\(prose(200))"),
            ],
            toc: [])
        let index = try SectionIndexer.index(book)
        #expect(index.sections.filter(\.included).map(\.title) == ["One", "Two", "Three", "Four"])
        #expect(wordsSkipped(index) == 0)
    }

    /// A book without TOC whose files have no headings, each with the `<title>` given.
    func headinglessBook(titles: [String]) -> MemoryBook { bookWithoutTOC(titles.map { ($0, prose(300)) }) }

    /// A book without TOC: each file's `<title>` and body.
    func bookWithoutTOC(_ files: [(title: String, body: String)]) -> MemoryBook {
        var book = MemoryBook(spine: files.indices.map { ("f\($0).xhtml", files[$0].body) }, toc: [])
        for (n, file) in files.enumerated() {
            book.files["f\(n).xhtml"] = book.files["f\(n).xhtml"]!.replacingOccurrences(
                of: "<title>A Test Book</title>", with: "<title>\(file.title)</title>")
        }
        return book
    }

    @Test func withoutATOCFilesNamedOnlyByTheirTitlesAreChapters() throws {
        // An epic cut into one file per chapter, the chapters named only in <title>; the third
        // chapter runs on into a second file of the same title.
        let titles = ["The Lake", "The Forest", "The Return", "The Return", "The Sea"]
        let index = try SectionIndexer.index(headinglessBook(titles: titles))
        #expect(index.sections.map(\.title) == ["The Lake", "The Forest", "The Return", "The Sea"])
        #expect(index.sections.map(\.words) == [300, 300, 600, 300])
        #expect(index.sections.allSatisfy { $0.included })
        #expect(index.sections[1].reasons.contains { $0.hasPrefix("a file with a title of its own") })
    }

    @Test func withoutATOCAPartsHeadingAloneInItsFileIsAReadPart() throws {
        // Each part opens with a file holding its heading only; its chapters are named by their titles.
        let index = try SectionIndexer.index(
            bookWithoutTOC([
                ("Lakes", "<h1>Lakes</h1>"), ("The Lake", prose(300)), ("The Shore", prose(300)),
                ("Seas", "<h1>Seas</h1>"), ("The Sea", prose(300)), ("The Storm", prose(300)),
            ]))
        #expect(index.sections.map(\.kind) == [.part, .chapter, .chapter, .part, .chapter, .chapter])
        #expect(index.sections.allSatisfy { $0.included })
    }

    @Test func filesThatRepeatTheBooksTitleOrAFewTitlesMakeNoChapters() throws {
        let repeated = try SectionIndexer.index(headinglessBook(titles: Array(repeating: "A Test Book", count: 5)))
        #expect(!repeated.sections.contains { $0.reasons.contains { $0.hasPrefix("a file with a title of its own") } })
        // Two of six files titled: the titles are not how this book names its chapters.
        let few = try SectionIndexer.index(
            headinglessBook(titles: [
                "Copyright", "A Test Book", "A Test Book",
                "A Test Book", "A Test Book", "Afterword",
            ]))
        #expect(!few.sections.contains { $0.reasons.contains { $0.hasPrefix("a file with a title of its own") } })
    }

    @Test func withoutATOCSubSectionsNestedUnderTheSameHeadingLevelAreNoChapters() throws {
        // Chapters and their sections are both `h2`: only the nesting of `<section>` tells them apart.
        func chapter(_ n: Int) -> String {
            "<section><h2>Chapter \(n)</h2>\(prose(100))<section><h2>A first matter</h2>\(prose(200))</section>"
                + "<section><h2>A second matter</h2>\(prose(200))</section></section>"
        }
        let book = MemoryBook(spine: (1...3).map { ("c\($0).xhtml", chapter($0)) }, toc: [])
        let index = try SectionIndexer.index(book)
        #expect(index.sections.map(\.title) == ["Chapter 1", "Chapter 2", "Chapter 3"])
        #expect(index.sections.map(\.words) == [508, 508, 508])  // with the headings
    }

    @Test func notesThatHoldMostOfAFileAndDoNotLookLikeNotesAreItsText() throws {
        // A producer that names every paragraph "footnote": the chapter is not a set of notes.
        let paragraphs = (1...6).map { _ in "<p class='footnote'>\(prose(100))</p>" }.joined()
        let misnamed = MemoryBook(
            spine: [("c1.xhtml", "<h1>One</h1>\(paragraphs)")], toc: [entry("One", "c1.xhtml")])
        #expect(try SectionIndexer.index(misnamed).sections.map(\.words) == [601])
        // Two short footnotes under a chapter stay notes; so does a list of notes the book marks,
        // longer than the chapter. A chapter of prose marked as footnotes is read.
        let noteList = (1...5).map { _ in "<li>\(prose(100))</li>" }.joined()
        let chapterText = (1...10).map { _ in "<p>\(prose(200))</p>" }.joined()
        let footnoted = MemoryBook(
            spine: [
                (
                    "c1.xhtml",
                    "<h1>One</h1>\(prose(300))<p class='footnote'>\(prose(20))</p><p class='footnote'>\(prose(20))</p>"
                ),
                ("c2.xhtml", "<h1>Two</h1>\(prose(100))<ol epub:type='footnotes'>\(noteList)</ol>"),
                ("c3.xhtml", "<section epub:type='footnotes'><h1>Three</h1>\(chapterText)</section>"),
            ],
            toc: [entry("One", "c1.xhtml"), entry("Two", "c2.xhtml"), entry("Three", "c3.xhtml")])
        // The list of notes is a section of its own, skipped as notes; the prose is read.
        let sections = try SectionIndexer.index(footnoted).sections
        #expect(sections.map(\.words) == [301, 101, 500, 2001])
        #expect(sections.map(\.included) == [true, true, false, true])
        #expect(sections[2].kind == .notes)
    }

    @Test func aPageBreakOrANavAroundAWholeChapterIsNoPageNumberAndNoContentsList() throws {
        func chapter(_ wrapped: (String) -> String) throws -> [Int] {
            let book = MemoryBook(
                spine: [("c1.xhtml", wrapped("<h1>One</h1>\(prose(300))<span class='pagenum'>[Pg 7]</span>"))],
                toc: [entry("One", "c1.xhtml")])
            return try SectionIndexer.index(book).sections.map(\.words)
        }
        // The page number itself stays unread; the chapter around it is read.
        #expect(try chapter { "<div class='page-break'>\($0)</div>" } == [301])
        #expect(try chapter { "<div epub:type='pagebreak'>\($0)</div>" } == [301])
        #expect(try chapter { "<nav>\($0)</nav>" } == [301])
        // A real contents list in a <nav>, longer than the chapter but all links, is still not read.
        let links = (1...100).map { "<li><a href='c1.xhtml#s\($0)'>Part \($0) of the story</a></li>" }.joined()
        #expect(try chapter { "<nav><ol>\(links)</ol></nav>\($0)" } == [301])
    }

    @Test func paragraphsEachInATableOfOneCellAreRead() throws {
        // A layout of boxes: every paragraph in a one-cell table. Short ones too are text, not data.
        let boxes = (1...8).map { _ in "<table><tr><td><p>\(prose(20))</p></td></tr></table>" }.joined()
        let book = MemoryBook(spine: [("c1.xhtml", "<h1>One</h1>\(boxes)")], toc: [entry("One", "c1.xhtml")])
        #expect(try SectionIndexer.index(book).sections.map(\.words) == [161])
    }

    @Test func aChapterAndItsMarkedFootnotesInsideAFootnotesNamedWrapperAreTextAndNotes() throws {
        let notes = (1...6).map { "<p id='n\($0)'>\($0). \(prose(10))</p>" }.joined()
        let body =
            "<div class='footnotes'><h1>One</h1>\(prose(300))<aside epub:type='footnotes'>\(notes)</aside></div>"
        let book = MemoryBook(spine: [("c1.xhtml", body)], toc: [entry("One", "c1.xhtml")])
        let sections = try SectionIndexer.index(book).sections
        #expect(sections.first?.words == 301)
        #expect(sections.first?.included == true)
    }

    @Test func aPageNumberHasANumberInIt() throws {
        // Verse lines a converter named "pagenum" are read; the page numbers among them are not.
        let lines = (1...12).map { _ in "<p class='pagenum'>\(prose(4, "song"))</p>" }.joined()
        let book = MemoryBook(
            spine: [("c1.xhtml", "<h1>One</h1>\(lines)<p class='pagenum'>[Pg 12]</p><p class='pagenum'>xii</p>")],
            toc: [entry("One", "c1.xhtml")])
        #expect(try SectionIndexer.index(book).sections.map(\.words) == [49])
    }

    @Test func aTOCThatOnlyReachesTheLicenceLeavesChaptersToParagraphHeadings() throws {
        // Chapter titles as paragraphs with a masked number ("第#回"), several per file.
        let chapter = { (n: String) in
            "<p>第\(n)回 山中</p>" + String(repeating: "<p>\(String(repeating: "天地玄黃", count: 20))。</p>", count: 8)
        }
        let book = MemoryBook(
            spine: [
                ("t1.xhtml", chapter("一") + chapter("二")), ("t2.xhtml", chapter("三") + chapter("四")),
                ("licence.xhtml", "<h1>Licence</h1>\(prose(300, "terms"))"),
            ],
            toc: [entry("Licence", "licence.xhtml")])
        let index = try SectionIndexer.index(book)
        #expect(index.sections.filter(\.included).map(\.title) == ["第一回 山中", "第二回 山中", "第三回 山中", "第四回 山中"])
        #expect(index.sections.last?.kind == .license)
        #expect(index.sections.last?.included == false)
    }

    @Test func generatedFileNamesCarryNoWeight() throws {
        // Every file is called index*: the word says nothing of any one of them.
        let book = MemoryBook(
            spine: [
                ("index.html", "<h1>A Tribute</h1><p>Edited by Someone.</p>"),
                ("index1.html", "<h1>An Essay</h1>\(prose(2000))"),
                ("index2.html", "<h1>Another Essay</h1>\(prose(2000))"),
                ("index3.html", "<h1>A Third Essay</h1>\(prose(2000))"),
            ],
            toc: [
                entry("A Tribute", "index.html"), entry("An Essay", "index1.html"),
                entry("Another Essay", "index2.html"),
                entry("A Third Essay", "index3.html"),
            ])
        let index = try SectionIndexer.index(book)
        #expect(index.sections.filter(\.included).map(\.title) == ["An Essay", "Another Essay", "A Third Essay"])
        #expect(!index.sections.contains { $0.kind == .index })
    }

    @Test func generatedIdsCarryNoWeight() throws {
        // calibre's anchors: every entry points at calibre_toc_N. "toc" names no section here, so
        // the chapters are read under their own names and the foreword before them stays a foreword.
        let titles = ["Foreword", "The Wind", "The Sea", "The Hill"]
        let text = titles.enumerated().map { "<h2 id='calibre_toc_\($0.offset + 1)'>\($0.element)</h2>\(prose(600))" }
        let book = MemoryBook(
            spine: [("index_split_000.html", text.joined())],
            toc: titles.enumerated().map { entry($0.element, "index_split_000.html#calibre_toc_\($0.offset + 1)") })
        let index = try SectionIndexer.index(book)
        #expect(index.sections.map(\.included) == [false, true, true, true])
        #expect(index.sections.first?.kind == .foreword)
        #expect(!index.sections.contains { $0.reasons.contains { $0.contains("calibre_toc") } })
    }

    @Test func anIdMadeFromItsEntrysLabelIsNoGeneratedId() {
        let generated = (1...3).map { entry("Chapter \($0)", "book.xhtml#calibre_toc_\($0)") }
        let fromLabels = ["Robert Frost", "Mary Shelley", "Jane Austen"].map {
            entry("About \($0)", "book.xhtml#about-" + $0.lowercased().replacingOccurrences(of: " ", with: "-"))
        }
        #expect(BookStatistics.commonTokens(ofFragmentsIn: generated + fromLabels) == ["calibre", "toc"])
    }

    @Test func aRealIndexFileStillCounts() throws {
        let entries = (1...40).map { "<p>term \($0), \($0 * 3)</p>" }.joined()
        let book = MemoryBook(
            spine: [("ch1.xhtml", "<h1>Chapter 1</h1>\(prose(2000))"), ("index.xhtml", "<h1>Index</h1>\(entries)")],
            toc: [entry("Chapter 1", "ch1.xhtml"), entry("Index", "index.xhtml")])
        let index = try SectionIndexer.index(book)
        #expect(index.sections.map(\.kind) == [.chapter, .index])
        #expect(index.sections.map(\.included) == [true, false])
    }

    @Test func aChapterOfProseTitledLikeAListIsRead() throws {
        // A short book: a chapter titled "Index" (a student's record book) between two chapters.
        // Contents lists and indexes are lists at any length; paragraphs of running prose are none.
        func book(_ middle: String) -> MemoryBook {
            MemoryBook(
                spine: [
                    ("c1.xhtml", "<h1>Chapter One</h1>\(prose(60))\(prose(50))"),
                    ("c2.xhtml", "<h1>Index</h1>\(middle)"),
                    ("c3.xhtml", "<h1>Chapter Two</h1>\(prose(55))\(prose(60))"),
                ],
                toc: [entry("Chapter One", "c1.xhtml"), entry("Index", "c2.xhtml"), entry("Chapter Two", "c3.xhtml")])
        }
        let story = try SectionIndexer.index(book(prose(40, "grade") + prose(35, "book") + prose(45, "page")))
        #expect(story.sections.map(\.included) == [true, true, true])
        #expect(story.sections[1].kind == .chapter)
        // An index of short entries, or one run into paragraphs of page numbers, is still one.
        let entries = (1...24).map { "<p>term \($0), \($0 * 3)</p>" }.joined()
        let runIn = (0..<3).map { p in
            "<p>" + (1...12).map { "entry\(p), \($0 * 7), \($0 * 9);" }.joined(separator: " ") + "</p>"
        }.joined()
        for list in [entries, runIn] {
            let index = try SectionIndexer.index(book(list))
            #expect(index.sections.map(\.kind) == [.chapter, .index, .chapter])
            #expect(index.sections.map(\.included) == [true, false, true])
        }
    }

    /// A book whose last pages are titled `title` and hold `body`, after a chapter of 5,000 words.
    func bookEndingIn(_ title: String, _ body: String) -> MemoryBook {
        MemoryBook(
            spine: [("ch1.xhtml", "<h1>Chapter 1</h1>\(prose(5000))"), ("end.xhtml", "<h1>\(title)</h1>\(body)")],
            toc: [entry("Chapter 1", "ch1.xhtml"), entry(title, "end.xhtml")])
    }

    /// A poem of `lines` lines of six words, titled `title`, for a file of its own.
    func poem(_ title: String, lines: Int) -> String {
        "<h2>\(title)</h2>" + (0..<lines).map { "<p>the wind over the hill \($0)</p>" }.joined()
    }

    @Test func shortPoemsInABookOfShortPoemsAreAllRead() throws {
        // Poems of 20 to 70 words: "very short" and "before the first chapter" mean nothing here.
        // Some are numbered ("IV"): those stand out as the book's chapters, the others must not
        // be taken for front matter before them or between them.
        let titles = [
            "Evening", "The Hill", "Snow", "IV", "Night Rain", "The Well", "Harvest", "VIII", "Frost", "The Mill",
            "Swallows", "XII", "The Ford", "Winter", "Embers", "XVI",
        ]
        let lengths = [4, 8, 3, 12, 6, 10, 7, 9, 11, 6, 8, 12, 5, 9, 7, 10]
        let poems = zip(titles, lengths).enumerated().map {
            ("p\($0.offset).xhtml", poem($0.element.0, lines: $0.element.1))
        }
        let book = MemoryBook(
            spine: [("title.xhtml", "<p>Short Poems</p>")] + poems,
            toc: zip(titles, poems).map { entry($0.0, $0.1.0) })
        let index = try SectionIndexer.index(book)
        let poemSections = index.sections.filter { titles.contains($0.title) }
        #expect(poemSections.count == titles.count)
        #expect(poemSections.allSatisfy { $0.included })
    }

    /// A book of poems, each in a file of its own and listed in the TOC, after a title page.
    func bookOfPoems(_ poems: [(title: String, lines: Int)]) -> MemoryBook {
        let files = poems.enumerated().map { ("p\($0.offset).xhtml", poem($0.element.title, lines: $0.element.lines)) }
        return MemoryBook(
            spine: [("title.xhtml", "<p>Poems</p>")] + files,
            toc: zip(poems, files).map { entry($0.0.title, $0.1.0) })
    }

    @Test func poemsTitledLikeFrontOrBackMatterAmongPoemsAreRead() throws {
        // Poets title poems "Index" or "Dedication": among poems of the same length, the title
        // alone does not make one front or back matter.
        let titles = [
            "Evening", "The Hill", "Index", "Snow", "Night Rain", "Dedication", "The Well", "Acknowledgments",
        ]
        let titled = titles.map { (title: $0, lines: 8) } + [(title: "Harvest", lines: 9), (title: "Frost", lines: 7)]
        let index = try SectionIndexer.index(bookOfPoems(titled))
        let poems = index.sections.dropFirst()  // the title page
        #expect(poems.map(\.title) == titled.map(\.title))
        #expect(poems.filter { !$0.included }.map(\.title) == [])
    }

    /// An anthology: a short copyright page, then stories of `lengths` words, each in a file of
    /// its own; the stories numbered in `permissions` open with their permission line.
    func anthology(_ lengths: [Int], permissions: Set<Int>) -> MemoryBook {
        let line = "<p>First published in The Harbour Review. Copyright © 1962 by Ann Lee. All rights reserved.</p>"
        let titles = ["Low Tide", "The Lamp", "Wild Plums", "The Ferry", "Evening Tide", "Salt"]
        let stories = lengths.enumerated().map { n, words in
            ("s\(n).xhtml", "<h1>\(titles[n])</h1>" + (permissions.contains(n) ? line : "") + prose(words))
        }
        let copyright =
            "<h1>Copyright</h1><p>Copyright © 2024 Harbour Press. All rights reserved.</p><p>ISBN 978-0-00-000000-0</p>"
        return MemoryBook(
            spine: [("copyright.xhtml", copyright)] + stories,
            toc: [entry("Copyright", "copyright.xhtml")]
                + stories.map { entry(String($0.1.dropFirst(4).prefix(7)), $0.0) })
    }

    @Test func storiesThatOpenWithTheirPermissionLineAreRead() throws {
        // Every story carries its notice, the first one is the shortest: none is a copyright page.
        let index = try SectionIndexer.index(anthology([280, 600, 650, 700, 620], permissions: [0, 1, 2, 3, 4]))
        #expect(index.sections.map(\.included) == [false, true, true, true, true, true])
        #expect(index.sections.first?.kind == .copyright)
    }

    @Test func aShortStoryWithAPermissionLineAmongStoriesIsRead() throws {
        // A page's worth of words under a notice, between stories read: a story, not a copyright page.
        let index = try SectionIndexer.index(anthology([400, 350, 200, 380, 360], permissions: [2]))
        #expect(index.sections.map(\.included) == [false, true, true, true, true, true])
    }

    @Test func pagesNamedLikeMatterThatRepeatInEveryUnitAreRead() throws {
        // A course in units: each opens with pages titled "Introduction" and "Notes" (lecture notes
        // in prose), then "Exercises" and "Summary". Two such pages stand together between chapters;
        // the first unit's, before any chapter, are titled as the others.
        let pages = ["Introduction", "Notes", "Exercises", "Summary"]
        let files = (1...3).flatMap { unit in
            pages.map { ("u\(unit)-\($0.lowercased()).xhtml", "<h1>\($0)</h1>\(prose(900))\(prose(100))") }
        }
        let book = MemoryBook(
            spine: [("title.xhtml", "<p>A Course</p>")] + files,
            toc: files.map { entry(String($0.1.dropFirst(4).prefix { $0 != "<" }), $0.0) })
        let index = try SectionIndexer.index(book)
        let units = index.sections.filter { pages.contains($0.title) }
        #expect(units.count == 12)
        #expect(units.allSatisfy { $0.included })
        // Front matter titled once, before the units, is still front matter.
        let withPreface = MemoryBook(
            spine: [("preface.xhtml", "<h1>Preface</h1>\(prose(900))")] + files,
            toc: [entry("Preface", "preface.xhtml")]
                + files.map { entry(String($0.1.dropFirst(4).prefix { $0 != "<" }), $0.0) })
        let preface = try #require(try SectionIndexer.index(withPreface).sections.first)
        #expect(preface.kind == .preface)
        #expect(!preface.included)
    }

    @Test func chaptersAllTitledLikeMatterAreReadEvenWhenOneIsTold() throws {
        // Every chapter is titled like back matter. The prose of "Index" shows it is no list, so
        // not everything would be skipped; the others still outweigh what is read: read them all.
        let titles = ["Sources", "Symbols", "Index", "Credits", "Glossary"]
        let files = titles.map { ("\($0.lowercased()).xhtml", "<h1>\($0)</h1>\(prose(150))\(prose(140))") }
        let copyright = "<h1>Copyright</h1><p>Copyright © 2024 A Press. All rights reserved.</p><p>ISBN 978-0-00</p>"
        let book = MemoryBook(
            spine: [("copyright.xhtml", copyright)] + files,
            toc: [entry("Copyright", "copyright.xhtml")] + zip(titles, files).map { entry($0.0, $0.1.0) })
        let index = try SectionIndexer.index(book)
        #expect(index.sections.map(\.included) == [false, true, true, true, true, true])
        #expect(index.sections.first?.kind == .copyright)
        #expect(index.warnings.contains { $0.message.contains("more named so are read too") })
    }

    @Test func chaptersAllTitledLikeMatterAreReadWhenEveryOneReadIsReadDespiteItsName() throws {
        // Prose under "Index" and "Notes" is read for its shape; the chapters before and after
        // them, titled "Credits" and "Glossary", hold no more words, and no chapter has a name
        // that tells the text from its matter: all are read.
        let titles = ["Credits", "Index", "Notes", "Glossary"]
        let files = titles.map { ("\($0.lowercased()).xhtml", "<h1>\($0)</h1>\(prose(150))\(prose(140))") }
        let index = try SectionIndexer.index(
            MemoryBook(spine: files, toc: zip(titles, files).map { entry($0.0, $0.1.0) }))
        #expect(index.sections.map(\.included) == [true, true, true, true])
        #expect(index.warnings.contains { $0.message.contains("2 more named so are read too") })
    }

    @Test func anEssayNamedLikeMatterAmongOthersReadAsEssaysIsRead() throws {
        // Essays titled "Colophon" and "Index" are read among the others (their place, their
        // prose); so is the next one titled "About the Author", between essays. Acknowledgements
        // after the last essay are back matter still.
        let titles = [
            "Walking", "Rivers", "Colophon", "Harbours", "Index", "About the Author", "Evening", "Acknowledgments",
        ]
        let index = try SectionIndexer.index(essays(titles))
        #expect(index.sections.map(\.included) == Array(repeating: true, count: titles.count - 1) + [false])
        #expect(index.sections.last?.kind == .acknowledgments)
        // One more ("About the Author"): the message says so in the singular.
        #expect(index.warnings.contains { $0.message.contains("1 more named so is read too") })
    }

    /// A collection of essays titled `titles`, each in a file of its own and listed in the TOC, of
    /// 700 words (short enough for an "About the Author" page: only the names can mislead).
    func essays(_ titles: [String]) -> MemoryBook {
        let files = titles.map { title in
            ("\(title.prefix(5).lowercased()).xhtml", "<h1>\(title)</h1>\(prose(350))\(prose(350))")
        }
        return MemoryBook(spine: files, toc: zip(titles, files).map { entry($0.0, $0.1.0) })
    }

    @Test func asManyEssaysNamedLikeMatterAsReadOnesAreRead() throws {
        // Two essays read despite their names ("Colophon" among the essays, "Index" in prose), and
        // two more named like matter between them and the last essay read: as many misleading names
        // as names alone would skip. The acknowledgements after the last essay stay back matter.
        let titles = [
            "Walking", "Rivers", "Colophon", "Harbours", "Index", "About the Author", "Acknowledgment of Debt",
            "Evening", "Acknowledgments",
        ]
        let index = try SectionIndexer.index(essays(titles))
        #expect(index.sections.map(\.included) == Array(repeating: true, count: titles.count - 1) + [false])
        #expect(index.sections.last?.kind == .acknowledgments)
        #expect(index.warnings.contains { $0.message.contains("2 more named so are read too") })
    }

    @Test func aPictureBooksColophonIsStillAColophon() throws {
        // Pages of pictures described in their alt text, then a page about the book that holds more
        // words than the pages' own text: one section named like matter is no misleading name.
        let alt = Array(repeating: "a girl on a bicycle", count: 5).joined(separator: " and ")
        let pages = (1...8).map { ("p\($0).xhtml", "<div><img src='p\($0).jpg' alt='\(alt)'/></div>") }
        let about = ("about.xhtml", "<h1>Colophon</h1>\(prose(80))\(prose(70))")
        let book = MemoryBook(
            spine: pages + [about],
            toc: pages.enumerated().map { entry("Page \($0.offset + 1)", $0.element.0) } + [
                entry("Colophon", "about.xhtml")
            ])
        let last = try #require(try SectionIndexer.index(book).sections.last)
        #expect(last.kind == .colophon)
        #expect(!last.included)
    }

    @Test(arguments: ["1 Introduction", "1. Introduction"])
    func aFirstChapterNumberedLikeTheOthersIsRead(first: String) throws {
        // bookdown, Quarto and Sphinx number every chapter: "1 Introduction" is the first of them.
        let titles = [first, "2 Methods", "3 Results", "4 Discussion"]
        let files = titles.enumerated().map { ("c\($0.offset).xhtml", "<h1>\($0.element)</h1>\(prose(900))") }
        let book = MemoryBook(
            spine: [("preface.xhtml", "<h1>Preface</h1>\(prose(400))")] + files,
            toc: [entry("Preface", "preface.xhtml")] + zip(titles, files).map { entry($0.0, $0.1.0) })
        let index = try SectionIndexer.index(book)
        #expect(index.sections.map(\.included) == [false, true, true, true, true])
        // Unnumbered, an introduction after the preface is still an introduction.
        let introductionFile = ("c0.xhtml", "<h1>Introduction</h1>\(prose(900))")
        let unnumbered = MemoryBook(
            spine: [("preface.xhtml", "<h1>Preface</h1>\(prose(400))"), introductionFile] + files.dropFirst(),
            toc: [entry("Preface", "preface.xhtml"), entry("Introduction", "c0.xhtml")]
                + zip(titles, files).dropFirst().map { entry($0.0, $0.1.0) })
        let introduction = try SectionIndexer.index(unnumbered).sections[1]
        #expect(introduction.kind == .introduction)
        #expect(!introduction.included)
    }

    @Test func chaptersNumberedInTheRunOfTheChaptersAreReadWhateverTheirMarks() throws {
        // An exporter typed chapter 1 `frontmatter preface`, chapter 4 `appendix` in a file named
        // appendix.xhtml, and chapter 5 `backmatter afterword`, labelled "Afterword" in the TOC (its
        // heading gives the number). A DocBook book numbers its contributors on as chapter 6.
        func chapter(_ n: Int, type: String = "chapter") -> String {
            "<section epub:type='\(type)'><h1>Chapter \(n)</h1>\(prose(600))</section>"
        }
        let files = [
            ("c1.xhtml", chapter(1, type: "frontmatter preface")), ("c2.xhtml", chapter(2)), ("c3.xhtml", chapter(3)),
            ("appendix.xhtml", chapter(4, type: "appendix")), ("c5.xhtml", chapter(5, type: "backmatter afterword")),
            ("c6.xhtml", "<section epub:type='backmatter'><h1>Chapter 6. Contributors</h1>\(prose(300))</section>"),
        ]
        let titles = (1...4).map { "Chapter \($0)" } + ["Afterword", "Chapter 6. Contributors"]
        let book = MemoryBook(spine: files, toc: zip(titles, files).map { entry($0.0, $0.1.0) })
        let index = try SectionIndexer.index(book)
        #expect(index.sections.map(\.included) == [true, true, true, true, true, false])
        #expect(index.sections[0].reasons.first == "numbered 1, as the chapters after it (2, 3) → text")
        #expect(index.sections[3].reasons.first == "numbered 4, as the chapters before it (2, 3) → text")
        #expect(index.sections[4].reasons.first == "numbered 5, as the chapters before it (3, 4) → text")
        // Between: one chapter each side.
        let middle = MemoryBook(
            spine: [
                ("c1.xhtml", chapter(1)), ("appendix.xhtml", chapter(2, type: "appendix")), ("c3.xhtml", chapter(3)),
            ],
            toc: [entry("Chapter 1", "c1.xhtml"), entry("Chapter 2", "appendix.xhtml"), entry("Chapter 3", "c3.xhtml")])
        let between = try SectionIndexer.index(middle).sections[1]
        #expect(between.included && between.reasons.first == "numbered 2, between chapters 1 and 3 → text")
    }

    @Test(
        arguments: [
            ("Chapter 5", 5), ("CHAPTER XIV", 14), ("Chapter Twenty-One", 21), ("Chapitre 3", 3), ("Kapitel 8", 8),
            ("Capítulo 1", 1), ("Глава 3", 3), ("第五章", 5), ("第二十一回 心猿", 21), ("第一百零五章", 105), ("IV", 4),
            ("第一一回 遊地府", 11), ("第一〇回", 10), ("第〇〇回", nil),
            ("12. Methods", 12), ("Chapter", nil), ("Chapter the Last", nil), ("Mix", 1_009), ("Did", nil),
            ("Chapterhouse 5", nil), ("Preface", nil),
        ] as [(String, Int?)])
    func chapterNumbersInTitles(title: String, number: Int?) {
        #expect(ChapterNumbers.number(inTitle: title) == number)
    }

    @Test(
        arguments: [
            ("Poem 6", "poem", 6), ("Canto III", "canto", 3), ("Letter 12.", "letter", 12), ("Chapter 5", "chapter", 5),
            ("IV", "chapter", 4), ("Poem", nil, nil), ("Poem Six", nil, nil), ("The Poem 6", nil, nil),
            ("A 6", nil, nil),
        ] as [(String, String?, Int?)])
    func numberingsInTitles(title: String, label: String?, number: Int?) {
        let numbering = ChapterNumbers.numbering(inTitle: title)
        #expect(numbering?.label == label && numbering?.number == number)
    }

    @Test func twoLevelNumberingsRunOnOrStartAgainUnderTheNext() throws {
        let scene = try #require(ChapterNumbers.numbering(inTitle: "Act II, Scene 3"))
        #expect(scene == .init(label: "act scene", outer: 2, number: 3))
        func follows(_ a: String, _ b: String) -> Bool {
            guard let a = ChapterNumbers.numbering(inTitle: a), let b = ChapterNumbers.numbering(inTitle: b) else {
                return false
            }
            return a.isFollowed(by: b)
        }
        #expect(follows("Act II, Scene 3", "Act II, Scene 4") && follows("Act II, Scene 3", "Act III, Scene 1"))
        #expect(!follows("Act II, Scene 3", "Act III, Scene 2") && !follows("Act II, Scene 3", "Act II, Scene 5"))
        #expect(!follows("Act II, Scene 3", "Book II, Scene 4") && follows("Poem 4", "Poem 5"))
    }

    @Test func scenesNumberedInThePlaysRunAreRead() throws {
        // Two scenes an act; the book marks the first scene a preface, one an appendix, the last a colophon.
        let scenes = (1...3).flatMap { act in (1...2).map { (act, $0) } }
        let roman = ["I", "II", "III"]
        let types = ["1.1": "preface", "2.2": "appendix", "3.2": "colophon"]
        let files = scenes.map { act, scene in
            let type = types["\(act).\(scene)"] ?? "chapter"
            return (
                "s\(act)\(scene).xhtml",
                "<section epub:type='\(type)'><h2>Act \(roman[act - 1]), Scene \(scene)</h2>\(prose(120))</section>"
            )
        }
        let book = MemoryBook(
            spine: files, toc: scenes.map { entry("Act \(roman[$0.0 - 1]), Scene \($0.1)", "s\($0.0)\($0.1).xhtml") })
        let index = try SectionIndexer.index(book)
        #expect(index.sections.allSatisfy { $0.included }, "\(index.sections.map { ($0.title, $0.reasons) })")
        #expect(
            index.sections[0].reasons.first == "numbered 1.1, as the \"act scene\" sections after it (1.2, 2.1) → text")
    }

    /// Eight poems "Poem N" of a few lines, the book's marks on two of them wrong.
    func numberedPoems(title: (Int) -> String, type: (Int) -> String) -> MemoryBook {
        let files = (1...8).map { n in
            let lines = (1...4).map { "<p>line \($0) of the poem that is number \(n) here</p>" }.joined()
            return ("p\(n).xhtml", "<section epub:type='\(type(n))'><h2>\(title(n))</h2>\(lines)</section>")
        }
        return MemoryBook(spine: files, toc: (1...8).map { entry(title($0), "p\($0).xhtml") })
    }

    @Test func poemsNumberedInTheRunOfThePoemsAreRead() throws {
        // "Poem 4" marked as an appendix between poems 3 and 5, "Poem 8" marked as a colophon after 6 and 7.
        let types = [4: "appendix", 8: "colophon"]
        let book = numberedPoems(title: { "Poem \($0)" }, type: { types[$0] ?? "chapter" })
        let index = try SectionIndexer.index(book)
        #expect(index.sections.allSatisfy { $0.included })
        #expect(index.sections[3].reasons.first == "numbered 4, as the \"poem\" sections after it (5, 6) → text")
        #expect(index.sections[7].reasons.first == "numbered 8, as the \"poem\" sections before it (6, 7) → text")
        // Another label does not continue the run: "Fragment 4" among the poems keeps its mark.
        let mixed = numberedPoems(title: { $0 == 4 ? "Fragment 4" : "Poem \($0)" }, type: { types[$0] ?? "chapter" })
        let fragment = try SectionIndexer.index(mixed).sections[3]
        #expect(!fragment.included, "\(fragment.reasons)")
    }

    @Test func chaptersAnExporterMarkedAsAppendicesAreRead() throws {
        // Every chapter after the first carries epub:type="appendix"; their titles say "Chapter".
        let names = ["I", "II", "III", "IV"]
        let files = names.enumerated().map { n, name in
            let type = n == 0 ? "chapter" : "appendix"
            return ("c\(n).xhtml", "<section epub:type='\(type)'><h1>Chapter \(name)</h1>\(prose(800))</section>")
        }
        let appendix = ("a.xhtml", "<section epub:type='appendix'><h1>Appendix</h1>\(prose(300))</section>")
        let book = MemoryBook(
            spine: files + [appendix],
            toc: names.enumerated().map { entry("Chapter \($0.element)", "c\($0.offset).xhtml") } + [
                entry("Appendix", "a.xhtml")
            ])
        let index = try SectionIndexer.index(book)
        #expect(index.sections.map(\.included) == [true, true, true, true, false])
        #expect(index.sections.last?.kind == .appendix)
    }

    @Test(arguments: [
        ("nl", "Voorwoord", "Nawoord", "Dankwoord"), ("pl", "Przedmowa", "Posłowie", "Podziękowania"),
        ("da", "Forord", "Efterord", "Taksigelser"), ("sv", "Förord", "Efterord", "Noter"),
        ("fi", "Esipuhe", "Jälkisanat", "Kiitokset"),
    ])
    func frontAndBackMatterTitledInOtherLanguagesHaveTheirKinds(
        language: String, preface: String, afterword: String, last: String
    ) throws {
        let chapters = (1...3).map { ("c\($0).xhtml", "<h1>\($0)</h1>\(prose(2000))") }
        let files =
            [("p.xhtml", "<h1>\(preface)</h1>\(prose(300))")] + chapters
            + [("a.xhtml", "<h1>\(afterword)</h1>\(prose(300))"), ("t.xhtml", "<h1>\(last)</h1>\(prose(120))")]
        let book = MemoryBook(
            spine: files, toc: files.map { entry(String($0.1.dropFirst(4).prefix { $0 != "<" }), $0.0) },
            language: language, documentLanguage: language)
        let kinds = try SectionIndexer.index(book).sections.map(\.kind)
        let lastKind: SectionKind = language == "sv" ? .notes : .acknowledgments
        #expect(kinds == [.preface, .chapter, .chapter, .chapter, .afterword, lastKind])
    }

    @Test func aCoverEntryAtTheFirstChapterNeitherTitlesNorSkipsIt() throws {
        // A producer's slip: the TOC's "Cover" points at a short first chapter, as "Chapter 1" does.
        let chapters =
            [("c1.xhtml", "<h1>1</h1>\(prose(80))")] + (2...3).map { ("c\($0).xhtml", "<h1>\($0)</h1>\(prose(1000))") }
        let book = MemoryBook(
            spine: chapters,
            toc: [
                entry("Cover", "c1.xhtml"), entry("Chapter 1", "c1.xhtml"), entry("Chapter 2", "c2.xhtml"),
                entry("Chapter 3", "c3.xhtml"),
            ])
        let index = try SectionIndexer.index(book)
        #expect(index.sections.map(\.title) == ["Chapter 1", "Chapter 2", "Chapter 3"])
        #expect(index.sections.allSatisfy { $0.included })
    }

    @Test func notesAfterEachChapterStayNotes() throws {
        // Notes placed after each chapter, as long as a chapter: their numbered entries say what they are.
        let notes = (1...30).map { "<p>\($0). See the letter of the year \(1800 + $0), kept in the town archive.</p>" }
        let files = (1...4).flatMap { n in
            [("c\(n).xhtml", "<h1>Chapter \(n)</h1>\(prose(900))"), ("n\(n).xhtml", "<h1>Notes</h1>" + notes.joined())]
        }
        let book = MemoryBook(
            spine: files, toc: files.map { entry(String($0.1.dropFirst(4).prefix { $0 != "<" }), $0.0) })
        let index = try SectionIndexer.index(book)
        #expect(index.sections.map(\.included) == [true, false, true, false, true, false, true, false])
        #expect(index.sections.filter { !$0.included }.allSatisfy { $0.kind == .notes })
    }

    /// Three short chapters, the middle one titled `title` and holding `middle`.
    func threeChapters(middleTitled title: String, _ middle: String) -> MemoryBook {
        let files = [
            ("c1.xhtml", "<h1>The House</h1>\(prose(50))\(prose(50))\(prose(50))"),
            ("c2.xhtml", "<h1>\(title)</h1>\(middle)"),
            ("c3.xhtml", "<h1>The Garden</h1>\(prose(50))\(prose(50))\(prose(50))"),
        ]
        return MemoryBook(
            spine: files,
            toc: [entry("The House", "c1.xhtml"), entry(title, "c2.xhtml"), entry("The Garden", "c3.xhtml")])
    }

    @Test func aChapterOfProseTitledLikeNotesIsRead() throws {
        // Italian "Note" is notes and also musical notes: 150 words of paragraphs that nothing
        // numbers, marks or links to are a chapter.
        let index = try SectionIndexer.index(threeChapters(middleTitled: "Note", prose(50) + prose(50) + prose(50)))
        #expect(index.sections.map(\.included) == [true, true, true])
        #expect(index.sections[1].reasons.first?.contains("no entry numbered, dated or referred to") == true)
    }

    /// A copyright page of short lines, then `opening` labelled "Copyright" by the TOC (its heading a
    /// styled paragraph), then two chapters.
    func copyrightLabelledOpening(_ opening: String) -> MemoryBook {
        let files = [
            ("rights.xhtml", "<p>© 2024 A. Writer</p><p>All rights reserved.</p><p>Printed in Ruritania.</p>"),
            ("c1.xhtml", "<p class=\"chapter-title\">One Morning</p>\(opening)"),
            ("c2.xhtml", "<h1>Chapter 2</h1>\(prose(50))\(prose(50))\(prose(50))"),
            ("c3.xhtml", "<h1>Chapter 3</h1>\(prose(50))\(prose(50))\(prose(50))"),
        ]
        return MemoryBook(
            spine: files,
            toc: [
                entry("Copyright", "rights.xhtml"), entry("Copyright", "c1.xhtml"), entry("Chapter 2", "c2.xhtml"),
                entry("Chapter 3", "c3.xhtml"),
            ])
    }

    @Test func aChapterOfProseLabelledCopyrightIsRead() throws {
        // The TOC says "Copyright" twice; the second holds three paragraphs stating no rights.
        let index = try SectionIndexer.index(copyrightLabelledOpening(prose(50) + prose(50) + prose(50)))
        #expect(index.sections.map(\.included) == [false, true, true, true])
        #expect(index.sections[0].kind == .copyright)
        #expect(index.sections[1].reasons.contains { $0.contains("stating no copyright, rights or publisher") })
    }

    @Test func aCopyrightPageInProseThatSaysSoStaysSkipped() throws {
        // The same place and size, but the paragraphs reserve the rights: a copyright page.
        let rights = "<p>" + Array(repeating: "text", count: 40).joined(separator: " ") + " all rights reserved.</p>"
        let index = try SectionIndexer.index(copyrightLabelledOpening(rights + prose(50) + prose(50)))
        #expect(index.sections.map(\.included) == [false, false, true, true])
        #expect(index.sections[1].kind == .copyright)
    }

    @Test func aFewNumberedNotesInProseStayNotes() throws {
        // Three notes of fifty words, numbered in their text: too few for a list's shape, notes all the same.
        let notes = (1...3).map {
            "<p>\($0). " + Array(repeating: "remark", count: 49).joined(separator: " ") + ".</p>"
        }
        let index = try SectionIndexer.index(threeChapters(middleTitled: "Notes", notes.joined()))
        #expect(index.sections.map(\.included) == [true, false, true])
        #expect(index.sections[1].kind == .notes)
    }

    @Test func anAppendixBetweenChaptersStaysAnAppendix() throws {
        // A first volume's appendix, then the second volume's chapters, numbered on.
        let chapters = (1...6).map { ("c\($0).xhtml", "<h1>Chapter \($0)</h1>\(prose(1200))") }
        let files = chapters.prefix(3) + [("a.xhtml", "<h1>Appendix A</h1>\(prose(1200))")] + chapters.suffix(3)
        let book = MemoryBook(spine: Array(files), toc: files.map { entry(String($0.1.dropFirst(4).prefix(10)), $0.0) })
        let index = try SectionIndexer.index(book)
        #expect(index.sections.map(\.kind) == [.chapter, .chapter, .chapter, .appendix, .chapter, .chapter, .chapter])
    }

    @Test func aPrefaceAtTheEdgeOfTheChaptersIsStillAPreface() throws {
        // A page of prose before the preface is read (nothing says what it is); the preface is as
        // long as a chapter, but it stands at the chapters' edge, not among them.
        let chapters = (1...5).map { ("c\($0).xhtml", "<h1>Chapter \($0)</h1>\(prose(1200))") }
        let book = MemoryBook(
            spine: [
                ("opening.xhtml", "<h1>A Word</h1>\(prose(900))"), ("preface.xhtml", "<h1>Preface</h1>\(prose(1200))"),
            ]
                + chapters,
            toc: [entry("A Word", "opening.xhtml"), entry("Preface", "preface.xhtml")]
                + chapters.map { entry(String($0.1.dropFirst(4).prefix(9)), $0.0) })
        let index = try SectionIndexer.index(book)
        #expect(index.sections.map(\.title).prefix(3) == ["A Word", "Preface", "Chapter 1"])
        #expect(index.sections[1].kind == .preface)
        #expect(!index.sections[1].included)
    }

    @Test func aShortUntitledPageBeforeAPlaysLongActsIsStillFrontMatter() throws {
        // Many small pages before four long acts: the typical section is an act, not a page.
        let pages = (0..<6).map {
            ("front\($0).xhtml", "<p>\(Array(repeating: "Theatre", count: 20 + $0).joined(separator: " "))</p>")
        }
        let acts = (1...4).map { ("act\($0).xhtml", "<h2>Act \($0)</h2>\(prose(3000))") }
        let book = MemoryBook(
            spine: [("title.xhtml", "<p>A Play in Four Acts</p><p>by Someone</p>")] + pages + acts,
            toc: acts.map { entry(String($0.1.dropFirst(4).prefix(5)), $0.0) })
        let index = try SectionIndexer.index(book)
        #expect(index.sections.filter(\.included).map(\.title) == ["Act 1", "Act 2", "Act 3", "Act 4"])
    }

    @Test func aPoemsTitleAndFirstLineCutIntoAFileOfTheirOwnAreReadWithThePoem() throws {
        // A converter's split: the title and one line in one file, the rest of the canto in the
        // next, which no TOC entry reaches; the first file alone is short and comes first.
        let canto = (0..<180).map { "<p>the words of the canto \($0)</p>" }.joined()
        let book = MemoryBook(
            spine: [
                ("split0.html", "<h2>First Canto</h2><p>I begin my song</p>"), ("split1.html", canto),
                ("split2.html", "<h2>Second Canto</h2>\(canto)"), ("split3.html", "<h2>Third Canto</h2>\(canto)"),
            ],
            toc: [
                entry("First Canto", "split0.html"), entry("Second Canto", "split2.html"),
                entry("Third Canto", "split3.html"),
            ])
        let index = try SectionIndexer.index(book)
        let first = try #require(index.sections.first)
        #expect(first.included)
        #expect(first.spine == ["split0.html", "split1.html"])
    }

    @Test func aPostscriptAfterTheLastChapterIsRead() throws {
        let index = try SectionIndexer.index(bookEndingIn("Postscript", prose(1900)))
        #expect(index.sections.map(\.kind) == [.chapter, .epilogue])
        #expect(index.sections.allSatisfy { $0.included })
    }

    @Test func backMatterTheNavigationLeavesOutIsNotReadWithTheLastChapter() throws {
        // The navigation lists the chapters only; the author's page after the last one opens with
        // a heading written as a paragraph of a class of its own.
        let book = MemoryBook(
            spine: [
                ("c1.xhtml", "<h1>Chapter 1</h1>\(prose(3000))"), ("c2.xhtml", "<h1>Chapter 2</h1>\(prose(3000))"),
                ("about.xhtml", "<p class='BM-Head'>About the Author</p>\(prose(90))<p>She lives by the sea.</p>"),
            ],
            toc: [entry("Chapter 1", "c1.xhtml"), entry("Chapter 2", "c2.xhtml")])
        let index = try SectionIndexer.index(book)
        #expect(index.sections.map(\.kind) == [.chapter, .chapter, .aboutAuthor])
        #expect(index.sections.map(\.included) == [true, true, false])
        #expect(index.sections[1].words == 3002)
    }

    @Test func notesOneAFileTheNavigationLeavesOutStayWithTheirNotes() throws {
        // calibre's split: each note in a file of its own, opening with its number and a link back.
        let notes = (2...4).map {
            (
                "n\($0).xhtml",
                "<dl><dt id='fn\($0)'>[<a href='c1.xhtml#ref\($0)'>←\($0)</a> ]</dt>"
                    + "<dd><p>The annotator remarks on word \($0) here.</p></dd></dl>"
            )
        }
        let book = MemoryBook(
            spine: [("c1.xhtml", "<h1>Chapter 1</h1>\(prose(3000))"), ("n1.xhtml", "<h1>Notes</h1><p>[1] A note.</p>")]
                + notes,
            toc: [entry("Chapter 1", "c1.xhtml"), entry("Notes", "n1.xhtml")])
        let index = try SectionIndexer.index(book)
        #expect(index.sections.map(\.kind) == [.chapter, .notes])
        #expect(index.sections.map(\.included) == [true, false])
    }

    /// A chapter of `words` words whose text refers, by bare numbers, to `notes` in their files.
    func chapterReferring(to notes: [(file: String, id: String)], words: Int = 3000) -> String {
        let references = notes.enumerated().map {
            "<p>A sentence.<a href='\($0.element.file)#\($0.element.id)'>\($0.offset + 1)</a></p>"
        }
        return "<h1>Chapter 1</h1>\(prose(words))" + references.joined()
    }

    @Test func notesInFilesOfTheirOwnThatTheTextRefersToAreNotes() throws {
        // calibre's split of a converted document: each note a file, titled by its number.
        let targets = (1...4).map { (file: "n\($0).xhtml", id: "fn\($0)") }
        let notes = targets.enumerated().map {
            ($0.element.file, "<p id='\($0.element.id)'>\($0.offset + 1). The annotator remarks on it here.</p>")
        }
        let book = MemoryBook(
            spine: [("c1.xhtml", chapterReferring(to: targets))] + notes,
            toc: [entry("Chapter 1", "c1.xhtml")] + notes.enumerated().map { entry("\($0.offset + 1)", $0.element.0) })
        let index = try SectionIndexer.index(book)
        #expect(index.sections.map(\.kind) == [.chapter, .notes, .notes, .notes, .notes])
        #expect(index.sections.map(\.included) == [true, false, false, false, false])
    }

    @Test func numberedLinksOfAPageListAContentsPageOrANotesBackLinkMakeNoNotes() throws {
        // Short poems that numbered links point at: from a page list in a <nav>, from a printed
        // contents list, and back from the notes after them. Every poem is read.
        let poems = (1...3).map {
            (
                "p\($0).xhtml",
                "<h2>Poem \($0)</h2><p id='pg\($0)'>the wind over the hill and the sea</p>"
                    + String(repeating: "<p>the wind over the hill and the sea</p>", count: 4)
            )
        }
        let links = poems.enumerated().map {
            "<p><a href='\($0.element.0)#pg\($0.offset + 1)'>\($0.offset + 1)</a></p>"
        }
        let book = MemoryBook(
            spine: [
                (
                    "pages.xhtml",
                    "<nav epub:type='page-list'>\(links.joined())</nav>\(prose(100))"
                ),
                ("contents.xhtml", "<h1>Poems</h1>\(links.joined())"),
            ] + poems + [("notes.xhtml", "<h1>Notes</h1>\(links.joined())\(prose(100))")],
            toc: poems.map { entry(String($0.1.dropFirst(4).prefix(6)), $0.0) })
        let index = try SectionIndexer.index(book)
        let read = index.sections.filter(\.included).map(\.title)
        #expect(["Poem 1", "Poem 2", "Poem 3"].allSatisfy(read.contains))
    }

    @Test func proseTitledLikeAGlossaryIsRead() throws {
        // 2,000 words in paragraphs of 100: a chapter under a misleading title.
        let index = try SectionIndexer.index(bookEndingIn("Glossary", (0..<20).map { _ in prose(99) }.joined()))
        let last = try #require(index.sections.last)
        #expect(last.included)
        #expect(last.reasons.first?.contains("too long for a glossary section") == true)
    }

    @Test func anEssayTitledLikeABibliographyIsRead() throws {
        // 600 words in paragraphs of 100 that no number, year, separator or link makes entries.
        let index = try SectionIndexer.index(
            bookEndingIn("Bibliography of a Life", (0..<6).map { _ in prose(99) }.joined()))
        let last = try #require(index.sections.last)
        #expect(last.included)
        #expect(last.reasons.first?.contains("no entry numbered, dated or referred to") == true)
    }

    @Test func aGlossaryOfTermsInParagraphsIsSkippedHoweverLong() throws {
        // 3,600 words: longer than any glossary or list of references in prose.
        let terms = (0..<150).map {
            "<p>Term \($0): " + Array(repeating: "meaning", count: 22).joined(separator: " ") + ".</p>"
        }
        let index = try SectionIndexer.index(bookEndingIn("Glossary", terms.joined()))
        #expect(index.sections.map(\.kind) == [.chapter, .glossary])
        #expect(index.sections.map(\.included) == [true, false])
    }

    @Test func referencesInParagraphsAreSkippedHoweverLong() throws {
        let works = (0..<150).map {
            "<p>Author, A. A Work in Many Words, Volume \($0). Some City, \(1900 + $0); with a few more words about it and its many editions.</p>"
        }
        let index = try SectionIndexer.index(bookEndingIn("Sources", works.joined()))
        #expect(index.sections.map(\.kind) == [.chapter, .bibliography])
        #expect(index.sections.map(\.included) == [true, false])
    }

    @Test(arguments: [
        ("Kerf: the cut a saw makes in wood", true), ("Anaphora — the repetition of a word", true),
        ("Hale, A. A Treatise on Small Machines. London, 1895.", true), ("— Oui, dit-il, nous partons demain.", false),
        ("He walked on through the night and said nothing at all to anyone he met", false),
        ("At 10:30 they left the house", false), ("The number 1234567890123456789012345 is long", false),
        ("In 1688 the king fled", true),
    ])
    func entries(text: String, expected: Bool) {
        #expect(IndexedDocument.readsAsEntry(text, words: text.split(separator: " ").count) == expected)
    }

    @Test func longProseUnderAFrontMatterTitleIsRead() throws {
        let book = MemoryBook(
            spine: [
                ("c.xhtml", "<h1>Copyright</h1>\(prose(4000))"), ("ch1.xhtml", "<h1>Chapter 1</h1>\(prose(2000))"),
            ],
            toc: [entry("Copyright", "c.xhtml"), entry("Chapter 1", "ch1.xhtml")])
        let first = try #require(try SectionIndexer.index(book).sections.first)
        #expect(first.included)
        #expect(first.reasons.first?.contains("too long for a copyright section") == true)
    }

    @Test func aShortCopyrightPageIsStillSkipped() throws {
        let book = MemoryBook(
            spine: [
                ("c.xhtml", "<h1>Copyright</h1><p>Copyright © 2020 Someone. All rights reserved.</p>"),
                ("ch1.xhtml", "<h1>Chapter 1</h1>\(prose(2000))"),
            ],
            toc: [entry("Copyright", "c.xhtml"), entry("Chapter 1", "ch1.xhtml")])
        let index = try SectionIndexer.index(book)
        #expect(index.sections.map(\.kind) == [.copyright, .chapter])
        #expect(index.sections.map(\.included) == [false, true])
    }

    @Test func licenceInsideTheFirstAndLastBodyFilesIsCutExactly() throws {
        let book = MemoryBook(
            spine: [
                (
                    "text.xhtml",
                    "<p>The Project Gutenberg eBook of Tales. This ebook is for the use of anyone.</p>"
                        + "<p>*** START OF THE PROJECT GUTENBERG EBOOK TALES ***</p>"
                        + "<h2 id='c1'>Chapter 1</h2>\(prose(500))<h2 id='c2'>Chapter 2</h2>\(prose(500))"
                        + "<p>*** END OF THE PROJECT GUTENBERG EBOOK TALES ***</p>\(prose(600, "licence"))"
                )
            ],
            toc: [entry("Chapter 1", "text.xhtml#c1"), entry("Chapter 2", "text.xhtml#c2")])
        let index = try SectionIndexer.index(book)
        #expect(index.sections.filter(\.included).map(\.title) == ["Chapter 1", "Chapter 2"])
        #expect(wordsRead(index) == 2 * 502)
        #expect(index.sections.last?.kind == .license)
    }

    @Test func aLicenceInOneBlockOfLinesAfterTheLastChaptersEndIsCutThere() throws {
        // Older Project Gutenberg files: the last file holds the end of the last chapter (the file
        // split mid-chapter, no heading), then the whole licence as one block of lines.
        let licence =
            "<div class='pgheader'>End of the Project Gutenberg EBook of Tales<br/>"
            + "*** END OF THIS PROJECT GUTENBERG EBOOK TALES ***<br/>"
            + Array(repeating: "Section 1. General Terms of Use and Redistributing<br/>", count: 120).joined()
            + "</div>"
        let book = MemoryBook(
            spine: [
                ("c1.xhtml", "<h2>Chapter 1</h2>\(prose(900))"), ("c2.xhtml", "<h2>Chapter 2</h2>\(prose(900))"),
                ("c2b.xhtml", "\(prose(300, "ending"))\(licence)"),
            ],
            toc: [entry("Chapter 1", "c1.xhtml"), entry("Chapter 2", "c2.xhtml")])
        let index = try SectionIndexer.index(book)
        #expect(index.sections.filter(\.included).map(\.title) == ["Chapter 1", "Chapter 2"])
        #expect(wordsRead(index) == 902 + 902 + 300)
        #expect(index.sections.last?.kind == .license)
    }

    @Test func aPoemTitledDedicationAfterAPrologueAmongPoemsIsRead() throws {
        // A book of poems opening with a poem to the reader and a prologue: the poem after them
        // titled "Dedication" stands among the poems, whose first sections are not all "chapters".
        let titles = ["To the Reader", "Prologue", "Dedication", "The Wall", "The Hill", "The Well", "Epilogue"]
        let files = titles.map { ("\($0.prefix(6).lowercased()).xhtml", poem($0, lines: 14)) }
        let book = MemoryBook(spine: files, toc: zip(titles, files).map { entry($0.0, $0.1.0) })
        let index = try SectionIndexer.index(book)
        #expect(index.sections.map(\.title) == titles)
        #expect(index.sections.allSatisfy { $0.included })
    }

    @Test func aNonLinearItemIsASectionOfItsOwn() throws {
        let book = MemoryBook(
            spine: [
                ("ch1.xhtml", "<h1>Chapter 1</h1>\(prose(800))", true),
                ("answers.xhtml", "<p>Answers to the questions of the chapter.</p>\(prose(80, "answer"))", false),
                ("ch2.xhtml", "<h1>Chapter 2</h1>\(prose(800))", true),
            ],
            toc: [entry("Chapter 1", "ch1.xhtml"), entry("Chapter 2", "ch2.xhtml")])
        let index = try SectionIndexer.index(book)
        #expect(index.sections.map(\.spine) == [["ch1.xhtml"], ["answers.xhtml"], ["ch2.xhtml"]])
        #expect(index.sections.map(\.included) == [true, false, true])
    }

    @Test func aChaptersOwnMiniContentsIsNeitherReadNorASection() throws {
        func book(miniContents: String) -> MemoryBook {
            MemoryBook(
                spine: [
                    (
                        "ch1.xhtml",
                        "<section id='ch1'><h1>1. Open networks</h1><p>By An Author</p>\(miniContents)"
                            + "<section id='s1'><h2>1.1 Early days</h2>\(prose(300))</section>"
                            + "<section id='s2'><h2>1.2 Later</h2>\(prose(300))</section></section>"
                    ),
                    ("ch2.xhtml", "<h1>2. Closed networks</h1>\(prose(300))"),
                ],
                toc: [entry("1. Open networks", "ch1.xhtml#ch1"), entry("2. Closed networks", "ch2.xhtml")])
        }
        let nav =
            "<nav epub:type='toc'><ol><li><a href='#s1'>1.1 Early days</a></li><li><a href='#s2'>1.2 Later</a></li></ol></nav>"
        let index = try SectionIndexer.index(book(miniContents: nav))
        let plain = try SectionIndexer.index(book(miniContents: ""))
        #expect(index.sections.map(\.title) == ["1. Open networks", "2. Closed networks"])
        #expect(index.sections.map(\.words) == plain.sections.map(\.words))
        #expect(index.sections.allSatisfy { $0.included })
    }

    @Test func aHeadingAloneInItsFileIntroducesWhatFollows() throws {
        // A named part page ("Economics of Freedom", no "Part" in it) in a file of its own, between chapters.
        let book = MemoryBook(
            spine: [
                ("beginnings.xhtml", "<h1>1. Beginnings</h1>\(prose(300))"),
                ("economics.xhtml", "<h1>Economics of Freedom</h1>"),
                ("markets.xhtml", "<h1>2. Markets</h1>\(prose(300))"),
                ("commons.xhtml", "<h1>3. Commons</h1>\(prose(300))"),
            ],
            toc: [
                entry("1. Beginnings", "beginnings.xhtml"), entry("Economics of Freedom", "economics.xhtml"),
                entry("2. Markets", "markets.xhtml"), entry("3. Commons", "commons.xhtml"),
            ])
        let index = try SectionIndexer.index(book)
        #expect(index.sections.map(\.kind) == [.chapter, .part, .chapter, .chapter])
        #expect(index.sections.allSatisfy { $0.included }, "a divider is read: only its kind changes")
        #expect(index.sections[1].reasons.contains { $0.contains("only a heading") })
    }

    @Test func aPictureWithAltTextIsReadAsItsAltText() throws {
        // A picture book: each page is an image the author described.
        let pages = [
            "A small boat leaves the harbour at dawn, its sail full of wind.",
            "The keeper waves from the top of the lighthouse as the boat passes the rocks.",
        ]
        let book = MemoryBook(
            spine: pages.enumerated().map {
                ("page\($0.offset).xhtml", "<div><img src='p\($0.offset).png' alt='\($0.element)'/></div>")
            },
            toc: pages.indices.map { entry("Page \($0 + 1)", "page\($0).xhtml") })
        let index = try SectionIndexer.index(book)
        #expect(index.sections.allSatisfy { $0.included }, "\(index.sections.map(\.reasons))")
        let blocks = try SpokenTextExtractor.blocks(for: index.sections[1], in: book)
        #expect(blocks.contains { $0.text.contains("The keeper waves") })
    }

    @Test func aScannedPageLabelIsNoPicturePage() throws {
        // A scan's label as alt text ("leaf 0002") says nothing a listener needs.
        let book = MemoryBook(
            spine: [
                ("leaf1.xhtml", "<div><img src='l1.png' alt='leaf 0002'/></div>"),
                ("text.xhtml", "<h1>The Tale</h1>\(prose(300))"),
            ],
            toc: [entry("Leaf", "leaf1.xhtml"), entry("The Tale", "text.xhtml")])
        let index = try SectionIndexer.index(book)
        #expect(index.sections.map(\.included) == [false, true])
    }

    @Test func aTitleOverNumberedPiecesNamesOneWork() throws {
        // A poem in numbered parts: its title stands alone, then "I" and "II".
        let book = MemoryBook(
            spine: [
                ("poems.xhtml", "<h2 id='t'>The Swan</h2><h2 id='i'>I</h2>\(verse(20))<h2 id='ii'>II</h2>\(verse(20))")
            ],
            toc: [entry("The Swan", "poems.xhtml#t"), entry("I", "poems.xhtml#i"), entry("II", "poems.xhtml#ii")])
        let index = try SectionIndexer.index(book)
        #expect(index.sections.first?.kind != .part)
        #expect(index.sections.first?.title == "The Swan")
    }

    @Test func aClosingHeadingWithNothingAfterItIsNoPart() throws {
        let book = MemoryBook(
            spine: [("ch1.xhtml", "<h1>One</h1>\(prose(300))"), ("end.xhtml", "<h1>Afterwards</h1>")],
            toc: [entry("One", "ch1.xhtml"), entry("Afterwards", "end.xhtml")])
        let index = try SectionIndexer.index(book)
        #expect(index.sections.last?.kind != .part)
    }
}

/// The paragraph-heading family rules on their own.
@Suite struct HeadingFamiliesTests {
    func lines(_ texts: [String], gap: Int) -> [HeadingFamilies.Line] {
        texts.enumerated().map {
            HeadingFamilies.Line(
                position: SourcePosition(spineIndex: 0, blockIndex: $0.offset), text: $0.element,
                wordOffset: $0.offset * gap)
        }
    }

    @Test func ordinalTitlesSharingAWordAreAFamily() throws {
        let found = try #require(
            HeadingFamilies.chapterHeadings(in: lines(["First song", "Second song", "Third song"], gap: 500)))
        #expect(found.map(\.text) == ["First song", "Second song", "Third song"])
    }

    @Test func aRefrainIsNoFamily() {
        // The same line again and again: not distinct.
        #expect(
            HeadingFamilies.chapterHeadings(in: lines(Array(repeating: "Old steady singer", count: 6), gap: 500)) == nil
        )
    }

    @Test func linesCloseTogetherAreNoFamily() {
        // A speaker's name in a play, or a stanza's last line: distinct, but a few words apart.
        #expect(
            HeadingFamilies.chapterHeadings(in: lines(["First song", "Second song", "Third song"], gap: 40)) == nil)
    }

    @Test func twoLinesAreACoincidence() {
        #expect(HeadingFamilies.chapterHeadings(in: lines(["First song", "Second song"], gap: 900)) == nil)
    }

    @Test(arguments: [
        ("Toinen runo", true), ("CHAPTER IV", true), ("第一二回 唐王秉誠修大會", true), ("He said nothing.", false),
        ("“Yes, my lord.”", false), ("And then, after a long while, the rain stopped over the hills", false),
        ("CHAPTER IV.", true), ("II.", true), ("THE RETURN.", true), ("He left.", false), ("Yes, he said,", false),
        ("Il jubilait.", false), ("Chapter IV.", true),
    ])
    func candidates(text: String, expected: Bool) {
        #expect(HeadingFamilies.isCandidate(text) == expected)
    }

    @Test(arguments: [("IV.", "#"), ("第一二回", "第#回"), ("Chapter", "chapter"), ("12th", "#th")])
    func masksNumbers(word: String, expected: String) {
        #expect(HeadingFamilies.mask(Substring(word)) == expected)
    }
}

/// Size and shape per kind (`KindExpectation`).
@Suite struct KindExpectationTests {
    func features(words: Int, blocks: Int = 10, short: Int = 0, links: Int = 0, numbered: Int = 0) -> SectionFeatures {
        var f = SectionFeatures(title: "")
        f.words = words
        f.textBlocks = blocks
        f.shortBlocks = short
        f.linkWords = links
        f.numberedBlocks = numbered
        return f
    }

    @Test func sizesFitOrNot() {
        #expect(KindExpectation.misfit(kind: .cover, features: features(words: 40), markedBySemantics: false) == nil)
        #expect(KindExpectation.misfit(kind: .cover, features: features(words: 68_288), markedBySemantics: true) != nil)
        // A copyright page that says what it is fits up to 1,500 words; prose that states no rights does not.
        var notice = features(words: 1200)
        notice.copyrightSignals = ["copyright notice"]
        #expect(KindExpectation.misfit(kind: .copyright, features: notice, markedBySemantics: false) == nil)
        #expect(
            KindExpectation.misfit(kind: .copyright, features: features(words: 1200), markedBySemantics: false) != nil)
        #expect(
            KindExpectation.misfit(kind: .copyright, features: features(words: 1200), markedBySemantics: true) == nil,
            "the book's own marking")
        notice.words = 1600
        #expect(KindExpectation.misfit(kind: .copyright, features: notice, markedBySemantics: false) != nil)
        #expect(
            KindExpectation.misfit(kind: .chapter, features: features(words: 90_000), markedBySemantics: false) == nil)
    }

    @Test func aPageAboutTheAuthorIsAPageOrTwo() {
        // A biography in prose past 1,000 words is an essay; the same words as a list of books, or
        // under "Also by", are not.
        let essay = features(words: 1600, blocks: 16)
        #expect(
            KindExpectation.misfit(kind: .aboutAuthor, features: features(words: 300), markedBySemantics: false) == nil)
        #expect(KindExpectation.misfit(kind: .aboutAuthor, features: essay, markedBySemantics: false) != nil)
        #expect(KindExpectation.misfit(kind: .alsoBy, features: essay, markedBySemantics: false) == nil)
        #expect(
            KindExpectation.misfit(
                kind: .aboutAuthor, features: features(words: 1600, blocks: 300, short: 280), markedBySemantics: false)
                == nil)
    }

    @Test func aLongContentsFitsOnlyWhenItIsAList() {
        let links = features(words: 2600, blocks: 130, links: 2400)
        let prose = features(words: 90_000, blocks: 900, short: 100)
        let poem = features(words: 20_000, blocks: 4000, short: 3900)
        #expect(KindExpectation.misfit(kind: .toc, features: links, markedBySemantics: false) == nil)
        #expect(KindExpectation.misfit(kind: .toc, features: prose, markedBySemantics: false) != nil)
        #expect(
            KindExpectation.misfit(kind: .toc, features: poem, markedBySemantics: false) != nil,
            "short lines, but far too long")
    }

    @Test func theBooksOwnMarkingLiftsTheLimitOfLongProseKinds() {
        let long = features(words: 9000)
        #expect(KindExpectation.misfit(kind: .introduction, features: long, markedBySemantics: false) != nil)
        #expect(KindExpectation.misfit(kind: .introduction, features: long, markedBySemantics: true) == nil)
        #expect(
            KindExpectation.misfit(kind: .notes, features: features(words: 9000, numbered: 8), markedBySemantics: false)
                == nil)
    }

    /// An appendix longer than any page of front matter is one when it is a minor part of the book.
    @Test(arguments: [(14_000, 150_000, true), (14_000, 40_000, false), (4_000, 9_000, true), (60_000, 70_000, false)])
    func anAppendixIsAMinorPartOfTheBook(words: Int, bookWords: Int, fits: Bool) {
        var f = features(words: words)
        f.bookWords = bookWords
        #expect((KindExpectation.misfit(kind: .appendix, features: f, markedBySemantics: false) == nil) == fits)
    }
}

/// A book in one file: its file name and its short length say nothing of one kind of matter.
@Suite struct OneFileBookTests {
    @Test(arguments: ["index.html", "index_split_000.html", "toc.xhtml", "copyright.xhtml"])
    func aShortBookInOneFileIsReadWhateverTheFileIsCalled(fileName: String) throws {
        let book = MemoryBook(
            spine: [(fileName, "<h1>Still Water</h1>" + prose(300, "water"))],
            toc: [entry("Still Water", fileName)])
        let sections = try SectionIndexer.index(book).sections
        let decisions = sections.map { ($0.kind, $0.reasons) }
        let allRead = sections.allSatisfy { $0.included }
        #expect(allRead, "\(decisions)")
    }

    @Test func mostOfTheBookIsNeverFrontOrBackMatterUnlessTheBookSaysSo() {
        var f = SectionFeatures(title: "")
        f.words = 380
        f.textBlocks = 3
        f.bookWords = 400
        #expect(KindExpectation.misfit(kind: .index, features: f, markedBySemantics: false) != nil)
        #expect(KindExpectation.misfit(kind: .titlepage, features: f, markedBySemantics: false) != nil)
        #expect(KindExpectation.misfit(kind: .titlepage, features: f, markedBySemantics: true) == nil)
        f.bookWords = 4000
        #expect(KindExpectation.misfit(kind: .titlepage, features: f, markedBySemantics: false) == nil)
    }
}

/// A section that takes in the files after it (no start of their own) is judged on all its text.
@Suite struct GrownSectionTests {
    @Test func partHeadingFilesFollowedByHeadinglessFilesAreReadWhole() throws {
        let prose = String(repeating: "The king spoke to the assembly at length and the people listened. ", count: 40)
        var spine = [("title.xhtml", "<h1>The Epic</h1>")]
        for (part, name) in ["The Beginning", "The Assembly", "The Forest"].enumerated() {
            // The middle part's first file holds text of its own: the only section that looks
            // like a chapter before the headingless files join the sections.
            let opening = part == 1 ? "<p>\(String(repeating: prose, count: 4))</p>" : ""
            spine.append(("p\(part).xhtml", "<h1>\(name)</h1>\(opening)"))
            for canto in 1...4 { spine.append(("p\(part)c\(canto).xhtml", "<p>\(prose)</p>")) }
        }
        let book = MemoryBook(spine: spine, toc: [])
        let index = try SectionIndexer.index(book)
        let read = index.sections.filter(\.included).reduce(0) { $0 + $1.words }
        let total = index.sections.reduce(0) { $0 + $1.words }
        #expect(total - read <= 3, "only the title page may be skipped: \(index.sections.map { ($0.title, $0.kind) })")
        let first = try #require(index.sections.first { $0.title == "The Beginning" })
        #expect(first.included)
        #expect(first.words > 1_000)
    }

    /// A TOC that lists only the copyright page: the novel after it joins that section and is read.
    @Test func theTextAfterTheOnlyEntryOfATOCIsJudgedWithIt() throws {
        var spine = [("copyright.xhtml", "<p>Copyright © 2024 The Author. All rights reserved.</p>")]
        for chapter in 1...5 { spine.append(("c\(chapter).xhtml", prose(2_000, "story"))) }
        let book = MemoryBook(spine: spine, toc: [entry("Copyright", "copyright.xhtml")])
        let sections = try SectionIndexer.index(book).sections
        let read = sections.filter(\.included).reduce(0) { $0 + $1.words }
        #expect(read >= 10_000, "\(sections.map { ($0.title, $0.kind, $0.words, $0.included) })")
    }
}
