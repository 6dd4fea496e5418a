import Contracts
import Testing

@testable import ESpeakEngine

/// Voice resolution is pure Swift over a voice list: these tests use a fixed list, not espeak-ng.
@Suite struct VoiceResolutionTests {
    // In espeak-ng's order: regional voices that also list the bare tag come before the default one.
    let installed = [
        VoiceInfo(name: "English_(Caribbean)", languages: ["en-029", "en"], identifier: "gmw/en-029"),
        VoiceInfo(name: "English_(Great_Britain)", languages: ["en-gb", "en"], identifier: "gmw/en"),
        VoiceInfo(name: "English_(America)", languages: ["en-us", "en"], identifier: "gmw/en-US"),
        VoiceInfo(name: "French_(Belgium)", languages: ["fr-be", "fr"], identifier: "roa/fr-BE"),
        VoiceInfo(name: "French_(France)", languages: ["fr-fr", "fr"], identifier: "roa/fr"),
        VoiceInfo(name: "German", languages: ["de"], identifier: "gmw/de"),
    ]

    @Test(arguments: [
        ("English_(America)", "English_(America)"),
        ("english (america)", "English_(America)"),  // case and spaces
        ("gmw/en-US", "English_(America)"),  // identifier
        ("en-us", "English_(America)"),  // file name and language tag
        ("en_GB", "English_(Great_Britain)"),
        ("en", "English_(Great_Britain)"),  // the voice file named "en", not a regional voice listed before it
        ("en-029", "English_(Caribbean)"),
        ("en-ZA", "English_(Great_Britain)"),  // primary language: its default voice
        ("fr", "French_(France)"),
        ("fr-BE", "French_(Belgium)"),
        ("fr-CA", "French_(France)"),  // falls back to the primary language
        ("de-AT", "German"),
        ("  German ", "German"),
    ])
    func resolves(_ requested: String, _ expected: String) throws {
        #expect(try ESpeakSpeechEngine.resolveVoice(requested, installed: installed).name == expected)
    }

    /// The voice a passage in another language switches to: the language's default voice.
    @Test(arguments: [
        ("en", "gmw/en"), ("EN", "gmw/en"), ("en-GB", "gmw/en"), ("en-ZA", "gmw/en"), ("en-029", "gmw/en-029"),
        ("fr", "roa/fr"), ("fr-CA", "roa/fr"), ("fr-BE", "roa/fr-BE"), ("de-CH", "gmw/de"),
    ])
    func passagesSwitchToTheDefaultVoiceOfTheirLanguage(_ tag: String, _ identifier: String) {
        #expect(ESpeakSpeechEngine.voice(forLanguage: tag, installed: installed)?.identifier == identifier)
    }

