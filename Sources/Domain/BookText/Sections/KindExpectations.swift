import Contracts

/// What a front or back matter section of each kind looks like: how long it can be, and what
/// shape its text has when it may be longer.
///
/// Skipping is the costly error: reading a licence costs a listener a minute, skipping a chapter
/// loses the book. So a section is skipped only when its size and shape fit the kind its evidence
/// names. A 68,000-word "cover" or a 90,000-word "contents" is a misread TOC, a generated file name
/// or a landmark that points at the file where the text also begins: the text is read, and the
/// reasons say why. The limits are generous (a real copyright page is far shorter than 1,500
/// words); they are not tuned to any book.
struct KindExpectation: Sendable {
    /// Shapes that let a section of the kind be as long as it is.
    enum Shape: Sendable {
        /// Mostly links (a printed contents list, an index with links).
        case links
        /// Mostly short lines (a list, an index, a glossary, a cast of characters).
        case shortLines
        /// Mostly numbered entries, note bodies or notes the text refers to (notes, a numbered
        /// bibliography).
        case numberedEntries
        /// Mostly short paragraphs that open with a term and a separator or name a year: a
        /// glossary or a list of references set as paragraphs.
        case entries
        /// Mostly entries ending with a page number: an index, an index of first lines, a printed
        /// contents list.
        case pageEntries
        /// Entries in alphabetical order of their first words, nearly all of them: a glossary or an
        /// index, whatever separates a term from its text ("Kerf. The cut a saw makes").
        case alphabetical
    }

    /// Most words a section of the kind holds when its shape does not explain more.
    var maximumWords: Int
    /// Shapes under which a longer section fits.
    var shapes: [Shape] = []
    /// Most words with one of those shapes (a poem of short lines is no 20,000-word contents list); nil: any.
    var maximumWordsWithShape: Int? = nil
    /// Share of the book's words a section of the kind may hold however long it is: supplementary
    /// material (an appendix of tables, proofs or worked examples) runs to tens of pages in a
    /// technical book, yet stays a minor part of it; a "appendix" holding most of a book is not one.
    var maximumShareOfBook: Double? = nil
    /// Whether the book's own `epub:type`/`role` on the content lifts the size limit (long prose
    /// kinds: an introduction marked as one is one, however long).
    var semanticsLiftLimit = false
    /// Whether, when the semantics lift the limit, the section must still have one of `shapes`:
    /// notes the book marks can run to any length, but a long run of unnumbered prose marked as
    /// footnotes is a chapter in the wrong element.
    var semanticsNeedShape = false
    /// What a section of the kind is made of, when a section made otherwise cannot be one.
    enum Form: Sendable {
        /// Any text: the size and the shapes decide.
        case any
        /// An essay in prose: a section that is mostly lines of verse is not one (a poem titled "To
        /// the Reader" opens a book of poems; it is no preface).
        case prose
        /// A list at any length (a contents list, an index): a section of running prose is not one,
        /// however short (a story titled "Index", a chapter named "Obsah").
        case list
        /// Entries (notes, a list of references): running prose with no numbered entry, no note
        /// body, no note the text refers to and no entries of references holds none, however short
        /// (an Italian chapter titled "Note", the musical kind; an essay titled "Bibliography of a
        /// Life"). A title alone does not make entries.
        case entries
        /// A notice (a copyright page, an imprint): running prose that states no copyright, no
        /// reserved rights, no ISBN and no publisher is none, however short (a chapter the TOC
        /// labels "Copyright"). A real one is a few short lines, or prose that says what it is.
        case notice
    }
    var form = Form.any

    /// Share of verse lines that makes a section a poem rather than prose.
    static let verseShare = 0.6

    /// Share of the book's words that no front or back matter holds unless the book marks it so:
    /// a section holding more than half of the book is the text (the whole book in one file
    /// named `index.html`, a "title page" the rest of the book follows inside).
    static let mostOfTheBook = 0.5

    /// Most of a book that supplementary material (an appendix) can be: a fifth.
    static let supplementShare = 0.2

