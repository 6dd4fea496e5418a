import Contracts
import Foundation
import Testing

@testable import Conversion

@Suite struct TextAlignmentTests {
    static let written = "In 1907, Dr. Reed left. He came back on May 3."
    static let spoken = "In nineteen oh seven, Doctor Reed left. He came back on May third."

    @Test func aSentenceStartsBeforeTheWrittenWordItsFirstSpokenWordStandsFor() {
        let alignment = TextAlignment(spoken: Self.spoken, written: Self.written)
        let second = Array(Self.spoken.utf16).firstIndex(of: UInt16(UInt8(ascii: "H")))!
        #expect(alignment.writtenStart(ofSpokenOffset: second) == 24)
        #expect(alignment.writtenStart(ofSpokenOffset: 0) == 0)
    }

    @Test(arguments: [("nineteen", "1907"), ("oh", "1907"), ("seven", "1907"), ("Doctor", "Dr"), ("third", "3")])
    func aSpokenWordShowsTheWrittenWordItStandsFor(spoken word: String, written: String) throws {
        let alignment = TextAlignment(spoken: Self.spoken, written: Self.written)
        let offset = try #require(Self.spoken.range(of: word)).lowerBound.utf16Offset(in: Self.spoken)
        let range = try #require(alignment.writtenRange(ofSpokenWordAt: offset))
        #expect(alignment.writtenText(range) == written)
    }

    @Test func aSentenceStartInsideARewrittenRunGoesToTheBooksSentenceStart() {
        // "p. 12." is one rewritten run ("page twelve."); the next sentence starts after it in both.
        let written = "See p. 12. Then stop."
        let spoken = "See page twelve. Then stop."
        let alignment = TextAlignment(spoken: spoken, written: written)
        let then = Array(spoken.utf16).firstIndex(of: UInt16(UInt8(ascii: "T")))!
        #expect(alignment.writtenStart(ofSpokenOffset: then) == 11)
    }

    @Test func anOpeningQuoteBelongsToTheSentenceItOpens() {
        let text = "He left. \u{201C}Why?\u{201D} she asked."
        let alignment = TextAlignment(spoken: text, written: text)
        let why = Array(text.utf16).firstIndex(of: UInt16(UInt8(ascii: "W")))!
        #expect(alignment.writtenStart(ofSpokenOffset: why) == 9)
    }

    @Test func textsWithNothingInCommonStillMapEveryPlace() {
        let alignment = TextAlignment(spoken: "alpha beta gamma. delta.", written: "1 2 3 4")
        #expect(alignment.writtenStart(ofSpokenOffset: 18) <= alignment.writtenLength)
        #expect(alignment.writtenRange(ofSpokenWordAt: 0) != nil)
    }
}

@Suite struct SectionTimingTests {
    /// A leading scene break, a title the book does not repeat, a normalised paragraph, a poem, a long
    /// paragraph of short sentences (made in parts with `partWords` 40).
    static func source() -> FakeSource {
        let long = (0..<24).map { "Line \($0) of the long part is here." }.joined(separator: " ")
        let blocks = [
            SpokenBlock(kind: .sceneBreak, text: "", source: SourcePosition(spineIndex: 1, blockIndex: 0)),
            SpokenBlock(kind: .title, text: "Chapter One", source: SourcePosition(spineIndex: 1, blockIndex: -1)),
            SpokenBlock(
                kind: .paragraph, text: "In nineteen oh seven, Doctor Reed left. He came back on May third.",
                source: SourcePosition(spineIndex: 1, blockIndex: 1),
                bookText: "In 1907, Dr. Reed left. He came back on May 3."),
            SpokenBlock(
                kind: .poemLine, text: "\u{201C}Roses are red,\u{201D} she said.",
                source: SourcePosition(spineIndex: 1, blockIndex: 2)),
            SpokenBlock(kind: .paragraph, text: long, source: SourcePosition(spineIndex: 1, blockIndex: 3)),
        ]
        let words = blocks.reduce(0) { $0 + WorkerSession.wordCount($1.text) }
        return FakeSource(
            sections: [PlannedSection(number: 1, title: "Chapter One", words: words)], texts: [1: blocks])
    }

    func request(_ sandbox: Sandbox, output: String, jobs: Int, partWords: Int, keepsTiming: Bool = true)
        -> ConversionRequest
    {
        var request = sandbox.request(output: output, jobs: jobs)
        request.partWords = partWords
        request.keepsTiming = keepsTiming
        return request
    }

