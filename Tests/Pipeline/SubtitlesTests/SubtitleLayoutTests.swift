import Contracts
import Testing

@testable import Subtitles

/// A sentence at 1,000 frames a second, so frames read as milliseconds.
func sentence(_ text: String, _ start: Int, _ end: Int, words: [SpokenWord] = []) -> SpokenCue {
    SpokenCue(
        source: SourcePosition(spineIndex: 0, blockIndex: 0), text: text, startFrame: start, endFrame: end, words: words
    )
}

/// A section at 1,000 frames a second.
func section(number: Int = 1, frames: Int = 1_000_000, _ cues: [SpokenCue]) -> SectionTiming {
    SectionTiming(section: number, sampleRate: 1_000, frames: frames, cues: cues)
}

/// Word timings for every word of `text`: word `i` starts at `start + i * step`.
func timedWords(_ text: String, start: Int, step: Int) -> [SpokenWord] {
    SubtitleLayout.tokens(of: text).enumerated().map { index, token in
        SpokenWord(textRange: token.range, startFrame: start + index * step)
    }
}

/// `SubtitleLayout`: sentences cut into cues of at most two lines of 42 characters, timed.
struct SubtitleLayoutTests {
    @Test func aShortSentenceIsOneCueOfOneLineWithItsOwnTimes() {
        let cues = SubtitleLayout.cues(for: section([sentence("It was 1907.", 1_250, 2_980)]))
        let words = ["It", "was", "1907."].map { SubtitleCue.Word(text: $0) }
        #expect(cues == [SubtitleCue(startMS: 1_250, endMS: 2_980, lines: [words])])
    }

    @Test func aSentenceOfTwoLinesIsOneCueBrokenWhereTheLinesAreEven() throws {
        let text = "The rain had stopped before the carriage reached the gate of the old house."
        let cues = SubtitleLayout.cues(for: section([sentence(text, 0, 5_000)]))
        #expect(cues.count == 1)
        #expect(cues.first?.lines.count == 2)
        #expect(cues.first?.text == "The rain had stopped before the carriage\nreached the gate of the old house.")
        #expect(cues.first.map { ($0.startMS, $0.endMS) } ?? (0, 0) == (0, 5_000))
    }

