internal import CEspeakNG
import Contracts

extension ESpeakSpeechEngine {
    /// The share of `script`'s letters `voice` reads as language, 0...1, asked of espeak-ng itself:
    /// sample words of the script (`ScriptSamples`) are translated to phonemes with the voice
    /// (`espeak_TextToPhonemes`), and a word counts as spoken unless the voice
    /// - hands it to English though the script is not Latin ("Chinese letter", "Arabic meem", or the
    ///   pinyin with tone digits `cmn` gives most Chinese characters),
    /// - spells it letter by letter (its phonemes match those of its letters apart: Cyrillic under
    ///   English, Latin under Japanese),
    /// - gives it an output ten or more phoneme symbols long per letter (a name, not a reading),
    /// - or gives most of the samples one and the same output (the script's name for each).
    ///
    /// A voice that hands a script to another language's voice that reads it (Greek under Russian
    /// goes to `el`, Devanagari under English to `hi`) speaks it. The answer depends on the installed
    /// data (espeak-ng 1.51 on Debian 12: `ja` speaks kana but no kanji, `cmn` about a fifth of the
    /// Chinese characters, `cmn-latn-pinyin` and `yue` all of them; docs/architecture.md).
    ///
    /// Computed once per voice and script in a process and cached. Works whether or not an engine
    /// is alive (the voice it had selected is selected again); a library that cannot be initialised
    /// answers 1 (nothing can be known, nothing is refused on a guess).
    public static func share(of script: Script, spokenBy voice: VoiceInfo) -> Double {
        ESpeakProcess.lock.lock()
        defer { ESpeakProcess.lock.unlock() }
        let key = "\(voice.identifier)|\(script.rawValue)"
        if let known = ESpeakProcess.scriptShares[key] { return known }
        guard (try? ESpeakProcess.initializeOnce()) != nil else { return 1 }
        let selected = voice.name.withCString { espeak_ng_SetVoiceByName($0) } == ENS_OK
        let share = selected ? measuredShare(of: script, voiceIsEnglish: isEnglish(voice)) : 1
        if let applied = ESpeakProcess.appliedVoice {
            // An engine is alive: give it back its voice and parameters (this cannot reasonably fail:
            // they were set before).
            try? apply(voice: applied.voice, settings: applied.settings)
        }
        ESpeakProcess.scriptShares[key] = share
        return share
    }

    /// The share of the samples of `script` the selected voice speaks (the lock is held).
    private static func measuredShare(of script: Script, voiceIsEnglish: Bool) -> Double {
        let samples = ScriptSamples.words(for: script)
        guard !samples.isEmpty else { return 1 }
        let readings = samples.map { phonemes(of: $0) }
        let plain = readings.map(bareSymbols)
        var outputs: [String: Int] = [:]
        for reading in plain { outputs[reading, default: 0] += 1 }
        var spoken = 0
        for (index, sample) in samples.enumerated() {
            let reading = readings[index]
            let letters = sample.unicodeScalars.count
            if script != .latin, !voiceIsEnglish, reading.contains("(en)") { continue }
            if plain[index].count >= 10 * letters { continue }
            if let same = outputs[plain[index]], same > 1, 2 * same >= samples.count { continue }
            if ScriptSamples.isSpelledApart(script), letters > 2, isSpelled(sample, reading: plain[index]) { continue }
            spoken += 1
        }
        return Double(spoken) / Double(samples.count)
    }

    /// Whether the voice reads `sample` as it reads its letters one by one.
    private static func isSpelled(_ sample: String, reading: String) -> Bool {
        let apart = bareSymbols(phonemes(of: sample.unicodeScalars.map { String($0) }.joined(separator: " ")))
        let longer = max(1, reading.count, apart.count)
        return Double(editDistance(reading, apart)) <= 0.25 * Double(longer)
    }

    /// espeak-ng's phoneme mnemonics for `text` with the selected voice, clause after clause (at
    /// most 16: samples are a word long). Language switches show as `(en)`.
    private static func phonemes(of text: String) -> String {
        var result = ""
        text.withCString { start in
            var cursor: UnsafeRawPointer? = UnsafeRawPointer(start)
            var clauses = 0
            while cursor != nil, clauses < 16 {
                guard let output = espeak_TextToPhonemes(&cursor, espeakCHARS_UTF8, 0) else { break }
                result += String(cString: output) + " "
                clauses += 1
            }
        }
        return result
    }

