internal import BookText
import Contracts

/// How long a conversion's audio will be, reckoned from the chunks the engine will be given: their
/// words at the speaking rate, the silences the chunker puts around them, and the engine's own
/// silence at the ends of each.
///
/// Reckoned from the chunks rather than from a section's word count, the length sees what the words
/// alone miss: the title that is spoken, numbers and abbreviations spoken as several words ("1841"
/// is four), the pauses after headings, paragraphs, list items and lines of verse. These are most of
/// the audio of a short page: "Loomings. Call me Ishmael." is four words, 1.4 s at 175 words a
/// minute, in a section file of 4.7 s.
///
/// Speech and silence are kept apart: a compressed format writes silence in a fraction of the bytes
/// of speech (`OutputEstimate`).
public struct SpokenLength: Hashable, Sendable {
    /// Seconds of speech: the chunks' words at the rate.
    public var speechSeconds: Double
    /// Seconds of silence: the chunks' pauses and the engine's silence around each chunk.
    public var silenceSeconds: Double
    /// Both.
    public var seconds: Double { speechSeconds + silenceSeconds }

    /// A length of `speechSeconds` of speech and `silenceSeconds` of silence.
    public init(speechSeconds: Double = 0, silenceSeconds: Double = 0) {
        self.speechSeconds = speechSeconds
        self.silenceSeconds = silenceSeconds
    }

    /// The length of both.
    public static func + (left: SpokenLength, right: SpokenLength) -> SpokenLength {
        SpokenLength(
            speechSeconds: left.speechSeconds + right.speechSeconds,
            silenceSeconds: left.silenceSeconds + right.silenceSeconds)
    }

    /// Seconds espeak-ng adds to every chunk it speaks beyond its words: its lead-in and the pause
    /// after the chunk's last clause. Fitted with `secondsPerWord` to the section files of the sample
    /// books (32 and 67 chunks) and of one-page books of two chunks (docs/cli.md, "What a
    /// conversion will write").
    public static let engineSilencePerChunk = 0.4

    /// Seconds espeak-ng takes, at 175 words a minute, for each word of a chunk and each letter of
    /// it: a word is spoken in a time that grows with its letters (its sounds), so that Finnish or
    /// German text takes longer per word than French or English. Measured with espeak-ng 1.51 on
    /// English text of short words (2.6 letters a word: 0.243 s a word) and of long ones (12.8
    /// letters: 0.839 s), which French, German and Finnish sentences follow within 10%; then scaled
    /// (× 0.885) so that the English sample books' section files come out at their measured length,
    /// the chunks' own pauses counted apart.
    public static let secondsPerWord = 0.079
    /// See `secondsPerWord`.
    public static let secondsPerLetter = 0.052

    /// The audio of `chunks` at `wordsPerMinute`: their speech (words and letters, `secondsPerWord`
    /// and `secondsPerLetter`; Chinese, Japanese and Korean text by the character at the rates
    /// `SpeechDuration` measured), and as silence the pauses they carry and `engineSilencePerChunk`.
    public init(of chunks: some Sequence<SpeechChunk>, wordsPerMinute: Int) {
        self.init()
        for chunk in chunks {
            let words = chunk.text.split(whereSeparator: { $0.isWhitespace }).count
            let letters = ScriptCensus(chunk.text)
            speechSeconds += Self.speechSeconds(words: words, letters: letters, wordsPerMinute: wordsPerMinute)
            silenceSeconds +=
                Self.engineSilencePerChunk + Double(chunk.pauseBeforeMS + chunk.pauseAfterMS) / 1_000
        }
    }

    /// Seconds of speech of `words` words holding `letters` at `wordsPerMinute`.
    static func speechSeconds(words: Int, letters: ScriptCensus, wordsPerMinute: Int) -> Double {
        guard letters.characterTimedLetters == 0 else {
            return SpeechDuration.minutes(words: words, letters: letters, wordsPerMinute: wordsPerMinute) * 60
        }
        let atMeasuredRate = Double(words) * secondsPerWord + Double(letters.total) * secondsPerLetter
        return atMeasuredRate * Double(SpeechDuration.measuredRate) / Double(max(1, wordsPerMinute))
    }

    /// The audio of each section `request` selects (by number), from its spoken text as a
    /// conversion would read it (the same source, text options, normalisation and chunking) at the
    /// request's rate. Nothing is spoken or written.
    /// - Throws: `ConversionError` for a book or a section whose text cannot be read.
    public static func sections(of request: ConversionRequest, environment: ConversionEnvironment) throws
        -> [Int: SpokenLength]
    {
        let source = try environment.source(for: request)
        let selected = try request.selection.numbers(in: source.sections)
        let chunker = Chunker(options: request.chunking)
        var lengths: [Int: SpokenLength] = [:]
        for section in source.sections where selected.contains(section.number) {
            let blocks: [SpokenBlock]
            do {
                blocks = try source.blocks(section: section.number)
            } catch {
                throw ConversionError.sectionFailed(section: section.number, reason: "cannot read its text: \(error)")
            }
            lengths[section.number] = SpokenLength(
                of: chunker.lazyChunks(section: section.number, blocks: blocks), wordsPerMinute: request.voice.rate)
        }
        return lengths
    }
}
