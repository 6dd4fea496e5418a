import BookText
import Contracts
import EPUBReader
import ESpeakEngine
import Foundation
import TestSupport
import Testing

@testable import Conversion

/// What the engine spoke: a chunk's text and language, and the voice that read it.
struct SpokenChunk: Hashable, Sendable {
    var text: String
    var language: String?
    var voice: String
}

/// The real espeak-ng engine, recording which voice read each chunk.
final class RecordingEngine: SpeechEngine {
    let inner: ESpeakSpeechEngine
    let log: Locked<[SpokenChunk]>

    init(settings: VoiceSettings, log: Locked<[SpokenChunk]>) throws {
        inner = try ESpeakSpeechEngine(settings: settings)
        self.log = log
    }

    var sampleRate: Int { inner.sampleRate }
    func configure(_ settings: VoiceSettings) throws { try inner.configure(settings) }
    func reset() throws { try inner.reset() }

    func synthesize(_ text: String, language: String?, output: (UnsafeBufferPointer<Int16>) throws -> Bool) throws {
        try inner.synthesize(text, language: language, output: output)
        let spoken = SpokenChunk(text: text, language: language, voice: inner.lastVoice.identifier)
        log.withLock { $0.append(spoken) }
    }
}

/// Issue 12, end to end with real espeak-ng: the live source, chunker, engine and writer.
@Suite(.serialized, .realSpeechEngine) struct VoiceSwitchingTests {
    static let german = "Der Wind wehte über das Meer, und die Möwen schrien laut über dem alten Leuchtturm."
    static let french = "Le vent soufflait sur la mer, et les mouettes criaient au-dessus du vieux phare."
    static let english = "The wind blew across the sea, and the gulls cried loudly above the old lighthouse."

    /// A German book: a chapter with a French quotation and an English sentence, then a chapter in English.
    static let book = SmallEPUB(
        title: "Der Leuchtturm", language: "de",
        entries: [
            .init(
                title: "Erstes Kapitel",
                body: """
                    <h1>Erstes Kapitel</h1><p>\(german) \(german)</p>
                    <blockquote xml:lang="fr"><p>\(french)</p></blockquote>
                    <p xml:lang="en">\(english)</p><p>\(german)</p>
                    """),
            .init(title: "Chapter IV", body: "<h1>Chapter IV</h1><p>\(english) \(english)</p>", language: "en"),
        ])

    /// The heading of a German chapter in an English book is normalised with German rules.
    @Test(
        arguments: [
            ("de", "Kapitel IV", "Kapitel vier", "de"),
            ("fr", "Chapitre IV", "Chapitre quatre", "fr"),
            ("es", "Capítulo IV", "Capítulo cuatro", "es"),
            ("pt", "Capítulo IV", "Capítulo quarto", "pt"),
            ("it", "Capitolo IV", "Capitolo quarto", "it"),
            ("en", "Chapter IV", "Chapter Four", nil),
        ] as [(String, String, String, String?)])
    func aChaptersTitleIsReadInItsLanguage(language: String, title: String, spoken: String, tag: String?) throws {
        let sandbox = try Sandbox()
        let path = try SmallEPUB(
            entries: [
                .init(title: "Chapter I", body: "<h1>Chapter I</h1><p>\(Self.english) \(Self.english)</p>"),
                .init(title: title, body: "<h1>\(title)</h1><p>\(Self.german)</p>", language: language),
            ]
        ).write(into: sandbox.root)
        let source = try EPUBSectionSource(input: BookInput(path: path))
        let title = try #require(try source.blocks(section: 2).first)
        #expect(title.kind == .title)
        #expect(title.text == spoken)
        #expect(title.language == tag)
    }