    /// The phoneme symbols alone: no language switches, stress marks, pauses or spaces.
    private static func bareSymbols(_ phonemes: String) -> String {
        var result = ""
        var inSwitch = false
        for character in phonemes {
            switch character {
            case "(": inSwitch = true
            case ")": inSwitch = false
            case " ", "_", ":", "|", "!", "'", ",", "\t", "\n": break
            default: if !inSwitch { result.append(character) }
            }
        }
        return result
    }

    private static func isEnglish(_ voice: VoiceInfo) -> Bool {
        voice.languages.first.map { primaryLanguage($0) == "en" } ?? false
    }
}

/// Words of each script that its languages' voices read as words: what `share(of:spokenBy:)` asks
/// espeak-ng to translate. Common words of the script's usual language, four letters or more where
/// the script spells words with letters; for Chinese characters, single characters (`cmn` reads some
/// and not others), the commonest ones in Simplified and in Traditional forms.
enum ScriptSamples {
    static func words(for script: Script) -> [String] {
        switch script {
        case .latin: ["music", "water", "garden", "window", "people", "Maria"]
        case .cyrillic: ["Привет", "книга", "город", "вода", "человек", "Москва"]
        case .greek: ["Καλημέρα", "θάλασσα", "βιβλίο", "άνθρωπος", "νερό", "πόλη"]
        case .armenian: ["Բարեւ", "աշխարհ", "գիրք", "քաղաք"]
        case .georgian: ["გამარჯობა", "წიგნი", "ქალაქი", "წყალი"]
        case .hebrew: ["שלום", "עולם", "ספר", "ירושלים", "מים"]
        case .arabic: ["مرحبا", "كتاب", "مدينة", "العالم", "الماء"]
        case .devanagari: ["नमस्ते", "दुनिया", "किताब", "पानी", "भारत"]
        case .bengali: ["বাংলা", "পৃথিবী", "বই", "জল"]
        case .gurmukhi: ["ਪੰਜਾਬੀ", "ਕਿਤਾਬ", "ਪਾਣੀ"]
        case .gujarati: ["ગુજરાતી", "પુસ્તક", "પાણી"]
        case .oriya: ["ଓଡ଼ିଆ", "ପୁସ୍ତକ", "ପାଣି"]
        case .tamil: ["தமிழ்", "புத்தகம்", "தண்ணீர்"]
        case .telugu: ["తెలుగు", "పుస్తకం", "నీరు"]
        case .kannada: ["ಕನ್ನಡ", "ಪುಸ್ತಕ", "ನೀರು"]
        case .malayalam: ["മലയാളം", "പുസ്തകം", "വെള്ളം"]
        case .sinhala: ["සිංහල", "පොත", "වතුර"]
        case .thai: ["สวัสดี", "ภาษาไทย", "หนังสือ", "ประเทศ"]
        case .myanmar: ["မြန်မာ", "စာအုပ်", "ရေ"]
        case .ethiopic: ["አማርኛ", "መጽሐፍ", "ውሃ"]
        case .hangul: ["안녕하세요", "세계", "한국어", "사람", "책"]
        case .hiragana: ["ひらがな", "ありがとう", "こんにちは", "さくら", "みず"]
        case .katakana: ["カタカナ", "テレビ", "コーヒー", "ラジオ", "パン"]
        case .han: han
        }
    }

    /// The commonest Chinese characters, then common Traditional forms.
    private static let han =
        Array("的一是不了人我在有他这中大来上个国到说们为子和你地出道也时年得就那要下以生会自着去之过家")
        .map(String.init)
        + Array("這們個來時會為對國說過後麼還發從當樣現實").map(String.init)

    /// Whether a word of `script` read as its letters apart shows spelling: not for scripts whose
    /// characters are syllables or words on their own (the Chinese characters, kana, Hangul,
    /// Ethiopic) or that write no spaces between words (Thai, Myanmar), whose letters apart a voice
    /// reads much as the word.
    static func isSpelledApart(_ script: Script) -> Bool {
        !script.isCharacterTimed && script != .ethiopic && script != .thai && script != .myanmar
    }
}