    @Test func cuesAreTheSentencesInOrderWithTheBooksTextWholeOrInParts() async throws {
        let sandbox = try Sandbox()
        let source = Self.source()
        let env = environment(source: source)
        var timings: [SectionTiming] = []
        for (name, jobs, partWords) in [("whole", 1, 10_000), ("parts", 1, 40), ("parts2", 2, 40)] {
            let output = sandbox.root + "/" + name
            _ = try await threadConverter(env).run(request(sandbox, output: output, jobs: jobs, partWords: partWords))
            if name != "whole" {
                #expect(!sandbox.files(in: output).contains { $0.hasPrefix(SectionParts.filePrefix) }, "parts left")
            }
            timings.append(try #require(try SectionTimingFile.read(directory: output, section: 1)))
        }
        #expect(timings[1] == timings[0], "made in parts, the section has the same timing")
        #expect(timings[2] == timings[0], "whatever the jobs")
        let timing = timings[0]
        let blocks = try source.blocks(section: 1)
        let sentences = blocks.reduce(0) { $0 + SentenceSegmenter.sentenceRanges(in: $1.text).count }
        #expect(timing.cues.count == sentences)
        #expect(timing.sampleRate == 8000)
        // In order, not overlapping, inside the audio; the leading scene break's pause comes first.
        var previousEnd = 0
        for cue in timing.cues {
            #expect(cue.startFrame >= previousEnd && cue.endFrame > cue.startFrame && cue.endFrame <= timing.frames)
            previousEnd = cue.endFrame
        }
        #expect(timing.cues[0].startFrame >= ChunkerOptions().sceneBreakMS * 8)
        // The cue texts of a block, in order, are its text as the book writes it.
        for block in blocks where !block.text.isEmpty {
            let cues = timing.cues.filter { $0.source == block.source }
            #expect(
                cues.map(\.text).joined(separator: " ") == block.writtenText, "\(cues.map(\.text))")
        }
        #expect(timing.cues[0].source.blockIndex == -1)
        #expect(
            timing.cues.map(\.text).prefix(5) == [
                "Chapter One", "In 1907, Dr. Reed left.", "He came back on May 3.",
                "\u{201C}Roses are red,\u{201D} she said.", "Line 0 of the long part is here.",
            ])
        // Words: the book's words where the fake engine marked the spoken ones, in order, inside the cue.
        let first = timing.cues[1]
        let units = Array(first.text.utf16)
        #expect(
            first.words.map { String(decoding: units[$0.textRange], as: UTF16.self) } == [
                "In", "1907", "Dr", "Reed", "left",
            ])
        #expect(first.words.first?.startFrame == first.startFrame)
        #expect(zip(first.words, first.words.dropFirst()).allSatisfy { $0.startFrame < $1.startFrame })
    }

    @Test func theFakeEnginesMarksPlaceEverySentenceExactly() async throws {
        // The fake speaks 8 frames per UTF-8 byte: a sentence inside a chunk starts 8 frames per byte
        // of the chunk's text before it after the chunk's first frame.
        let sandbox = try Sandbox()
        let text = "One two. Three four five. Six."
        let source = FakeSource(
            sections: [PlannedSection(number: 1, title: "T", words: 6)],
            texts: [
                1: [SpokenBlock(kind: .paragraph, text: text, source: SourcePosition(spineIndex: 0, blockIndex: 0))]
            ])
        _ = try await Converter(environment: environment(source: source)).run(
            request(sandbox, output: sandbox.output, jobs: 1, partWords: 10_000))
        let timing = try #require(try SectionTimingFile.read(directory: sandbox.output, section: 1))
        let starts = timing.cues.map(\.startFrame)
        #expect(starts.map { $0 - starts[0] } == [0, 9 * 8, 26 * 8])
        #expect(timing.cues.map(\.endFrame) == [starts[1], starts[2], starts[0] + text.utf8.count * 8])
    }

    @Test func noTimingUnlessAskedAndADoneSectionWithoutItIsMadeAgainWhenAsked() async throws {
        let sandbox = try Sandbox()
        let env = environment(source: Self.source())
        let log = EventLog()
        _ = try await Converter(environment: env).run(
            request(sandbox, output: sandbox.output, jobs: 1, partWords: 10_000, keepsTiming: false))
        #expect(!sandbox.files().contains { $0.hasPrefix(".epub2audio") })
        _ = try await Converter(environment: env).run(
            request(sandbox, output: sandbox.output, jobs: 1, partWords: 10_000), onEvent: log.append)
        #expect(log.sectionDone.map(\.skipped) == [false], "made again for its timing")
        #expect(sandbox.files().contains(SectionTiming.fileName(section: 1)))
        let again = EventLog()
        _ = try await Converter(environment: env).run(
            request(sandbox, output: sandbox.output, jobs: 1, partWords: 10_000), onEvent: again.append)
        #expect(again.sectionDone.map(\.skipped) == [true], "done with its timing: kept")
        // Redone (--force): its timing goes with the old audio and comes back with the new.
        var forced = request(sandbox, output: sandbox.output, jobs: 1, partWords: 10_000, keepsTiming: false)
        forced.force = true
        _ = try await Converter(environment: env).run(forced)
        #expect(!sandbox.files().contains(SectionTiming.fileName(section: 1)))
    }

    @Test func aTimingFileOfASectionNotDoneIsRemovedAtTheStart() async throws {
        let sandbox = try Sandbox()
        let env = environment(source: Self.source())
        _ = try await Converter(environment: env).run(
            request(sandbox, output: sandbox.output, jobs: 1, partWords: 10_000))
        let stray = SectionTiming(section: 9, sampleRate: 8000, frames: 0, cues: [])
        try SectionTimingFile.write(stray, directory: sandbox.output)
        _ = try await Converter(environment: env).run(
            request(sandbox, output: sandbox.output, jobs: 1, partWords: 10_000))
        #expect(!sandbox.files().contains(SectionTiming.fileName(section: 9)))
        #expect(sandbox.files().contains(SectionTiming.fileName(section: 1)))
    }
}

