import Contracts
import TestSupport
import Testing

@testable import ESpeakEngine

/// Speaks `text` and returns every sample.
private func speak(_ engine: ESpeakSpeechEngine, _ text: String, language: String? = nil) throws -> [Int16] {
    var samples: [Int16] = []
    try engine.synthesize(text, language: language) { buffer in
        samples.append(contentsOf: buffer)
        return true
    }
    return samples
}

private struct Boom: Error {}

/// espeak-ng is process-global: these tests run one at a time, each with its own engine, and not while
/// a suite of another target has an engine (`.realSpeechEngine`).
@Suite(.serialized, .realSpeechEngine) struct ESpeakSpeechEngineTests {
    @Test func initialisesAt22050AndSpeaks() throws {
        let engine = try ESpeakSpeechEngine()
        #expect(engine.sampleRate == 22_050)
        let samples = try speak(engine, "Hello world.")
        #expect(samples.count > engine.sampleRate / 4)
        #expect(samples.contains { abs(Int($0)) > 1000 }, "audible, not silence")
    }

    /// espeak-ng counts text positions in Unicode scalars from 1: marks name the words of the text in
    /// UTF-16 offsets, past accented letters, a surrogate pair and a run of combining marks it was not given.
    /// (Not "vu": espeak-ng 1.51 marks "déjà vu" as a word at "éjà ", a quirk of its own.)
    @Test(arguments: [
        ("Café déjà vu, 😀 naïve friend. Second one here.", ["Café", "déjà", "naïve", "friend", "Second", "one"]),
        (
            "A" + String(repeating: "\u{0301}", count: 40) + " after that. Then more.",
            ["after", "that", "Then", "more"]
        ),
    ])
    func marksNameTheWordsWhereTheyAreInTheText(text: String, words: [String]) throws {
        let engine = try ESpeakSpeechEngine()
        var marks: [SpeechMark] = []
        var frames = 0
        try engine.synthesize(text, language: nil, marks: { marks.append($0) }) { buffer in
            frames += buffer.count
            return true
        }
        let units = Array(text.utf16)
        func named(_ mark: SpeechMark) -> String { String(decoding: units[mark.textRange], as: UTF16.self) }
        let marked = marks.filter { $0.kind == .word }.map(named)
        #expect(words.allSatisfy { marked.contains($0) }, "\(marked)")
        // Sentences start at their first word; marks come in the order heard, inside the audio.
        let sentenceStarts = marks.filter { $0.kind == .sentence }.map(\.textRange.lowerBound)
        let second = try #require(text.range(of: words[words.count - 2])).lowerBound.utf16Offset(in: text)
        #expect(sentenceStarts.first == 0 && sentenceStarts.contains(second), "\(sentenceStarts)")
        #expect(zip(marks, marks.dropFirst()).allSatisfy { $0.frame <= $1.frame })
        #expect(marks.allSatisfy { $0.frame >= 0 && $0.frame < frames })
    }

    @Test func durationFollowsWordCountAndRate() throws {
        let engine = try ESpeakSpeechEngine(settings: VoiceSettings(voice: "en-us", rate: 175))
        let words = "the cat sat on a mat and then it ran to the big red barn near the old green tree"
        let count = words.split(separator: " ").count
        try engine.reset()
        let normal = Double(try speak(engine, words + ".").count) / Double(engine.sampleRate)
        let expected = Double(count) / 175 * 60
        #expect(normal > expected * 0.6 && normal < expected * 1.6, "\(normal) s for \(count) words")
        try engine.configure(VoiceSettings(voice: "en-us", rate: 350))
        try engine.reset()
        let fast = Double(try speak(engine, words + ".").count) / Double(engine.sampleRate)
        #expect(fast / normal > 0.35 && fast / normal < 0.7, "\(fast) s at 350 wpm vs \(normal) s at 175 wpm")
    }

    @Test func resetRestoresTheVoiceAfterALanguageSwitch() throws {
        let engine = try ESpeakSpeechEngine(settings: VoiceSettings(voice: "en-us", rate: 200))
        let text = "The quick brown fox jumps over the lazy dog."
        let first = try speak(engine, text)
        _ = try speak(engine, "Et un peu de français.", language: "fr")
        try engine.reset()
        let second = try speak(engine, text)
        // Same voice and rate: the same length within a few milliseconds (not bit-identical, see below).
        #expect(abs(first.count - second.count) < engine.sampleRate / 50, "\(first.count) vs \(second.count)")
        #expect(engine.currentLibraryVoice().languages.contains("en-us"))
    }

    /// espeak-ng 1.51 keeps function-static state in its wave generator that no API resets, so the
    /// same text after other text differs by a few samples even after `reset()`. If a future
    /// espeak-ng makes this pass, `withKnownIssue` fails and tells us the limitation is gone.
    @Test func resetIsNotBitIdenticalInOneProcess() throws {
        let engine = try ESpeakSpeechEngine()
        try engine.reset()
        let first = try speak(engine, "The quick brown fox jumps over the lazy dog.")
        _ = try speak(engine, "Something else entirely, with numbers 1, 2, 3!")
        try engine.reset()
        let second = try speak(engine, "The quick brown fox jumps over the lazy dog.")
        let identical = first == second  // not inside #expect: it would print both arrays
        withKnownIssue("libespeak-ng 1.51 wave generator state survives reset") {
            #expect(identical, "\(first.count) vs \(second.count) samples")
        }
    }

