import Foundation
import Testing

@testable import Contracts

@Suite struct ScriptsTests {
    @Test(arguments: [
        ("a", Script.latin), ("É", .latin), ("ß", .latin), ("ж", .cyrillic), ("λ", .greek), ("ա", .armenian),
        ("ש", .hebrew), ("ب", .arabic), ("न", .devanagari), ("ক", .bengali), ("த", .tamil), ("ก", .thai),
        ("ა", .georgian), ("한", .hangul), ("ひ", .hiragana), ("カ", .katakana), ("ー", .katakana), ("漢", .han),
        ("々", .han), ("ｶ", .katakana), ("Ａ", .latin),
    ])
    func lettersHaveTheirScript(letter: String, script: Script) {
        #expect(Script(letter: letter.unicodeScalars.first!) == script)
    }

    @Test(arguments: ["1", " ", ".", "-", "«", "、", "。", "「", ";", "،", "।", "٣", "©", "\u{301}", "×"])
    func nonLettersHaveNone(character: String) {
        #expect(Script(letter: character.unicodeScalars.first!) == nil)
    }

    @Test func aCensusCountsLettersOnly() {
        let census = ScriptCensus("Привет, world 42! 日本語のテキスト。")
        #expect(census[.cyrillic] == 6)
        #expect(census[.latin] == 5)
        #expect(census[.han] == 3)
        #expect(census[.hiragana] == 1)
        #expect(census[.katakana] == 4)
        #expect(census.total == 19)
        #expect(census.scripts == [.latin, .cyrillic, .hiragana, .katakana, .han])
        #expect(census.characterTimedLetters == 8)
    }

    @Test func lettersStandingAloneAreNoWordsOfTheirScript() {
        // Variables in a formula: the voice around them names them ("lambda", "alpha").
        let formula = ScriptCensus("Let λ be 2α, and α + β = ρ.")
        #expect(formula[.greek] == 0)
        #expect(formula[.latin] == 8)
        // A word of the script counts, with the lone letters of its run.
        #expect(ScriptCensus("The Greeks said λόγος and α.")[.greek] == 5)
        #expect(ScriptCensus("Он и она")[.cyrillic] == 6)
        // A Chinese character is a word on its own.
        #expect(ScriptCensus("The sign 山 means mountain.")[.han] == 1)
    }

    @Test func anASCIICensusHasLatinOnly() {
        let census = ScriptCensus("It was 1841; the ship sailed.")
        #expect(census.counts == [.latin: 18])
        #expect(ScriptCensus("1841 — 42").isEmpty)
    }

    @Test func censusesAddUp() {
        var total = ScriptCensus("abc")
        total.add(ScriptCensus("где 漢"))
        total.add(2, of: .latin)
        #expect(total.counts == [.latin: 5, .cyrillic: 3, .han: 1])
    }

    @Test func aCensusRoundTripsAsScriptCodes() throws {
        let census = ScriptCensus([.latin: 3, .han: 7])
        let json = String(decoding: try JSONEncoder().encode(census), as: UTF8.self)
        #expect(json.contains("\"Hani\":7") && json.contains("\"Latn\":3"))
        #expect(try JSONDecoder().decode(ScriptCensus.self, from: Data(json.utf8)) == census)
        let unknown = try JSONDecoder().decode(ScriptCensus.self, from: Data(#"{"Zzzz": 4, "Cyrl": 2}"#.utf8))
        #expect(unknown.counts == [.cyrillic: 2])
    }

    @Test(arguments: [
        (Script.han, "ja-JP", true), (.han, "zh-Hant", true), (.han, "ru", false), (.hiragana, "ja", true),
        (.hiragana, "zh", false), (.cyrillic, "ru", true), (.cyrillic, "en", false), (.latin, "en", true),
        (.latin, "fr-CA", true), (.latin, "ru", false), (.latin, "ja", false), (.greek, "el", true),
        (.han, "cmn-latn-pinyin", true),
    ])
    func languagesWriteTheirScripts(script: Script, language: String, writes: Bool) {
        #expect(script.isWritten(byLanguage: language) == writes)
    }
}

@Suite struct ScriptIndexTests {
    @Test func theIndexIsThePositionInAllCases() {
        #expect(Script.allCases.map(\.index) == Array(0..<Script.allCases.count))
    }
}