    /// Running prose (`isRunningProse`): at least this many words, in blocks of at least
    /// `proseParagraphWords` words on average (headings included) and mostly longer than a short
    /// line (a list's entries are a line each), with numbers under `mostNumeralsInProse` of its
    /// opening's words (an index run into paragraphs is mostly page numbers) and links under
    /// `linkShare` of its words.
    static let shortestProse = 60
    static let proseParagraphWords = 25
    static let mostNumeralsInProse = 0.1

    /// A list shape needs at least this many text blocks to count (three links are no contents list).
    static let minimumListBlocks = 6
    /// Share of link words that makes a section "mostly links".
    static let linkShare = 0.4
    /// Share of short blocks (8 words or fewer) that makes a section "mostly short lines".
    static let shortLineShare = 0.7
    /// Share of numbered or note blocks that makes a section "mostly numbered entries".
    static let numberedShare = 0.4
    /// Share of entry-like paragraphs (`IndexedDocument.readsAsEntry`) that makes a section "mostly entries".
    static let entryShare = 0.5
    /// Share of blocks in alphabetical order that makes a section's entries sorted (prose paragraphs
    /// opening with "The", "He", "It" are in order about half the time).
    static let alphabeticalShare = 0.85

    /// The expectation for a kind that is skipped by default; nil for the kinds of the text proper.
    static func of(_ kind: SectionKind) -> KindExpectation? {
        switch kind {
        case .prologue, .part, .chapter, .interlude, .epilogue: nil
        case .cover: KindExpectation(maximumWords: 100)
        case .titlepage, .halftitle: KindExpectation(maximumWords: 400)
        // A dedicatory letter or a collection of extracts can be long: the book's own marking decides.
        case .dedication, .epigraph: KindExpectation(maximumWords: 500, semanticsLiftLimit: true)
        case .copyright, .imprint: KindExpectation(maximumWords: 1500, form: .notice)
        case .toc, .loi, .lot:
            KindExpectation(
                maximumWords: 500, shapes: [.links, .shortLines, .pageEntries], maximumWordsWithShape: 4000,
                form: .list)
        case .index:
            KindExpectation(
                maximumWords: 500, shapes: [.links, .shortLines, .numberedEntries, .pageEntries, .alphabetical],
                maximumWordsWithShape: 30000,
                form: .list)
        case .notes:
            KindExpectation(
                maximumWords: 2000, shapes: [.numberedEntries, .shortLines], semanticsLiftLimit: true,
                semanticsNeedShape: true, form: .entries)
        // Entries of any length, but running prose past a few pages is an essay or a chapter
        // under a misleading title ("Sources", "Definitions").
        case .bibliography:
            KindExpectation(
                maximumWords: 1500, shapes: [.numberedEntries, .shortLines, .links, .entries],
                semanticsLiftLimit: true, form: .entries)
        case .glossary:
            KindExpectation(
                maximumWords: 1500, shapes: [.numberedEntries, .shortLines, .links, .entries, .alphabetical],
                semanticsLiftLimit: true)
        case .dramatisPersonae: KindExpectation(maximumWords: 1500, shapes: [.shortLines], maximumWordsWithShape: 3000)
        case .license: KindExpectation(maximumWords: 8000, semanticsLiftLimit: true)
        // A page or two about the author or the edition; past that, running prose is an essay.
        case .colophon, .aboutAuthor:
            KindExpectation(maximumWords: 1000, shapes: [.shortLines, .links], maximumWordsWithShape: 5000)
        // A publisher's list: titles a line each, linked, or numbered entries naming their prices.
        case .alsoBy, .advertisement:
            KindExpectation(
                maximumWords: 2000, shapes: [.shortLines, .links, .numberedEntries, .entries],
                maximumWordsWithShape: 10000)
        case .contributors, .transcriberNotes:
            KindExpectation(maximumWords: 2000, shapes: [.shortLines, .links], maximumWordsWithShape: 5000)
        case .foreword, .preface, .introduction, .afterword:
            KindExpectation(maximumWords: 5000, semanticsLiftLimit: true, form: .prose)
        case .acknowledgments: KindExpectation(maximumWords: 5000, semanticsLiftLimit: true)
        case .appendix:
            KindExpectation(maximumWords: 5000, maximumShareOfBook: supplementShare, semanticsLiftLimit: true)
        case .other: KindExpectation(maximumWords: 1500)
        }
    }

