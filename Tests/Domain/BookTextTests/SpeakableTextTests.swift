import BookText
import Contracts
import EPUBReader
import Foundation
import Testing

private let japanese = VoiceInfo(name: "Japanese", languages: ["ja"], identifier: "jpx/ja")
private let russian = VoiceInfo(name: "Russian", languages: ["ru"], identifier: "zle/ru")
private let english = VoiceInfo(name: "English_(Great_Britain)", languages: ["en-gb", "en"], identifier: "gmw/en")
private let greek = VoiceInfo(name: "Greek", languages: ["el"], identifier: "grk/el")
private let mandarin = VoiceInfo(
    name: "Chinese_(Mandarin,_latin_as_English)", languages: ["cmn", "zh-cmn", "zh"], identifier: "sit/cmn")
private let pinyin = VoiceInfo(
    name: "Chinese_(Mandarin,_latin_as_Pinyin)", languages: ["cmn-latn-pinyin", "zh-cmn", "zh"],
    identifier: "sit/cmn-Latn-pinyin")
private let installed = [english, greek, japanese, mandarin, pinyin, russian]

/// What espeak-ng 1.51 does, as `ESpeakSpeechEngine.share(of:spokenBy:)` measures it: each voice
/// speaks the scripts of its language, except that `ja` names every kanji and `cmn` reads about a
/// fifth of the Chinese characters; Latin goes to English from every voice but Japanese.
private func share(_ voice: VoiceInfo, _ script: Script) -> Double {
    switch (voice.identifier, script) {
    case ("jpx/ja", .han), ("jpx/ja", .latin): 0
    case ("sit/cmn", .han): 0.2
    case (_, .latin): 1
    default: script.isWritten(byLanguage: voice.languages[0]) ? 1 : 0
    }
}

/// Sections numbered from 1, read unless said otherwise, holding `letters` each.
private func sections(_ letters: [[Script: Int]], skipped: Set<Int> = []) -> [BookSection] {
    letters.enumerated().map { offset, counts in
        let position = SourcePosition(spineIndex: offset, blockIndex: 0)
        return BookSection(
            number: offset + 1, title: "Section \(offset + 1)", href: EPUBLink(path: "s\(offset + 1).xhtml"),
            spine: ["s\(offset + 1).xhtml"], role: .body, kind: .chapter, words: 100,
            letters: ScriptCensus(counts), included: !skipped.contains(offset + 1), start: position, end: position)
    }
}

@Suite struct SpeakableTextTests {
    @Test func kanjiUnderTheJapaneseVoiceAreWarnedAbout() throws {
        let book = sections([[.hiragana: 600, .han: 400], [.hiragana: 1_000], [.hiragana: 700, .han: 300]])
        let report = SpeakableText.assess(book, voice: japanese, installed: installed, bookLanguage: "ja", share: share)
        #expect(report.unspeakable.counts == [.han: 700])
        #expect(report.unspeakableShare == 700.0 / 3_000)
        #expect(report.sections == [1, 3])
        #expect(report.warrantsWarning && !report.refuses)
        // Kanji in Japanese text are the voice's own: never handed to a Chinese voice.
        #expect(report.switching == nil)
        let problem = try #require(report.problem)
        #expect(problem.hasPrefix("23% of the text (sections 1, 3) is in a script the voice 'ja' cannot speak: Han"))
        #expect(problem.hasSuffix("no installed voice of its language speaks it"))
    }

    @Test func mostOfTheTextUnspeakableIsRefused() {
        let book = sections([[.hiragana: 300, .han: 700], [.hiragana: 400, .han: 600]])
        let report = SpeakableText.assess(book, voice: japanese, installed: installed, bookLanguage: "ja", share: share)
        #expect(report.refuses)
        #expect(report.unspeakableShare == 0.65)
    }

