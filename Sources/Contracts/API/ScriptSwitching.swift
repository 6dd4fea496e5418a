/// Which voice reads a run of text in a script the voice of its block cannot speak, as `xml:lang`
/// switches voices for a marked passage: untagged Japanese examples in a Russian text go to the
/// Japanese voice, a Cyrillic name in an English text to the Russian one.
///
/// The chunker cuts such runs into chunks of their own whose `language` names the voice to switch
/// to (`SpeechChunk.language`). A run in a script the block's language writes is its own text and is
/// never switched (kanji in Japanese text stay with the Japanese voice, even one that cannot speak
/// them). Part of `ChunkerOptions`, and so of the settings a finished section is checked against.
public struct ScriptSwitching: Hashable, Sendable, Codable {
    /// The language of the configured voice: what a block without a language of its own is read in.
    public var voiceLanguage: String
    /// The language whose voice reads runs of each script (`ja` for kana, `ru` for Cyrillic,
    /// `cmn-latn-pinyin` for Han); a script without an entry is never switched. A run of Han, kana
    /// and Hangul together is Japanese when it holds kana, Korean when it holds Hangul, else Han.
    public var targets: [Script: String]

    /// Switching from a voice of `voiceLanguage` to `targets`.
    public init(voiceLanguage: String, targets: [Script: String]) {
        self.voiceLanguage = voiceLanguage
        self.targets = targets
    }

    /// A stretch of a block's text and the language that reads it (nil: the block's own).
    public struct Run: Hashable, Sendable {
        /// Scalar offsets into the text.
        public var range: Range<Int>
        /// The language to switch to, or nil.
        public var language: String?

        /// `range` read in `language`.
        public init(range: Range<Int>, language: String?) {
            self.range = range
            self.language = language
        }
    }

    /// The runs of `scalars[range]`, in order and covering all of it, for a block in `blockLanguage`
    /// (nil: the voice's). Neutral characters (spaces, digits, punctuation) between two letters of a
    /// switched run belong to it; at its edges they stay with the text around it, except CJK
    /// punctuation, which stays with CJK text. A stretch with no letter or digit of its own is never
    /// a run apart: it joins the run before it. Letters standing alone ("λ = 2α", a variable; "x" in
    /// Cyrillic text) are no words of the script (`LetterRun.isSpeech`) and stay with the block's
    /// voice, which names them.
    public func runs(_ scalars: [Unicode.Scalar], in range: Range<Int>, blockLanguage: String?) -> [Run] {
        let reading = blockLanguage ?? voiceLanguage
        var runs: [Run] = []
        func append(_ piece: Range<Int>, _ language: String?) {
            guard !piece.isEmpty else { return }
            if let last = runs.last, last.language == language || !Self.hasWords(scalars[piece]) {
                runs[runs.count - 1].range = last.range.lowerBound..<piece.upperBound
            } else if let last = runs.last, !Self.hasWords(scalars[last.range]) {
                runs[runs.count - 1] = Run(range: last.range.lowerBound..<piece.upperBound, language: language)
            } else {
                runs.append(Run(range: piece, language: language))
            }
        }
        var position = range.lowerBound
        for letters in LetterRun.runs(scalars, in: range) where letters.isSpeech {
            guard let target = target(for: Set(letters.letters.keys), reading: reading) else { continue }
            var start = letters.range.lowerBound
            var end = letters.range.upperBound
            if letters.family == .han {
                while start > position, Script.isCJKPunctuation(scalars[start - 1].value) { start -= 1 }
                while end < range.upperBound, Script.isCJKPunctuation(scalars[end].value) { end += 1 }
            }
            append(position..<start, blockLanguage)
            append(start..<end, target)
            position = end
        }
        append(position..<range.upperBound, blockLanguage)
        return runs
    }

    /// The language a run of letters in `scripts` switches to in text read in `reading`, or nil.
    func target(for scripts: Set<Script>, reading: String) -> String? {
        let deciding: Script
        if scripts.contains(.hiragana) || scripts.contains(.katakana) {
            deciding = scripts.contains(.hiragana) ? .hiragana : .katakana
        } else if scripts.contains(.hangul) {
            deciding = .hangul
        } else if let only = scripts.first {
            deciding = only
        } else {
            return nil
        }
        // Text in the reading language's own script stays with its voice (kanji in Japanese text;
        // kana decide a run of kanji and kana, so a Japanese quotation in Chinese text is switched).
        guard !deciding.isWritten(byLanguage: reading), let target = targets[deciding],
            Script.primaryLanguage(target) != Script.primaryLanguage(reading)
        else { return nil }
        return target
    }

    /// Whether a stretch holds a letter or a digit: something a voice says.
    static func hasWords(_ scalars: ArraySlice<Unicode.Scalar>) -> Bool {
        scalars.contains { $0.properties.isAlphabetic || $0.properties.numericType != nil }
    }
}