    /// Why a section of `kind` with these features cannot be that kind, or nil when it fits.
    static func misfit(kind: SectionKind, features: SectionFeatures, markedBySemantics: Bool) -> String? {
        guard let expectation = of(kind) else { return nil }
        if !markedBySemantics, let formMisfit = formMisfit(expectation.form, kind: kind, features: features) {
            return formMisfit
        }
        if let tooLong = sizeMisfit(expectation, kind: kind, features: features, markedBySemantics: markedBySemantics) {
            return tooLong
        }
        if !markedBySemantics, features.bookWords > 0,
            Double(features.words) > mostOfTheBook * Double(features.bookWords),
            !isApparatusByItsShape(kind, features)
        {
            return "\(grouped(features.words)) of the book's \(Counts.of(features.bookWords, "word")): the text itself"
        }
        return nil
    }

    /// Why a section the book does not mark as `kind` is not made as one of `form` is, or nil.
    private static func formMisfit(_ form: Form, kind: SectionKind, features: SectionFeatures) -> String? {
        switch form {
        case .any:
            return nil
        case .prose:
            guard features.textBlocks >= minimumListBlocks,
                Double(features.verseLines) >= verseShare * Double(features.textBlocks)
            else {
                return nil
            }
            let verse = features.verseLines == 1 ? "is verse" : "are verse"
            return
                "\(features.verseLines) of \(Counts.of(features.textBlocks, "line")) \(verse): a poem, not a \(kind.rawValue)"
        case .list:
            guard isRunningProse(features) else { return nil }
            return
                "\(Counts.of(features.words, "word")) of running prose in \(Counts.of(features.textBlocks, "block")): "
                + "no \(kind.rawValue) list"
        case .entries:
            guard isRunningProse(features), !hasEntries(features) else { return nil }
            let words = Counts.of(features.words, "word")
            return "\(words) of running prose, no entry numbered, dated or referred to: no \(kind.rawValue)"
        case .notice:
            guard isRunningProse(features), features.copyrightSignals.isEmpty else { return nil }
            return "\(Counts.of(features.words, "word")) of running prose stating no copyright, rights or publisher: "
                + "no \(kind.rawValue) page"
        }
    }

    /// Why a section is too long for its kind, or nil when its size (or its shape) fits.
    private static func sizeMisfit(
        _ expectation: KindExpectation, kind: SectionKind, features: SectionFeatures, markedBySemantics: Bool
    ) -> String? {
        guard features.words > expectation.maximumWords else { return nil }
        let shapeFits = expectation.shapes.contains { has($0, features) }
        if expectation.semanticsLiftLimit, markedBySemantics, shapeFits || !expectation.semanticsNeedShape {
            return nil
        }
        if shapeFits, features.words <= expectation.maximumWordsWithShape ?? .max { return nil }
        if let share = expectation.maximumShareOfBook, Double(features.words) <= share * Double(features.bookWords) {
            return nil
        }
        let name = kind == .other ? "front or back matter" : "a \(kind.rawValue) section"
        return
            "\(Counts.of(features.words, "word")) of running text: too long for \(name) "
            + "(at most \(grouped(expectation.maximumWords)))"
    }

    /// Whether a section's shape shows it is apparatus of `kind` however long it is, even longer
    /// than the text: notes the text refers to, an index of pages or links.
    static func isApparatusByItsShape(_ kind: SectionKind, _ features: SectionFeatures) -> Bool {
        switch kind {
        case .notes: isReferredToAsNotes(features)
        case .index: isIndexOfPages(features)
        default: false
        }
    }

    /// Whether the book's text refers to most of a section's blocks as its notes (`numberedShare`
    /// of them): notes however long, even longer than the text (a play's commentary, a translation's
    /// apparatus). Numbers alone do not show it (a book of numbered sections titled "Notes from…").
    static func isReferredToAsNotes(_ features: SectionFeatures) -> Bool {
        features.textBlocks > 0 && Double(features.referencedNotes) >= numberedShare * Double(features.textBlocks)
    }

