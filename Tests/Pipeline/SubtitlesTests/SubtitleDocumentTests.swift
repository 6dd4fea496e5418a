import Contracts
import TestSupport
import Testing

@testable import Subtitles

/// `SubtitleDocument`: the exact text of SRT and WebVTT files, and every cue read back strictly.
struct SubtitleDocumentTests {
    @Test(arguments: [
        (0, "00:00:00,000", "00:00:00.000"), (3_723_456, "01:02:03,456", "01:02:03.456"),
        (59_999, "00:00:59,999", "00:00:59.999"), (360_000_000, "100:00:00,000", "100:00:00.000"),
        (-5, "00:00:00,000", "00:00:00.000"),
    ])
    func timesAreWrittenExactly(milliseconds: Int, srt: String, vtt: String) {
        #expect(SubtitleDocument.timestamp(milliseconds, format: .srt) == srt)
        #expect(SubtitleDocument.timestamp(milliseconds, format: .vtt) == vtt)
    }

    static let cues = [
        SubtitleCue(
            startMS: 1_000, endMS: 2_500, lines: [[.init(text: "Fish"), .init(text: "&"), .init(text: "chips")]]),
        SubtitleCue(
            startMS: 2_500, endMS: 3_723_456,
            lines: [[.init(text: "a"), .init(text: "<"), .init(text: "b")], [.init(text: "-->"), .init(text: "c>")]]),
    ]

    @Test func srtNumbersItsCues() {
        #expect(
            SubtitleDocument.text(Self.cues, format: .srt) == """
                1
                00:00:01,000 --> 00:00:02,500
                Fish & chips

                2
                00:00:02,500 --> 01:02:03,456
                a < b
                -> c>

                """)
    }

    @Test func vttEscapesItsText() {
        #expect(
            SubtitleDocument.text(Self.cues, format: .vtt) == """
                WEBVTT

                00:00:01.000 --> 00:00:02.500
                Fish &amp; chips

                00:00:02.500 --> 01:02:03.456
                a &lt; b
                --&gt; c&gt;

                """)
    }

    @Test func vttTimesEachWordAfterTheCueStartAndBeforeItsEnd() {
        let cue = SubtitleCue(
            startMS: 1_000, endMS: 2_000,
            lines: [
                [.init(text: "One", startMS: 1_000), .init(text: "two", startMS: 1_200), .init(text: "three")],
                [
                    .init(text: "four", startMS: 1_100), .init(text: "five", startMS: 1_500),
                    .init(text: "six", startMS: 2_000),
                ],
            ])
        #expect(
            SubtitleDocument.text([cue], format: .vtt, words: true) == """
                WEBVTT

                00:00:01.000 --> 00:00:02.000
                One <00:00:01.200>two three
                four <00:00:01.500>five six

                """)
        // Without `words`, and in SRT, no timestamps.
        #expect(!SubtitleDocument.text([cue], format: .vtt).contains("<"))
        #expect(!SubtitleDocument.text([cue], format: .srt, words: true).contains("<"))
    }

    @Test func anEmptyCueIsNotWrittenAndTheNumbersStayInSequence() {
        let cues = [
            SubtitleCue(startMS: 0, endMS: 10, lines: []),
            SubtitleCue(startMS: 10, endMS: 20, lines: [[.init(text: "x")]]),
        ]
        #expect(SubtitleDocument.text(cues, format: .srt) == "1\n00:00:00,010 --> 00:00:00,020\nx\n")
    }

    /// Sentences of random words, punctuation and escapes, laid out, written and read back by a strict
    /// parser: every cue parses, in order, and the words read back are the sentences' words.
    @Test(arguments: [SubtitleFormat.srt, .vtt], [false, true])
    func everyCueParsesBackToTheBooksWords(format: SubtitleFormat, words: Bool) throws {
        var generator = SeededGenerator(state: 34)
        let vocabulary = [
            "the", "rain,", "in", "1907", "Mr.", "A&B", "x<y", "“quoted”", "—", "long-winded", "é", "ünder;",
        ]
        var sentences: [SpokenCue] = []
        var frame = 0
        for _ in 0..<60 {
            let count = Int.random(in: 1...40, using: &generator)
            let text =
                (0..<count).map { _ in vocabulary.randomElement(using: &generator)! }.joined(separator: " ") + "."
            let length = Int.random(in: 200...20_000, using: &generator)
            let timed = Bool.random(using: &generator)
            let step = max(1, length / (count + 1))
            sentences.append(
                sentence(text, frame, frame + length, words: timed ? timedWords(text, start: frame, step: step) : []))
            frame += length + Int.random(in: 0...500, using: &generator)
        }
        let cues = SubtitleLayout.cues(for: section(frames: frame, sentences))
        let text = SubtitleDocument.text(cues, format: format, words: words)
        let parsed = try format == .srt ? StrictSubtitleParser.parseSRT(text) : StrictSubtitleParser.parseVTT(text)
        #expect(parsed.count == cues.count)
        #expect(parsed.map(\.startMS) == cues.map(\.startMS))
        #expect(parsed.map(\.endMS) == cues.map(\.endMS))
        let readBack = parsed.map { $0.text.replacingOccurrences(of: "\n", with: " ") }.joined(separator: " ")
        #expect(readBack == sentences.map(\.text).joined(separator: " "))
        for line in parsed.flatMap({ $0.text.split(separator: "\n") }) {
            #expect(line.count <= SubtitleLayout.maxLineCharacters)
        }
        #expect(parsed.allSatisfy { $0.text.split(separator: "\n").count <= SubtitleLayout.maxLines })
        if format == .vtt && words { #expect(parsed.contains { !$0.wordTimesMS.isEmpty }) }
    }

    @Test func theStrictParserRefusesWhatItShould() {
        #expect(throws: (any Error).self) { try StrictSubtitleParser.parseSRT("2\n00:00:00,000 --> 00:00:01,000\nx\n") }
        #expect(throws: (any Error).self) { try StrictSubtitleParser.parseSRT("1\n00:00:00.000 --> 00:00:01,000\nx\n") }
        #expect(throws: (any Error).self) { try StrictSubtitleParser.parseSRT("1\n00:00:02,000 --> 00:00:01,000\nx\n") }
        #expect(throws: (any Error).self) {
            try StrictSubtitleParser.parseVTT("WEBVTT\n\n00:00:00.000 --> 00:00:01.000\na & b\n")
        }
        #expect(throws: (any Error).self) {
            try StrictSubtitleParser.parseVTT("WEBVTT\n\n00:00:00.000 --> 00:00:01.000\n<00:00:01.000>a\n")
        }
        #expect(throws: (any Error).self) {
            try StrictSubtitleParser.parseVTT(
                "WEBVTT\n\n00:00:00.000 --> 00:00:02.000\na\n\n00:00:01.000 --> 00:00:03.000\nb\n")
        }
        #expect(throws: (any Error).self) {
            try StrictSubtitleParser.parseVTT("WEBVTT\n\n00:00:00.000 --> 00:00:01.000\n\n")
        }
    }
}