    @Test func passagesInOtherLanguagesAreReadByTheirVoiceThenTheBooksAgain() async throws {
        let sandbox = try Sandbox()
        let path = try Self.book.write(into: sandbox.root)
        let log = Locked<[SpokenChunk]>([])
        let voice = VoiceSettings(voice: "de")
        let env = epubEnvironment { try RecordingEngine(settings: voice, log: log) }
        let request = ConversionRequest(
            bookPath: path, outputDirectory: sandbox.output, selection: .numbers([1, 2]), voice: voice, jobs: 1)
        let summary = try await Converter(environment: env).run(request)
        #expect(summary.sectionsDone == 2 && summary.sectionsFailed == 0)

        let spoken = log.value
        func voices(of text: String) -> [String] { spoken.filter { $0.text.contains(text) }.map(\.voice) }
        // Chapter 1: German, the French quotation in French, the English sentence in the default
        // English voice (not a regional one), and German again after it.
        #expect(voices(of: "Erstes Kapitel") == ["gmw/de"])
        #expect(voices(of: "Der Wind").allSatisfy { $0 == "gmw/de" } && voices(of: "Der Wind").count >= 2)
        #expect(voices(of: "Le vent") == ["roa/fr"])
        #expect(voices(of: "The wind").first == "gmw/en")
        let order = spoken.map(\.voice)
        let french = try #require(order.firstIndex(of: "roa/fr"))
        #expect(order[french - 1] == "gmw/de" && order[french + 2] == "gmw/de", "\(order)")
        // Chapter 2 is English: its title is normalised and read in English.
        #expect(voices(of: "Chapter Four") == ["gmw/en"], "\(spoken.map(\.text))")
        #expect(spoken.filter { $0.voice == "gmw/en" }.allSatisfy { $0.language == "en" })
        // Every file is audible speech of a plausible length.
        for record in try sandbox.manifest().sections {
            let file = try #require(record.file)
            let data = try #require(sandbox.contents(file))
            #expect(data.count > 44 + 2 * 22_050, "\(record.file ?? "")")
        }
    }

    /// A Russian book with untagged Japanese and Chinese examples: the runs in scripts the Russian
    /// voice cannot speak go to the voices `SpeakableText` chose, asked of espeak-ng.
    @Test func runsOfOtherScriptsAreReadByTheVoicesThatSpeakThem() async throws {
        let sandbox = try Sandbox()
        let russian = "Ветер дул над морем, и чайки громко кричали над старым маяком."
        let path = try SmallEPUB(
            title: "Маяк", language: "ru",
            entries: [
                .init(
                    title: "Глава первая",
                    body: """
                        <h1>Глава первая</h1><p>\(russian) \(russian)</p>
                        <p>Слово 日本語のテキスト значит «японский текст», а иероглиф 山 значит «гора».</p>
                        <p>\(russian)</p>
                        """)
            ]
        ).write(into: sandbox.root)
        let index = try SectionIndexer.index(try EPUBBook.open(path: path))
        let installed = ESpeakSpeechEngine.installedVoices()
        let voice = try ESpeakSpeechEngine.resolveVoice("ru", installed: installed)
        let report = SpeakableText.assess(
            index.sections, voice: voice, installed: installed, bookLanguage: "ru",
            share: { ESpeakSpeechEngine.share(of: $1, spokenBy: $0) })
        let switching = try #require(report.switching)
        #expect(switching.targets[.hiragana] == "ja" && switching.targets[.han] == "cmn-Latn-pinyin")

        let log = Locked<[SpokenChunk]>([])
        let settings = VoiceSettings(voice: voice.identifier)
        let env = epubEnvironment { try RecordingEngine(settings: settings, log: log) }
        let request = ConversionRequest(
            bookPath: path, outputDirectory: sandbox.output, selection: .numbers([1]), voice: settings,
            chunking: ChunkerOptions(scriptSwitching: switching), jobs: 1)
        let summary = try await Converter(environment: env).run(request)
        #expect(summary.sectionsDone == 1 && summary.sectionsFailed == 0)
        let spoken = log.value
        #expect(spoken.filter { $0.text.contains("日本語") }.map(\.voice) == ["jpx/ja"])
        #expect(spoken.filter { $0.text.contains("山") }.map(\.voice) == ["sit/cmn-Latn-pinyin"])
        #expect(spoken.filter { $0.text.contains("значит") }.allSatisfy { $0.voice == voice.identifier })
        #expect(spoken.filter { $0.text.contains("Ветер") }.allSatisfy { $0.voice == voice.identifier })
        // Around the runs the Russian voice reads on: "Слово", then Japanese, then Russian again.
        let order = spoken.map(\.voice)
        let japanese = try #require(order.firstIndex(of: "jpx/ja"))
        #expect(order[japanese - 1] == voice.identifier && order[japanese + 1] == voice.identifier, "\(order)")
    }
}