    @Test func aLongSentenceIsCutAtItsClauses() throws {
        let text =
            "When the letters came at last, in the spring of the following year, nobody in the village could read them, "
            + "and the schoolmaster, who might have, had gone to the city."
        let cues = SubtitleLayout.cues(for: section([sentence(text, 0, 10_000)]))
        #expect(cues.count > 1)
        for cue in cues {
            #expect(cue.lines.count <= 2)
            for line in cue.text.split(separator: "\n") { #expect(line.count <= 42) }
            // Every cue but the last ends a clause.
            if cue != cues.last { #expect(cue.text.hasSuffix(",")) }
        }
        #expect(cues.map(\.text).joined(separator: " ").replacingOccurrences(of: "\n", with: " ") == text)
    }

    @Test func aClauseTooLongIsCutAtSpacesIntoEvenPieces() throws {
        let words = (1...30).map { "word\($0)" }
        let text = words.joined(separator: " ")
        let cues = SubtitleLayout.cues(for: section([sentence(text, 0, 30_000)]))
        #expect(cues.count == 3)
        let lengths = cues.map { $0.text.count }
        #expect(lengths.max()! - lengths.min()! <= 12)
        #expect(cues.map(\.text).joined(separator: " ").replacingOccurrences(of: "\n", with: " ") == text)
    }

    @Test func withoutWordTimesTheSentenceIsSharedByCharacters() throws {
        // Two clauses of 40 and 39 characters that do not fit one cue together with a third.
        let first = String(repeating: "a", count: 39) + ","
        let second = String(repeating: "b", count: 40) + ","
        let third = String(repeating: "c", count: 39) + "."
        let text = [first, second, third].joined(separator: " ")
        let cues = SubtitleLayout.cues(for: section([sentence(text, 1_000, 1_000 + 122)]))
        try #require(cues.count == 2)
        #expect(cues[0].text == first + "\n" + second)
        // The third clause starts after 83 of the 123 characters: 82 of the 122 ms in.
        #expect(cues[0].startMS == 1_000)
        #expect(cues[0].endMS == 1_082)
        #expect(cues[1].startMS == 1_082)
        #expect(cues[1].endMS == 1_122)
    }

    @Test func withWordTimesACueStartsWhenItsFirstWordIsHeard() throws {
        let first = String(repeating: "a", count: 39) + ","
        let second = String(repeating: "b", count: 40) + ","
        let third = String(repeating: "c", count: 39) + "."
        let text = [first, second, third].joined(separator: " ")
        let words = [
            SpokenWord(textRange: 0..<40, startFrame: 1_000), SpokenWord(textRange: 41..<82, startFrame: 1_010),
            SpokenWord(textRange: 83..<123, startFrame: 1_100),
        ]
        let cues = SubtitleLayout.cues(for: section([sentence(text, 1_000, 1_122, words: words)]))
        try #require(cues.count == 2)
        #expect(cues.map(\.startMS) == [1_000, 1_100])
        #expect(cues.map(\.endMS) == [1_100, 1_122])
        #expect(cues[0].lines.flatMap { $0 }.map(\.startMS) == [1_000, 1_010])
    }

    @Test func whiteSpaceInTheBookShowsAsOneSpace() {
        let cues = SubtitleLayout.cues(for: section([sentence("  Two\n\twords\u{2028} here ", 0, 10)]))
        #expect(cues.map(\.text) == ["Two words here"])
    }

    @Test func aSentenceWithoutWordsGivesNoCue() {
        #expect(SubtitleLayout.cues(for: section([sentence(" \n ", 0, 10), sentence("", 10, 20)])).isEmpty)
    }

    @Test func cuesNeverOverlapNorEndBeforeTheyStart() {
        let cues = SubtitleLayout.cues(
            for: section(
                frames: 3_000,
                [sentence("One.", 100, 900), sentence("Two.", 800, 700), sentence("Three.", 2_500, 9_000)]))
        #expect(cues.map(\.startMS) == [100, 900, 2_500])
        #expect(cues.map(\.endMS) == [900, 900, 3_000])
    }

    @Test func aWordTooLongForALineStandsAlone() {
        let long = String(repeating: "x", count: 60)
        let cues = SubtitleLayout.cues(for: section([sentence("See \(long) now.", 0, 100)]))
        #expect(cues.allSatisfy { $0.lines.count <= 2 })
        #expect(cues.map(\.text).joined(separator: " ").replacingOccurrences(of: "\n", with: " ") == "See \(long) now.")
    }

    @Test func clauseEndsLookPastClosingQuotes() {
        #expect(SubtitleLayout.endsClause("said,”"))
        #expect(SubtitleLayout.endsClause("(1907);"))
        #expect(SubtitleLayout.endsClause("—"))
        #expect(!SubtitleLayout.endsClause("word"))
        #expect(!SubtitleLayout.endsClause("”"))
    }

    @Test func sectionsOfABookStartAtTheSumOfTheLengthsBefore() {
        let offsets = SubtitleLayout.offsets(lengths: [(22_050, 22_050), (11_025, 22_050), (7, 22_050)])
        #expect(offsets == [0, 1, 1.5])
        let mixed = SubtitleLayout.offsets(lengths: [(22_050, 22_050), (48_000, 48_000), (1, 22_050)])
        #expect(mixed == [0, 1, 2])
        let book = SubtitleLayout.cues(for: [
            (section(number: 1, frames: 2_000, [sentence("One.", 100, 900)]), 0),
            (section(number: 2, frames: 2_000, [sentence("Two.", 0, 500)]), 2),
        ])
        #expect(book.map(\.startMS) == [100, 2_000])
        #expect(book.map(\.endMS) == [900, 2_500])
    }
}
