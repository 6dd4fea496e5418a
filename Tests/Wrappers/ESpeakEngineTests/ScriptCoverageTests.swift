import Contracts
import TestSupport
import Testing

@testable import ESpeakEngine

/// `share(of:spokenBy:)` asks espeak-ng; these are what espeak-ng 1.51 (Debian 12) does, checked
/// here so that the table in docs/architecture.md stays true and a newer espeak-ng that changes it
/// is noticed. Part of the serialized engine suite: espeak-ng is process-global.
extension ESpeakSpeechEngineTests {
    static func installed(_ name: String) throws -> VoiceInfo {
        try ESpeakSpeechEngine.resolveVoice(name, installed: ESpeakSpeechEngine.installedVoices())
    }

    @Test(
        arguments: [
            // The voice's own script.
            ("en", Script.latin, true), ("ru", .cyrillic, true), ("el", .greek, true), ("he", .hebrew, true),
            ("ar", .arabic, true), ("ko", .hangul, true), ("hi", .devanagari, true), ("th", .thai, true),
            ("ja", .hiragana, true), ("ja", .katakana, true),
            // Japanese: every kanji is "Chinese letter". Mandarin (`cmn`): most characters are English
            // pinyin with tone digits; `cmn-latn-pinyin` and Cantonese read them all, Traditional too.
            ("ja", .han, false), ("cmn", .han, false), ("cmn-latn-pinyin", .han, true), ("yue", .han, true),
            // `cmn-latn-pinyin` reads some English words as pinyin.
            ("cmn-latn-pinyin", .latin, false),
            // Other scripts: named or spelled...
            ("en", .cyrillic, false), ("en", .greek, false), ("en", .han, false), ("en", .hiragana, false),
            ("ru", .han, false), ("ru", .hebrew, false), ("ja", .latin, false), ("ja", .cyrillic, false),
            // ...or handed by espeak-ng itself to a voice that reads them.
            ("ru", .latin, true), ("ru", .greek, true), ("en", .devanagari, true), ("en", .hangul, true),
        ] as [(String, Script, Bool)])
    func espeakSaysWhichScriptsAVoiceSpeaks(voice: String, script: Script, speaks: Bool) throws {
        let share = ESpeakSpeechEngine.share(of: script, spokenBy: try Self.installed(voice))
        // 0.9: `SpeakableText.speaksShare`.
        #expect((share >= 0.9) == speaks, "\(voice) speaks \(script.name) at \(share)")
    }

    @Test func mandarinReadsFewChineseCharacters() throws {
        let share = ESpeakSpeechEngine.share(of: .han, spokenBy: try Self.installed("cmn"))
        #expect(share > 0.05 && share < 0.5, "cmn speaks \(share) of the Chinese characters")
    }

    @Test func askingKeepsTheEnginesVoice() throws {
        let engine = try ESpeakSpeechEngine(settings: VoiceSettings(voice: "en-us", rate: 200))
        let japanese = try Self.installed("ja")
        // Not cached yet for this voice variant of the question: the library selects `ja` to ask.
        _ = ESpeakSpeechEngine.share(of: .ethiopic, spokenBy: japanese)
        #expect(engine.currentLibraryVoice().languages.contains("en-us"))
        var samples = 0
        try engine.synthesize("Hello there.", language: nil) {
            samples += $0.count; return true
        }
        #expect(samples > engine.sampleRate / 4)
    }

    @Test func aRunInAnotherScriptIsReadByTheVoiceItNames() throws {
        let engine = try ESpeakSpeechEngine(settings: VoiceSettings(voice: "ru"))
        try engine.synthesize("日本語のテキスト", language: "ja") { _ in true }
        #expect(engine.lastVoice.identifier == "jpx/ja")
        try engine.synthesize("山", language: "cmn-Latn-pinyin") { _ in true }
        #expect(engine.lastVoice.identifier == "sit/cmn-Latn-pinyin")
        try engine.synthesize("Слово", language: nil) { _ in true }
        #expect(engine.lastVoice.identifier == engine.voice.identifier)
    }
}