    @Test func japaneseAndChineseRunsInRussianTextSwitchVoices() throws {
        let book = sections([[.cyrillic: 5_000, .hiragana: 80, .katakana: 20, .han: 40], [.cyrillic: 5_000, .han: 9]])
        let report = SpeakableText.assess(book, voice: russian, installed: installed, bookLanguage: "ru", share: share)
        let switching = try #require(report.switching)
        #expect(switching.voiceLanguage == "ru")
        #expect(switching.targets == [.hiragana: "ja", .katakana: "ja", .han: "cmn-Latn-pinyin"])
        // With kana about, the kanji go with the kana to the Japanese voice, which names them.
        #expect(report.unspeakable.counts == [.han: 40])
        #expect(!report.warrantsWarning)
        #expect(
            report.switches == "text in other scripts is read by other voices: "
                + "Hiragana, Katakana and Han (Chinese characters) by 'ja', Han (Chinese characters) by 'cmn-Latn-pinyin'"
        )
    }

    @Test func aChineseBookPrefersTheVoiceThatReadsItsCharacters() throws {
        let book = sections([[.han: 5_000, .latin: 50], [.han: 4_000]])
        let chosen = SpeakableText.preferredVoice(mandarin, for: book, installed: installed, share: share)
        #expect(chosen == pinyin)
        let report = SpeakableText.assess(book, voice: mandarin, installed: installed, bookLanguage: "zh", share: share)
        #expect(report.refuses)
        #expect(report.suggestedVoice == "cmn-Latn-pinyin")
        #expect(try #require(report.problem).hasSuffix("the voice 'cmn-Latn-pinyin' speaks it"))
        let preferred = SpeakableText.assess(
            book, voice: pinyin, installed: installed, bookLanguage: "zh", share: share)
        #expect(preferred.unspeakable.isEmpty && !preferred.warrantsWarning)
    }

    @Test func aScriptNoInstalledVoiceSpeaksStaysUnspeakable() {
        let book = sections([[.latin: 900, .thai: 100]])
        let report = SpeakableText.assess(book, voice: english, installed: installed, bookLanguage: "en", share: share)
        #expect(report.switching == nil)
        #expect(report.unspeakable.counts == [.thai: 100])
        #expect(report.warrantsWarning)
    }

    @Test func greekWordsInEnglishTextGoToTheGreekVoice() {
        let book = sections([[.latin: 10_000, .greek: 120]])
        let report = SpeakableText.assess(book, voice: english, installed: installed, bookLanguage: "en", share: share)
        #expect(report.switching?.targets == [.greek: "el"])
        #expect(report.switchedTo == ["el": [.greek]])
        #expect(report.unspeakable.isEmpty)
    }

    @Test func skippedSectionsDoNotCount() {
        let book = sections([[.hiragana: 1_000], [.han: 5_000]], skipped: [2])
        let report = SpeakableText.assess(book, voice: japanese, installed: installed, bookLanguage: "ja", share: share)
        #expect(report.totalLetters == 1_000)
        #expect(report.unspeakable.isEmpty)
    }

    @Test func aFewForeignLettersAreNoReasonToWarn() {
        let book = sections([[.latin: 100_000, .thai: 30]])
        let report = SpeakableText.assess(book, voice: english, installed: installed, bookLanguage: "en", share: share)
        #expect(report.unspeakable.total == 30)
        #expect(!report.warrantsWarning)
        #expect(report.problem == nil)
    }

    @Test func theJSONFormNamesScriptsAndVoices() throws {
        let book = sections([[.hiragana: 300, .han: 700, .latin: 10]])
        let report = SpeakableText.assess(book, voice: japanese, installed: installed, bookLanguage: "ja", share: share)
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let json = String(decoding: try encoder.encode(report), as: UTF8.self)
        #expect(
            json == #"{"letters":1010,"refused":true,"sections":[1],"switchedTo":{"en":["Latn"]},"#
                + #""unspeakable":{"Hani":700},"unspeakableShare":0.69,"voice":"ja"}"#)
    }
}

@Suite struct SpeechDurationTests {
    @Test func latinTextIsTimedByTheWord() {
        #expect(SpeechDuration.minutes(words: 1_750, letters: ScriptCensus([.latin: 8_000])) == 10)
        #expect(SpeechDuration.minutes(words: 1_750, letters: ScriptCensus([.latin: 8_000]), wordsPerMinute: 350) == 5)
    }

    @Test func chineseJapaneseAndKoreanAreTimedByTheCharacter() {
        // 4,200 Chinese characters count as 2,100 words: 12 minutes by the word, 20 by the character.
        #expect(SpeechDuration.minutes(words: 2_100, letters: ScriptCensus([.han: 4_200])) == 20)
        #expect(SpeechDuration.minutes(words: 2_100, letters: ScriptCensus([.han: 4_200]), wordsPerMinute: 350) == 10)
        #expect(SpeechDuration.minutes(words: 500, letters: ScriptCensus([.hiragana: 2_000, .han: 0])) == 5)
        #expect(SpeechDuration.minutes(words: 100, letters: ScriptCensus([.hangul: 3_100])) == 10)
    }

    @Test func mixedTextAddsBoth() {
        // Half the letters Latin: half the words are timed by the word, the characters by the character.
        let minutes = SpeechDuration.minutes(words: 3_500, letters: ScriptCensus([.latin: 2_100, .han: 2_100]))
        #expect(minutes == 20)
    }

    @Test func aLongSkippedChineseSectionIsWarnedAboutByItsLength() {
        // 5,000 characters: 2,500 words, under the 3,000-word threshold, but 24 minutes of speech.
        let position = SourcePosition(spineIndex: 0, blockIndex: 0)
        let section = BookSection(
            number: 1, title: "附錄", href: EPUBLink(path: "a.xhtml"), spine: ["a.xhtml"], role: .back, kind: .appendix,
            words: 2_500, letters: ScriptCensus([.han: 5_000]), included: false, start: position, end: position)
        let chapter = BookSection(
            number: 2, title: "第一回", href: EPUBLink(path: "b.xhtml"), spine: ["b.xhtml"], role: .body, kind: .chapter,
            words: 40_000, letters: ScriptCensus([.han: 80_000]), included: true, start: position, end: position)
        #expect(
            SkippedText.warnings(for: [section, chapter]) == [.largeSection(number: 1, kind: .appendix, words: 2_500)])
        var short = section
        short.letters = ScriptCensus([.latin: 12_000])
        #expect(SkippedText.warnings(for: [short, chapter]).isEmpty)
    }
}

@Suite("Blocks in languages the voice does not speak")
struct LanguageSwitchesLineTests {
    @Test("one line naming each language and its voice, and what the voice speaks; nil when none")
    func line() {
        let neural = VoiceInfo(name: "joe", languages: ["en-US"], identifier: "piper:en_US-joe-medium")
        var report = SpeakableTextReport(voice: neural, totalLetters: 100)
        #expect(report.languageSwitches == nil)
        report.otherLanguages = ["el": "el", "de": "de"]
        #expect(
            report.languageSwitches
                == "text in other languages is read by other voices: de by 'de', el by 'el'"
                + " (the voice 'piper:en_US-joe-medium' speaks en-US)")
    }
}
