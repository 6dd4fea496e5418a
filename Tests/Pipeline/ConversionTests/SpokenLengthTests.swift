import Contracts
import Foundation
import Testing

@testable import Conversion

@Suite("The audio's length reckoned from the chunks the engine will be given")
struct SpokenLengthTests {
    static func chunk(_ text: String, before: Int = 0, after: Int = 0) -> SpeechChunk {
        SpeechChunk(
            id: "c", section: 1, source: SourcePosition(spineIndex: 0, blockIndex: 0), textRange: 0..<text.utf16.count,
            text: text, pauseBeforeMS: before, pauseAfterMS: after)
    }

    @Test("a chunk is its speech at the rate, its pauses and the engine's silence around it")
    func chunkSeconds() {
        // 35 words of 4 letters at 175 words a minute.
        let words = Array(repeating: "word", count: 35).joined(separator: " ")
        let speech = 35 * SpokenLength.secondsPerWord + 140 * SpokenLength.secondsPerLetter
        let length = SpokenLength(of: [Self.chunk(words, before: 300, after: 1_500)], wordsPerMinute: 175)
        #expect(abs(length.speechSeconds - speech) < 1e-9)
        #expect(abs(length.silenceSeconds - (SpokenLength.engineSilencePerChunk + 1.8)) < 1e-9)
        #expect(length.seconds == length.speechSeconds + length.silenceSeconds)
        // Twice the rate: the speech takes half as long, the pauses and the silence do not change.
        let fast = SpokenLength(of: [Self.chunk(words, before: 300, after: 1_500)], wordsPerMinute: 350).seconds
        #expect(abs(fast - (speech / 2 + SpokenLength.engineSilencePerChunk + 1.8)) < 1e-9)
    }

    @Test("long words take longer than short ones: the same number of words, more letters, more time")
    func wordLength() {
        let short = SpokenLength(of: [Self.chunk("the cat sat on a mat")], wordsPerMinute: 175).seconds
        let long = SpokenLength(
            of: [Self.chunk("administrative departments experimented unquestionably systematically onward")],
            wordsPerMinute: 175
        ).seconds
        #expect(long > short * 2)
    }

    @Test("a page of a few words is mostly the pauses and the engine's silence of its chunks")
    func shortPage() {
        let chunks = [Self.chunk("Loomings", after: 600), Self.chunk("Call me Ishmael.", after: 1_500)]
        let seconds = SpokenLength(of: chunks, wordsPerMinute: 175).seconds
        let wordsAlone = 4.0 * 60 / 175
        #expect(seconds > wordsAlone + 2.1 + 2 * SpokenLength.engineSilencePerChunk - 0.5)
        let parts =
            SpokenLength(of: chunks.prefix(1), wordsPerMinute: 175)
            + SpokenLength(of: chunks.suffix(1), wordsPerMinute: 175)
        #expect(abs(seconds - parts.seconds) < 1e-9)
    }

    @Test("Chinese text is timed by the character at the measured rate, not sped up")
    func characterTimed() {
        let text = String(repeating: "中", count: 210)
        let seconds = SpokenLength(of: [Self.chunk(text)], wordsPerMinute: 175).seconds
        // 210 characters at 210 a minute.
        #expect(abs(seconds - (60 + SpokenLength.engineSilencePerChunk)) < 1e-6)
    }

    @Test("a request's sections: only those selected, each from its chunks (title and pauses counted)")
    func requestSections() throws {
        let source = FakeSource.make(count: 3, words: 20)
        var request = ConversionRequest(
            bookPath: "/nonexistent.epub", outputDirectory: "/nonexistent", selection: .numbers([2, 3]))
        request.voice.rate = 175
        let lengths = try SpokenLength.sections(of: request, environment: environment(source: source))
        #expect(Set(lengths.keys) == [2, 3])
        for number in [2, 3] {
            let chunks = Chunker(options: request.chunking).chunks(
                section: number, blocks: try source.blocks(section: number))
            #expect(lengths[number] == SpokenLength(of: chunks, wordsPerMinute: 175))
            // More than the words alone: the title is spoken, the scene break and the section's end are silence.
            let words = Double(source.sections[number - 1].words) * SpokenLength.secondsPerWord
            #expect(try #require(lengths[number]?.seconds) > words + 3)
        }
    }
}
