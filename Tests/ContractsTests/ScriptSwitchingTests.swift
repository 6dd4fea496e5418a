import Foundation
import Testing

@testable import Contracts

/// The runs of `text` as (text, language) pairs.
private func runs(_ switching: ScriptSwitching, _ text: String, blockLanguage: String? = nil) -> [(String, String?)] {
    let scalars = Array(text.unicodeScalars)
    return switching.runs(scalars, in: 0..<scalars.count, blockLanguage: blockLanguage).map {
        (String(String.UnicodeScalarView(scalars[$0.range])), $0.language)
    }
}

private let russian = ScriptSwitching(
    voiceLanguage: "ru", targets: [.hiragana: "ja", .katakana: "ja", .han: "cmn-latn-pinyin", .greek: "el"])

@Suite struct ScriptSwitchingTests {
    @Test func aJapaneseRunInRussianTextGoesToTheJapaneseVoice() {
        let found = runs(russian, "Слово 日本語のテキスト значит «японский текст».")
        #expect(found.map(\.0) == ["Слово ", "日本語のテキスト", " значит «японский текст»."])
        #expect(found.map(\.1) == [nil, "ja", nil])
    }

    @Test func hanWithoutKanaGoesToTheHanVoice() {
        let found = runs(russian, "Иероглиф 山 значит гора.")
        #expect(found.map(\.0) == ["Иероглиф ", "山", " значит гора."])
        #expect(found.map(\.1) == [nil, "cmn-latn-pinyin", nil])
    }

    @Test func neutralCharactersInsideARunStayInIt() {
        let found = runs(russian, "Пример: 第3章 「山」 и ещё.")
        #expect(found.map(\.0) == ["Пример: ", "第3章 「山」", " и ещё."])
    }

    @Test func kanjiInJapaneseTextStayWithTheJapaneseVoice() {
        let japanese = ScriptSwitching(voiceLanguage: "ja", targets: [.han: "cmn-latn-pinyin", .latin: "en"])
        let found = runs(japanese, "山路を登りながら、こう考えた。Natsume Soseki")
        #expect(found.map(\.0) == ["山路を登りながら、こう考えた。", "Natsume Soseki"])
        #expect(found.map(\.1) == [nil, "en"])
    }

    @Test func aBlockInTheScriptsOwnLanguageIsNeverSwitched() {
        // A passage marked xml:lang="ja" in a Russian book: its kana are its own.
        #expect(runs(russian, "日本語のテキスト", blockLanguage: "ja").map(\.1) == ["ja"])
        #expect(runs(russian, "日本語のテキスト", blockLanguage: "ja").count == 1)
    }

    @Test func aScriptWithoutATargetStays() {
        let found = runs(russian, "Слово שלום значит мир.")
        #expect(found.count == 1)
        #expect(found[0].1 == nil)
    }

    @Test func aBlockLanguageCarriesToTheTextAroundARun() {
        let found = runs(russian, "Слово 日本 значит", blockLanguage: "uk")
        #expect(found.map(\.1) == ["uk", "cmn-latn-pinyin", "uk"])
    }

    @Test func punctuationAloneNeverMakesAChunk() {
        let found = runs(russian, "«日本語のテキスト».")
        #expect(found.count == 1)
        #expect(found[0].1 == "ja")
    }

    @Test func lettersStandingAloneStayWithTheBlocksVoice() {
        let greek = ScriptSwitching(voiceLanguage: "en", targets: [.greek: "el", .cyrillic: "ru"])
        #expect(runs(greek, "Let λ be the eigenvalue and α + β its bounds.").count == 1)
        let found = runs(greek, "He wrote λόγος and then Он и она.")
        #expect(found.map(\.0) == ["He wrote ", "λόγος", " and then ", "Он и она."])
        #expect(found.map(\.1) == [nil, "el", nil, "ru"])
    }

    @Test func combiningMarksStayWithTheirLetter() {
        let greek = ScriptSwitching(voiceLanguage: "en", targets: [.greek: "el"])
        let found = runs(greek, "The word λο\u{301}γος means word.")
        #expect(found.map(\.0) == ["The word ", "λο\u{301}γος", " means word."])
    }

    @Test func theChunkerCutsSwitchedRunsIntoChunksOfTheirOwn() {
        let text = "Слово 日本語のテキスト значит «японский текст». Второе предложение."
        let block = SpokenBlock(
            kind: .paragraph, text: text, source: SourcePosition(spineIndex: 2, blockIndex: 5))
        let chunker = Chunker(options: ChunkerOptions(scriptSwitching: russian))
        let chunks = chunker.chunks(section: 4, block: block)
        #expect(chunks.map(\.language) == [nil, "ja", nil])
        #expect(chunks.map(\.id) == ["s4-b2.5-c0", "s4-b2.5-c1", "s4-b2.5-c2"])
        #expect(chunks.map(\.pauseAfterMS) == [0, 0, ChunkerOptions().paragraphMS])
        let utf16 = Array(text.utf16)
        for chunk in chunks {
            #expect(String(decoding: utf16[chunk.textRange], as: UTF16.self) == chunk.text)
        }
        #expect(chunks.map(\.text).joined() == text)
        // Without switching, the same block is one chunk in the block's language.
        #expect(Chunker().chunks(section: 4, block: block).map(\.language) == [nil])
    }

    @Test func switchingOptionsRoundTripAndStayOutOfTheJSONWhenAbsent() throws {
        let plain = String(decoding: try JSONEncoder().encode(ChunkerOptions()), as: UTF8.self)
        #expect(!plain.contains("scriptSwitching"))
        let options = ChunkerOptions(scriptSwitching: russian)
        let decoded = try JSONDecoder().decode(ChunkerOptions.self, from: try JSONEncoder().encode(options))
        #expect(decoded == options)
        #expect(decoded.scriptSwitching?.targets[.han] == "cmn-latn-pinyin")
    }
}