    @Test func returningFalseStopsSynthesisAndTheNextCallWorks() throws {
        let engine = try ESpeakSpeechEngine()
        let text = "This is a long sentence that should produce several buffers of audio before it ends."
        try engine.reset()
        let full = try speak(engine, text)
        var calls = 0
        var partial = 0
        try engine.synthesize(text, language: nil) { buffer in
            calls += 1
            partial += buffer.count
            return false
        }
        #expect(calls == 1)
        #expect(partial < full.count)
        #expect(try speak(engine, "Still working.").count > 0)
    }

    @Test func errorsFromTheOutputAreRethrown() throws {
        let engine = try ESpeakSpeechEngine()
        #expect(throws: Boom.self) {
            try engine.synthesize("Hello there.", language: nil) { _ in throw Boom() }
        }
        #expect(try speak(engine, "Still working.").count > 0)
    }

    @Test(arguments: [
        (VoiceSettings(voice: "en", rate: 79), SpeechError.invalidRate(79, allowed: 80...450)),
        (VoiceSettings(voice: "en", rate: 451), SpeechError.invalidRate(451, allowed: 80...450)),
        (VoiceSettings(voice: "en", pitch: -1), SpeechError.invalidPitch(-1, allowed: 0...100)),
        (VoiceSettings(voice: "en", pitch: 101), SpeechError.invalidPitch(101, allowed: 0...100)),
        (VoiceSettings(voice: "en", volume: -5), SpeechError.invalidVolume(-5, allowed: 0...200)),
        (VoiceSettings(voice: "en", volume: 201), SpeechError.invalidVolume(201, allowed: 0...200)),
    ])
    func outOfRangeSettingsAreRefused(_ settings: VoiceSettings, _ expected: SpeechError) throws {
        let engine = try ESpeakSpeechEngine()
        let before = engine.settings
        #expect(throws: expected) { try engine.configure(settings) }
        #expect(engine.settings == before)
        #expect(throws: expected) { _ = try ESpeakSpeechEngine.validate(settings) }
    }

    @Test func boundarySettingsAreAccepted() throws {
        let engine = try ESpeakSpeechEngine()
        try engine.configure(VoiceSettings(voice: "en", rate: 80, pitch: 0, volume: 0))
        try engine.configure(VoiceSettings(voice: "en", rate: 450, pitch: 100, volume: 200))
        #expect(try speak(engine, "Edge.").count > 0)
    }

    @Test func unknownVoiceNamesTheVoiceAndSuggests() throws {
        let engine = try ESpeakSpeechEngine()
        let error = try #require(throws: SpeechError.self) { try engine.configure(VoiceSettings(voice: "englsh")) }
        #expect(error.description.contains("englsh"))
        #expect(error.description.contains("English"))
    }

    @Test func languageTagsSelectVoices() throws {
        let engine = try ESpeakSpeechEngine(settings: VoiceSettings(voice: "fr-FR"))
        #expect(engine.voice.languages.contains("fr-fr"))
        try engine.configure(VoiceSettings(voice: "de"))
        #expect(engine.voice.languages.contains("de"))
        #expect(try speak(engine, "Guten Tag.").count > 0)
    }

    /// The languages of the voice espeak-ng has selected while each buffer of `text` is produced.
    private func voicesDuring(_ engine: ESpeakSpeechEngine, _ text: String, language: String?) throws -> Set<[String]> {
        var seen: Set<[String]> = []
        try engine.synthesize(text, language: language) { _ in
            seen.insert(engine.currentLibraryVoice().languages)
            return true
        }
        return seen
    }

    @Test func aChunkInAnotherLanguageUsesThatVoiceThenSwitchesBack() throws {
        let engine = try ESpeakSpeechEngine(settings: VoiceSettings(voice: "en-gb", rate: 190))
        let french = "Bonjour, je m'appelle Jean et j'habite à Paris."
        let during = try voicesDuring(engine, french, language: "fr-FR")
        #expect(during.count == 1 && during.first?.first?.hasPrefix("fr") == true, "\(during)")
        #expect(try voicesDuring(engine, "Good morning.", language: nil) == [engine.voice.languages])
        #expect(engine.currentLibraryVoice().languages == engine.voice.languages)
        #expect(engine.voice.languages.contains("en-gb"))
        // Same primary language: the configured voice keeps speaking (no accent change mid-book).
        #expect(try voicesDuring(engine, "Color.", language: "en-US") == [engine.voice.languages])
        #expect(try speak(engine, french, language: "fr").count > engine.sampleRate)
    }

    /// Issue 12: a passage in a bare language tag is read by espeak-ng's default voice for it (the
    /// voice file named after the tag), never by a regional voice that also lists the tag.
    @Test(arguments: [
        ("de", "Good morning, how are you today?", "en", "gmw/en"),
        ("de", "Good morning, how are you today?", "en-US", "gmw/en-US"),
        ("en", "Bonjour, comment allez-vous ?", "fr", "roa/fr"),
        ("en", "Bonjour, comment allez-vous ?", "fr-CA", "roa/fr"),
        ("en", "Buenos días, ¿cómo está usted?", "es", "roa/es"),
        ("fr", "Guten Morgen, wie geht es Ihnen?", "de-AT", "gmw/de"),
    ])
    func aPassageIsReadByTheDefaultVoiceOfItsLanguage(
        configured: String, text: String, language: String, expected: String
    ) throws {
        let engine = try ESpeakSpeechEngine(settings: VoiceSettings(voice: configured))
        #expect(ESpeakSpeechEngine.voice(forLanguage: language, installed: engine.voices)?.identifier == expected)
        try engine.synthesize(text, language: language) { _ in true }
        #expect(engine.lastVoice.identifier == expected)
        try engine.synthesize("1, 2, 3.", language: nil) { _ in true }
        #expect(engine.lastVoice == engine.voice, "then back to the configured voice")
    }

    @Test func anUninstalledLanguageKeepsTheCurrentVoice() throws {
        let engine = try ESpeakSpeechEngine()
        #expect(try voicesDuring(engine, "Hello.", language: "qq-ZZ") == [engine.voice.languages])
    }

    @Test func markupAndURIsAreSpokenAsText() throws {
        let engine = try ESpeakSpeechEngine()
        let refusedBefore = ESpeakProcess.refusedURIs
        try engine.reset()
        let hello = try speak(engine, "Hello.")
        for text in [
            "<audio src='/etc/passwd'/> Hello.", "<speak><audio src=\"file:///etc/passwd\">x</audio></speak> Hello.",
            "[[h@l'oU]] Hello.", "<break time='10s'/> Hello.",
        ] {
            try engine.reset()
            let samples = try speak(engine, text)
            // Spoken as text, the markup makes the audio much longer than "Hello." (a 10 s break would not speak).
            #expect(samples.count > hello.count * 2, "\(text)")
            #expect(Double(samples.count) / Double(engine.sampleRate) < 9, "\(text)")
        }
        #expect(ESpeakProcess.refusedURIs == refusedBefore, "espeak-ng never even asked for a URI")
    }

    @Test func onlyOneEngineLivesAtATime() throws {
        var first: ESpeakSpeechEngine? = try ESpeakSpeechEngine()
        #expect(throws: SpeechError.engineInUse) { _ = try ESpeakSpeechEngine() }
        #expect(first != nil)
        first = nil
        let second = try ESpeakSpeechEngine()
        #expect(try speak(second, "Again.").count > 0)
    }

    @Test func aFailedInitDoesNotHoldTheEngine() throws {
        #expect(throws: SpeechError.self) {
            _ = try ESpeakSpeechEngine(settings: VoiceSettings(voice: "qqq-nonexistent"))
        }
        let engine = try ESpeakSpeechEngine()
        #expect(try speak(engine, "Fine.").count > 0)
    }

    @Test func installedVoicesWithAndWithoutAnEngine() throws {
        let without = ESpeakSpeechEngine.installedVoices()
        #expect(without.count > 50)
        #expect(without.contains { $0.languages.contains("en-us") })
        #expect(without.contains { $0.languages.contains("fr-fr") })
        #expect(!without.contains { $0.identifier.hasPrefix("mb/") })
        let engine = try ESpeakSpeechEngine()
        #expect(ESpeakSpeechEngine.installedVoices() == without)
        #expect(engine.voices == without)
    }

    @Test func variantsChangeTheVoice() throws {
        let variants = ESpeakSpeechEngine.installedVariants()
        try #require(variants.contains("f3"), "\(variants)")
        let engine = try ESpeakSpeechEngine(settings: VoiceSettings(voice: "en-us+f3"))
        #expect(engine.voice.name.hasSuffix("+f3"))
        let female = try speak(engine, "Hello there, how are you today?")
        try engine.configure(VoiceSettings(voice: "en-us"))
        let plain = try speak(engine, "Hello there, how are you today?")
        // f3 speaks higher: more sign changes per second than the default male voice.
        func crossings(_ s: [Int16]) -> Double {
            var count = 0
            for i in 1..<s.count where (s[i - 1] < 0) != (s[i] < 0) { count += 1 }
            return Double(count) / Double(s.count)
        }
        #expect(crossings(female) > crossings(plain) * 1.1, "\(crossings(female)) vs \(crossings(plain))")
        let error = try #require(throws: SpeechError.self) { try engine.configure(VoiceSettings(voice: "en-us+f33")) }
        #expect(error.description.contains("en-us+f3"))
    }

    @Test func embeddedNULIsHarmless() throws {
        let engine = try ESpeakSpeechEngine()
        #expect(try speak(engine, "Before\u{0}after.").count > engine.sampleRate / 2)
    }
}