@Suite struct SectionTimingBuilderTests {
    /// A sentence cut into chunks (a run in another script, a clause of a long sentence) is one cue
    /// from its first chunk's mark to its last chunk's sound end, with the words of every chunk.
    @Test func aSentenceSpreadOverChunksIsOneCue() {
        let text = "He wrote \u{65E5}\u{672C} twice. Then left."
        let block = SpokenBlock(kind: .paragraph, text: text, source: SourcePosition(spineIndex: 2, blockIndex: 5))
        func chunk(_ range: Range<Int>, _ ordinal: Int) -> SpeechChunk {
            let units = Array(text.utf16)
            return SpeechChunk(
                id: "c\(ordinal)", section: 1, source: block.source, textRange: range,
                text: String(decoding: units[range], as: UTF16.self))
        }
        // "He wrote " | "日本" | " twice. Then left." as script switching cuts them.
        let chunks = [chunk(0..<9, 0), chunk(9..<11, 1), chunk(11..<29, 2)]
        let word = { (range: Range<Int>, frame: Int) in SpeechMark(kind: .word, textRange: range, frame: frame) }
        let timings = [
            SpokenChunkTiming(
                startFrame: 100, soundStartFrame: 110, endFrame: 300,
                marks: [SpeechMark(kind: .sentence, textRange: 0..<0, frame: 10), word(0..<2, 10), word(3..<8, 120)]),
            SpokenChunkTiming(startFrame: 320, soundStartFrame: 330, endFrame: 500, marks: [word(0..<2, 10)]),
            SpokenChunkTiming(
                startFrame: 520, soundStartFrame: 520, endFrame: 900,
                marks: [
                    word(1..<6, 0), SpeechMark(kind: .sentence, textRange: 8..<8, frame: 250), word(8..<12, 250),
                    word(13..<17, 300),
                ]),
        ]
        let timing = SectionTimingBuilder.timing(
            section: 1, sampleRate: 8000, frames: 1000, blocks: [block], chunks: chunks, timings: timings)
        #expect(timing.cues.map(\.text) == ["He wrote \u{65E5}\u{672C} twice.", "Then left."])
        #expect(timing.cues.map(\.startFrame) == [110, 770])
        #expect(timing.cues.map(\.endFrame) == [770, 900])
        #expect(timing.cues[0].words.map(\.startFrame) == [110, 220, 330, 520])
        #expect(timing.cues[1].words.map(\.textRange) == [0..<4, 5..<9])
        #expect(timing.cues.allSatisfy { $0.source == block.source })
    }

    /// An engine without marks: sentences are placed in their chunk in proportion to their length.
    @Test func withoutMarksSentencesArePlacedByLength() {
        let text = "Aaaa aaaa. Bbbb bbbb."
        let block = SpokenBlock(kind: .paragraph, text: text, source: SourcePosition(spineIndex: 0, blockIndex: 0))
        let chunk = SpeechChunk(id: "c", section: 1, source: block.source, textRange: 0..<21, text: text)
        let timing = SectionTimingBuilder.timing(
            section: 1, sampleRate: 8000, frames: 500, blocks: [block], chunks: [chunk],
            timings: [SpokenChunkTiming(startFrame: 0, soundStartFrame: 80, endFrame: 290, marks: [])])
        #expect(timing.cues.map(\.startFrame) == [80, 80 + 210 * 11 / 21])
        #expect(timing.cues.map(\.endFrame) == [80 + 210 * 11 / 21, 290])
        #expect(timing.cues.allSatisfy { $0.words.isEmpty })
    }
}