    /// Whether a section is an index by its shape at any length: mostly entries ending with their
    /// pages ("Aphaeresis, 212, 240."), short lines of which numbers are a fifth of the opening's
    /// words or more, or mostly links.
    static func isIndexOfPages(_ features: SectionFeatures) -> Bool {
        has(.links, features) || has(.pageEntries, features)
            || (has(.shortLines, features) && features.openingNumeralShare >= indexNumeralShare)
    }

    /// Share of an index's words that are page numbers, at least.
    static let indexNumeralShare = 0.2

    /// Whether a section reads as running prose, not as a list of entries (see `shortestProse`).
    static func isRunningProse(_ features: SectionFeatures) -> Bool {
        features.words >= shortestProse && features.textBlocks > 0
            && features.words >= proseParagraphWords * features.textBlocks
            && 2 * features.shortBlocks < features.textBlocks
            && Double(features.linkWords) < linkShare * Double(features.words)
            && features.openingNumeralShare < mostNumeralsInProse
    }

    /// Whether anything in a section marks entries: a block numbered like one, a note body, a
    /// note the text links to, or paragraphs that read as entries of a list of references.
    static func hasEntries(_ features: SectionFeatures) -> Bool {
        features.numberedBlocks > 0 || features.noteBlocks > 0 || features.referencedNotes > 0
            || 2 * features.entryBlocks >= features.textBlocks
    }

    static func has(_ shape: Shape, _ features: SectionFeatures) -> Bool {
        guard features.textBlocks >= minimumListBlocks, features.words > 0 else { return false }
        switch shape {
        case .links: return Double(features.linkWords) >= linkShare * Double(features.words)
        case .shortLines: return Double(features.shortBlocks) >= shortLineShare * Double(features.textBlocks)
        case .numberedEntries:
            // A note the text refers to is an entry, numbered or not: its number is often the link
            // back to the reference, which is not read ("1. Act I. ..." reads ". Act I. ...").
            let entries = max(features.numberedBlocks, features.referencedNotes) + features.noteBlocks
            return Double(entries) >= numberedShare * Double(features.textBlocks + features.noteBlocks)
        case .entries: return Double(features.entryBlocks) >= entryShare * Double(features.textBlocks)
        case .pageEntries: return Double(features.pageEntryBlocks) >= entryShare * Double(features.textBlocks)
        case .alphabetical:
            return 2 * features.keyedBlocks >= features.textBlocks
                && Double(features.alphabeticalBlocks) >= alphabeticalShare * Double(features.keyedBlocks)
        }
    }

    /// 12,345 (`Counts.grouped`).
    static func grouped(_ count: Int) -> String { Counts.grouped(count) }
}

/// Apparatus where nothing else names it: inside a file of the text, or in a file no TOC entry reaches.
extension KindExpectation {
    /// The shapes that show each kind of apparatus where nothing else names it (inside a file, or in
    /// a file no TOC entry reaches): entries of its own making, never short lines alone (code, verse
    /// and tables have them in the text's flow).
    static let apparatusShapes: [SectionKind: [KindExpectation.Shape]] = [
        .notes: [.numberedEntries], .index: [.pageEntries, .links, .alphabetical],
        .glossary: [.entries, .alphabetical], .bibliography: [.entries, .numberedEntries],
        .alsoBy: [.entries, .numberedEntries, .links], .advertisement: [.entries, .numberedEntries, .links],
    ]

    /// Whether `features` show apparatus of `kind` by one of its shapes (`apparatusShapes`). Items
    /// of a list are no numbered entries here: a list under a "Note" set in the text's flow (an
    /// admonition) is the text's own.
    static func hasApparatusShape(_ kind: SectionKind, _ features: SectionFeatures) -> Bool {
        guard let shapes = apparatusShapes[kind] else { return false }
        var adjusted = features
        adjusted.numberedBlocks -= adjusted.listItems
        return shapes.contains { KindExpectation.has($0, adjusted) }
    }
}
