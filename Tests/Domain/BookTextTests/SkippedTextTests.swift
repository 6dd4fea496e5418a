import BookText
import Contracts
import EPUBReader
import Testing

/// Which skipped text is worth a warning, and the read/skipped totals, over hand-made section lists.
@Suite struct SkippedTextTests {
    /// Sections numbered in order from `(kind, words, included)`.
    static func sections(_ specs: [(SectionKind, Int, Bool)]) -> [BookSection] {
        specs.enumerated().map { offset, spec in
            let position = SourcePosition(spineIndex: offset, blockIndex: 0)
            return BookSection(
                number: offset + 1, title: "Section \(offset + 1)", href: EPUBLink(path: "s\(offset + 1).xhtml"),
                spine: ["s\(offset + 1).xhtml"], role: spec.0.usualRole, kind: spec.0, words: spec.1,
                included: spec.2, start: position, end: position)
        }
    }

    /// A novel's worth of chapters (100,000 words) with the usual small front matter.
    static func novel(skipping extra: [(SectionKind, Int)] = []) -> [BookSection] {
        let front: [(SectionKind, Int, Bool)] = [(.cover, 0, false), (.copyright, 150, false), (.toc, 300, false)]
        let chapters = [(SectionKind, Int, Bool)](repeating: (.chapter, 5_000, true), count: 20)
        return sections(front + chapters + extra.map { ($0.0, $0.1, false) })
    }

    @Test func totalsCountReadAndSkippedSections() {
        let totals = ReadingTotals(sections: Self.novel())
        #expect(totals.readWords == 100_000 && totals.readSections == 20)
        #expect(totals.skippedWords == 450 && totals.skippedSections == 3)
        #expect(totals.totalWords == 100_450)
    }

    @Test func nothingSkippedNothingToSay() {
        let all = Self.sections([(.chapter, 40_000, true), (.chapter, 50_000, true)])
        #expect(SkippedText.warnings(for: all) == [])
        let totals = ReadingTotals(sections: all)
        #expect(totals.skippedWords == 0 && totals.skippedSections == 0)
        #expect(SkippedText.warnings(for: []) == [])
    }

    @Test func aNormalBookIsQuiet() {
        #expect(SkippedText.warnings(for: Self.novel()) == [])
    }

    @Test(
        "a skipped section is large above 3,000 words",
        arguments: [(2_999, false), (3_000, false), (3_001, true), (94_727, true)])
    func largeSectionThreshold(words: Int, warned: Bool) {
        #expect(SkippedText.largeSectionWords == 3_000)
        let book = Self.novel(skipping: [(.appendix, words)])
        let expected: [SkippedTextWarning] = warned ? [.largeSection(number: 24, kind: .appendix, words: words)] : []
        #expect(SkippedText.warnings(for: book) == expected)
    }

    @Test func oneWarningPerLargeSectionInReadingOrderAndNoTotalBesides() {
        // 30,000 skipped words of 130,450: over a tenth, but the large sections already say it.
        let book = Self.novel(skipping: [(.appendix, 12_000), (.notes, 2_000), (.index, 16_000)])
        #expect(
            SkippedText.warnings(for: book) == [
                .largeSection(number: 24, kind: .appendix, words: 12_000),
                .largeSection(number: 26, kind: .index, words: 16_000),
            ])
    }

    @Test func aSelectedSectionIsNeverWarnedAbout() {
        let book = Self.sections([(.toc, 90_000, true), (.chapter, 1_000, true)])
        #expect(SkippedText.warnings(for: book) == [])
    }

    @Test(
        "small skipped sections are warned about together above a tenth of the book",
        arguments: [
            // (words in each of 6 skipped notes sections, warned): 20 × 1,000 read words beside them.
            (300, false),  // 1,800 of 21,800: 8%
            (400, true),  // 2,400 of 22,400: 11%
        ])
    func shareRule(eachSkipped: Int, warned: Bool) {
        let chapters = [(SectionKind, Int, Bool)](repeating: (.chapter, 1_000, true), count: 20)
        let notes = [(SectionKind, Int, Bool)](repeating: (.notes, eachSkipped, false), count: 6)
        let book = Self.sections(chapters + notes)
        let skipped = 6 * eachSkipped
        let expected: [SkippedTextWarning] =
            warned ? [.largeShare(skippedWords: skipped, skippedSections: 6, totalWords: 20_000 + skipped)] : []
        #expect(SkippedText.warnings(for: book) == expected)
    }

    @Test func theShareRuleIsStrictlyAboveATenth() {
        // 1,000 skipped words of 10,000 is exactly a tenth: not more than a tenth.
        let exact = Self.sections([(.chapter, 9_000, true), (.preface, 1_000, false)])
        #expect(SkippedText.warnings(for: exact) == [])
        let above = Self.sections([(.chapter, 9_000, true), (.preface, 1_001, false)])
        let expected = SkippedTextWarning.largeShare(skippedWords: 1_001, skippedSections: 1, totalWords: 10_001)
        #expect(SkippedText.warnings(for: above) == [expected])
    }

    @Test func theShareRuleNeedsSomeWords() {
        // The front matter of a short story can be a fifth of it and is still a minute of audio.
        let story = Self.sections([(.titlepage, 20, false), (.copyright, 180, false), (.chapter, 800, true)])
        #expect(SkippedText.warnings(for: story) == [])
        #expect(SkippedText.shareRuleMinimumWords == 1_000)
    }

    @Test func aLicenceOfTheUsualSizeIsExpected() {
        // A Project Gutenberg book: the licence, whole or cut in sections, is not worth a warning...
        let whole = Self.sections([(.license, 157, false), (.chapter, 20_000, true), (.license, 3_167, false)])
        #expect(SkippedText.warnings(for: whole) == [])
        let cut = Self.sections([
            (.license, 157, false), (.chapter, 29_000, true), (.license, 223, false), (.license, 2_797, false),
        ])
        #expect(SkippedText.warnings(for: cut) == [])
        // ...but it does not hide other skipped text from the share rule, and the totals still count it.
        let withPreface = Self.sections([(.preface, 2_500, false), (.chapter, 18_000, true), (.license, 3_167, false)])
        let share = SkippedTextWarning.largeShare(skippedWords: 5_667, skippedSections: 2, totalWords: 23_667)
        #expect(SkippedText.warnings(for: withPreface) == [share])
        // A "licence" larger than any licence is warned about like any other section.
        let huge = Self.sections([(.chapter, 1_000, true), (.license, 60_000, false)])
        #expect(SkippedText.warnings(for: huge) == [.largeSection(number: 2, kind: .license, words: 60_000)])
        #expect(SkippedText.licenseAllowanceWords == 5_000)
    }

    @Test func aBookWhoseWholeTextIsSkipped() {
        let book = Self.sections([(.cover, 68_288, false)])
        #expect(SkippedText.warnings(for: book) == [.largeSection(number: 1, kind: .cover, words: 68_288)])
        let totals = ReadingTotals(sections: book)
        #expect(totals.readWords == 0 && totals.readSections == 0 && totals.skippedWords == 68_288)
    }
}