    @Test func unknownVoiceSuggestsTheClosest() throws {
        let error = try #require(throws: SpeechError.self) {
            try ESpeakSpeechEngine.resolveVoice("Englsh", installed: installed)
        }
        guard case .unknownVoice(let requested, let suggestions) = error else {
            Issue.record("unexpected error \(error)")
            return
        }
        #expect(requested == "Englsh")
        #expect(suggestions.first?.hasPrefix("English") == true, "\(suggestions)")
        #expect(suggestions.allSatisfy { $0.hasPrefix("English") || $0.hasPrefix("en") }, "\(suggestions)")
        #expect(error.description.contains("Englsh") && error.description.contains("English_("))
    }

    /// A language's name, in English or in the language itself, selects its default voice.
    @Test(arguments: [
        ("french", "French_(France)"), ("Français", "French_(France)"), ("FRANCAIS", "French_(France)"),
        ("deutsch", "German"), ("english", "English_(Great_Britain)"), ("English", "English_(Great_Britain)"),
    ])
    func aLanguageNameSelectsItsDefaultVoice(_ requested: String, _ expected: String) throws {
        #expect(try ESpeakSpeechEngine.resolveVoice(requested, installed: installed).name == expected)
    }

    @Test func languagesAreFoundByTheirNames() {
        #expect(ESpeakSpeechEngine.languages(named: "french", installed: installed) == ["fr"])
        #expect(ESpeakSpeechEngine.languages(named: "Deutsch", installed: installed) == ["de"])
        #expect(ESpeakSpeechEngine.languages(named: "portuguese", installed: installed).isEmpty, "no voice speaks it")
        #expect(ESpeakSpeechEngine.languages(named: "fr", installed: installed).isEmpty, "a tag is no name")
        #expect(
            ESpeakSpeechEngine.voices(speaking: "french", installed: installed).map(\.name) == [
                "French_(Belgium)", "French_(France)",
            ])
        #expect(ESpeakSpeechEngine.voices(speaking: "fr", installed: installed).count == 2)
        #expect(ESpeakSpeechEngine.voices(speaking: "deutsch", installed: installed).map(\.name) == ["German"])
        #expect(ESpeakSpeechEngine.voices(speaking: "en-us", installed: installed).map(\.name) == ["English_(America)"])
    }

    @Test func aNameOfLanguagesWithDifferentDefaultVoicesSelectsNone() throws {
        // "Chinese" names both zh and cmn, whose default voices differ here: the user chooses.
        let chinese = [
            VoiceInfo(name: "Chinese_(Cantonese)", languages: ["yue", "zh"], identifier: "sit/yue"),
            VoiceInfo(name: "Chinese_(Mandarin)", languages: ["cmn"], identifier: "sit/cmn"),
        ]
        try #require(Set(ESpeakSpeechEngine.languages(named: "chinese", installed: chinese)) == ["zh", "cmn"])
        let error = try #require(throws: SpeechError.self) {
            try ESpeakSpeechEngine.resolveVoice("chinese", installed: chinese)
        }
        guard case .unknownVoice(_, let suggestions) = error else { return }
        #expect(Set(suggestions.prefix(2)) == ["Chinese_(Cantonese)", "Chinese_(Mandarin)"], "\(suggestions)")
    }

    /// A misspelt language name suggests that language's voices first, its default voice first.
    @Test(arguments: [("frnch", "French_(France)"), ("deutch", "German"), ("Englsh", "English_(Great_Britain)")])
    func aMisspeltLanguageNameSuggestsItsVoicesFirst(_ requested: String, _ first: String) throws {
        let error = try #require(throws: SpeechError.self) {
            try ESpeakSpeechEngine.resolveVoice(requested, installed: installed)
        }
        guard case .unknownVoice(_, let suggestions) = error else { return }
        #expect(suggestions.first == first, "\(suggestions)")
    }

    @Test func typoInALanguageTagSuggestsTags() throws {
        let error = try #require(throws: SpeechError.self) {
            try ESpeakSpeechEngine.resolveVoice("gernan", installed: installed)
        }
        guard case .unknownVoice(_, let suggestions) = error else { return }
        #expect(suggestions.first == "German")
    }

    @Test(arguments: ["vulcan", "", "x", "1234", "no-such-voice", "de-voice", "fr-CA-x"])
    func nonsenseIsRefused(_ requested: String) {
        #expect(throws: SpeechError.self) { try ESpeakSpeechEngine.resolveVoice(requested, installed: installed) }
    }

    @Test(arguments: [
        ("fr-ca", true), ("zh-hant-tw", true), ("en-029", true), ("de-de-1996", true), ("en", true),
        ("no-such-voice", false), ("english", false), ("e", false), ("en-us-nyc", false),
    ])
    func languageTagShape(_ tag: String, _ expected: Bool) {
        #expect(ESpeakSpeechEngine.isLanguageTag(tag) == expected)
    }

    @Test func editDistance() {
        #expect(ESpeakSpeechEngine.editDistance("kitten", "sitting") == 3)
        #expect(ESpeakSpeechEngine.editDistance("", "abc") == 3)
        #expect(ESpeakSpeechEngine.editDistance("same", "same") == 0)
    }
}
