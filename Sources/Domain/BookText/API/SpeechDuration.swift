import Contracts

/// How long text takes to speak, roughly: words at the speaking rate, and the scripts written
/// without spaces between words (Chinese characters, kana, Hangul) by the character, which the
/// word count only approximates (it counts such text at two characters a word).
public enum SpeechDuration {
    /// The speaking rate the figures below were measured at (espeak-ng's default, words per minute).
    public static let measuredRate = 175

    /// Characters spoken per minute at `measuredRate`, measured with espeak-ng 1.51 on a few hundred
    /// characters of running text (docs/architecture.md, "Text a voice cannot speak"): Chinese
    /// characters 200 (`cmn-latn-pinyin`) and 231 (`yue`) a minute, kana 405 (`ja`), Hangul
    /// syllables 311 (`ko`). A Latin word takes about as long as two Chinese characters.
    public static let charactersPerMinute: [Script: Double] = [
        .han: 210, .hiragana: 400, .katakana: 400, .hangul: 310,
    ]

    /// Minutes of speech for text of `words` words holding `letters`, at `wordsPerMinute`.
    public static func minutes(words: Int, letters: ScriptCensus, wordsPerMinute: Int = measuredRate) -> Double {
        let rate = Double(max(1, wordsPerMinute))
        let timed = letters.characterTimedLetters
        guard timed > 0, letters.total > 0 else { return Double(max(0, words)) / rate }
        // The words of the rest of the text, in proportion to its letters.
        let otherWords = Double(max(0, words)) * Double(letters.total - timed) / Double(letters.total)
        var characterMinutes = 0.0
        for (script, perMinute) in charactersPerMinute {
            characterMinutes += Double(letters[script]) / perMinute
        }
        return otherWords / rate + characterMinutes * Double(measuredRate) / rate
    }

    /// The words of Latin text that take as long to speak as `words` words holding `letters`: what a
    /// threshold in words (`SkippedText.largeSectionWords`) compares.
    public static func wordEquivalent(words: Int, letters: ScriptCensus) -> Int {
        Int((minutes(words: words, letters: letters) * Double(measuredRate)).rounded())
    }
}
