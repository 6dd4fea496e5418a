import Contracts
import Foundation
import NeuralEngine
import Testing

@testable import LiveConversion

@Suite("Neural voices in the policy layer")
struct NeuralVoicesTests {
    @Test("the voices folder: --voices-dir, else EPUB2AUDIO_VOICES_DIR, else XDG_DATA_HOME, else ~/.local/share")
    func voicesFolder() {
        let environment = ["EPUB2AUDIO_VOICES_DIR": "/env/voices", "XDG_DATA_HOME": "/xdg", "HOME": "/home/u"]
        #expect(LiveVoices.neuralFolder("/given", environment: environment) == "/given")
        #expect(LiveVoices.neuralFolder(nil, environment: environment) == "/env/voices")
        #expect(LiveVoices.neuralFolder("", environment: environment) == "/env/voices")
        #expect(LiveVoices.neuralFolder(nil, environment: ["XDG_DATA_HOME": "/xdg"]) == "/xdg/epub2audio/voices")
        #expect(
            LiveVoices.neuralFolder(nil, environment: ["HOME": "/home/u"])
                == "/home/u/.local/share/epub2audio/voices")
    }

    @Test("a voice speaks a language when its tag or the tag's language is among the tags")
    func speaksLanguage() {
        #expect(LiveVoices.speaks("en-US", among: ["en-us"]))
        #expect(LiveVoices.speaks("en-US", among: ["en"]))
        #expect(!LiveVoices.speaks("en-US", among: ["fr", "fr-fr"]))
        #expect(!LiveVoices.speaks("de", among: []))
    }

    @Test("import errors sort by what the user must do: a bad file, a name taken, something not installed")
    func errorKinds() {
        let bad = NeuralVoiceError(.importFailed(path: "/x.onnx", reason: "no .onnx.json beside it"))
        #expect(
            bad
                == .unreadable(
                    NeuralError.importFailed(path: "/x.onnx", reason: "no .onnx.json beside it")
                        .description))
        #expect(
            NeuralVoiceError(.invalidVoice(path: "/v", reason: "r"))
                == .unreadable("the neural voice /v cannot be used: r"))
        guard case .exists = NeuralVoiceError(.voiceExists(name: "a", folder: "/f")) else {
            Issue.record("a voice already installed is not a bad file")
            return
        }
        guard case .unavailable = NeuralVoiceError(.runtimeNotFound(searched: ["/lib"])) else {
            Issue.record("a missing runtime is something to install")
            return
        }
    }

    @Test("a file that is not a voice: a one-sentence error naming it, nothing left in the folder")
    func badFile() throws {
        let folder = NSTemporaryDirectory() + "neural-policy-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let model = folder + "-model.onnx"
        try Data("not a model".utf8).write(to: URL(fileURLWithPath: model))
        defer { try? FileManager.default.removeItem(atPath: model) }
        #expect(throws: NeuralVoiceError.self) { try LiveVoices.addNeural(from: model, into: folder) }
        do {
            _ = try LiveVoices.addNeural(from: model, into: folder)
        } catch {
            guard case .unreadable(let message) = error else {
                Issue.record("\(error)")
                return
            }
            #expect(message.contains(model) && !message.contains("\n"), "\(message)")
        }
        #expect(LiveVoices.neural(in: folder).voices.isEmpty)
    }
}

@Suite("--voice with neural voices")
struct NeuralVoiceResolutionTests {
    /// A voices folder with one voice described (`voice.json` only: resolving reads no model).
    static func folder(voice name: String) throws -> String {
        let folder = NSTemporaryDirectory() + "neural-resolve-\(UUID().uuidString)"
        let voice = folder + "/" + name
        try FileManager.default.createDirectory(atPath: voice, withIntermediateDirectories: true)
        let description = """
            {"version": 1, "name": "\(name)", "language": "en-US", "sampleRate": 22050, "quality": "medium",
             "speakers": 1, "espeakVoice": "en-us", "modelBytes": 1, "source": "/x.onnx"}
            """
        try Data(description.utf8).write(to: URL(fileURLWithPath: voice + "/voice.json"))
        return folder
    }

    @Test("a neural voice's name, or piper:NAME, names it; espeak-ng's names are left to espeak-ng")
    func names() throws {
        let folder = try Self.folder(voice: "en_US-test-medium")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        for name in ["en_US-test-medium", "piper:en_US-test-medium"] {
            let voice = try LiveVoices.resolveNeural(name, in: folder) {}
            #expect(voice?.identifier == "piper:en_US-test-medium", "\(name)")
            #expect(voice?.language == "en-US")
        }
        for name in ["en", "en-us", "french", "auto"] {
            #expect(try LiveVoices.resolveNeural(name, in: folder) {} == nil, "\(name)")
        }
    }

    @Test("piper: with an unknown name: an unknown voice naming the installed ones")
    func unknownPiperName() throws {
        let folder = try Self.folder(voice: "en_US-test-medium")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        #expect {
            try LiveVoices.resolveNeural("piper:de_DE-nobody", in: folder) {}
        } throws: { error in
            guard case LiveConversionError.unknownVoice(let message) = error else { return false }
            return message.contains("'piper:de_DE-nobody'") && message.contains("en_US-test-medium")
        }
    }

    @Test("a neural voice without the runtime: an unknown voice saying how to install it")
    func runtimeMissing() throws {
        let folder = try Self.folder(voice: "en_US-test-medium")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        #expect {
            try LiveVoices.resolveNeural("en_US-test-medium", in: folder) { () throws(NeuralError) in
                throw NeuralError.runtimeNotFound(searched: ["/nowhere"])
            }
        } throws: { error in
            guard case LiveConversionError.unknownVoice(let message) = error else { return false }
            return message.contains("sherpa-onnx") && message.contains("pip install")
        }
    }
}

@Suite("What a resolved voice can do")
struct VoiceCapabilitiesTests {
    @Test("a neural voice: one language (its accents too), no pitch; espeak-ng's: pitch")
    func capabilities() throws {
        let folder = try NeuralVoiceResolutionTests.folder(voice: "en_US-test-medium")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let voice = try #require(try LiveVoices.resolveNeural("en_US-test-medium", in: folder) {})
        let neural = VoiceCapabilities.neural(voice)
        #expect(neural.engine == .neural && !neural.controlsPitch)
        #expect(neural.sampleRate == 22050 && neural.quality == "medium")
        #expect(neural.speaks("en") && neural.speaks("en-GB") && neural.speaks("EN_us"))
        #expect(!neural.speaks("de") && !neural.speaks("el-GR") && !neural.speaks(""))
        let espeak = VoiceCapabilities.espeak(languages: ["de", "de-de"])
        #expect(espeak.engine == .espeak && espeak.controlsPitch && espeak.speaks("de-AT") && !espeak.speaks("en"))
    }
}

@Suite("--engine: which voice auto picks, and voices of the other engine")
struct EngineChoiceTests {
    static func voice(_ name: String, _ language: String, _ quality: String) throws -> NeuralVoice {
        let json = """
            {"name": "\(name)", "language": "\(language)", "sampleRate": 22050, "quality": "\(quality)",
             "espeakVoice": "\(language.lowercased())"}
            """
        return try JSONDecoder().decode(NeuralVoice.self, from: Data(json.utf8))
    }

    @Test("the neural voice of the book's language: best quality first, then the very tag, then the name")
    func bestNeural() throws {
        let voices = [
            try Self.voice("en_GB-b-medium", "en-GB", "medium"), try Self.voice("en_US-a-low", "en-US", "low"),
            try Self.voice("en_US-c-medium", "en-US", "medium"), try Self.voice("de_DE-d-high", "de-DE", "high"),
            try Self.voice("fr_FR-e-x_low", "fr-FR", "x_low"),
        ]
        #expect(VoiceChoice.bestNeural(speaking: "en", among: voices)?.name == "en_GB-b-medium")
        #expect(VoiceChoice.bestNeural(speaking: "en-US", among: voices)?.name == "en_US-c-medium")
        #expect(VoiceChoice.bestNeural(speaking: "en_us", among: voices)?.name == "en_US-c-medium")
        #expect(VoiceChoice.bestNeural(speaking: "de-AT", among: voices)?.name == "de_DE-d-high")
        #expect(VoiceChoice.bestNeural(speaking: "fr", among: voices)?.name == "fr_FR-e-x_low")
        #expect(VoiceChoice.bestNeural(speaking: "el", among: voices) == nil)
        #expect(VoiceChoice.bestNeural(speaking: "en", among: []) == nil)
    }

    @Test(
        "a named voice of the other engine is refused; auto takes either",
        arguments: [
            (EnginePreference.neural, SpeechEngineKind.espeak, true), (.espeak, .neural, true),
            (.neural, .neural, false), (.espeak, .espeak, false), (.auto, .neural, false), (.auto, .espeak, false),
        ])
    func mismatch(preference: EnginePreference, engine: SpeechEngineKind, refused: Bool) {
        var thrown: LiveConversionError?
        do { try VoiceChoice.check(engine, named: "v", against: preference) } catch { thrown = error }
        if refused {
            guard case .engineMismatch(let message) = thrown else {
                Issue.record("not refused: \(String(describing: thrown))")
                return
            }
            #expect(message.contains("'v'"))
        } else {
            #expect(thrown == nil)
        }
    }

    @Test("no neural voice for the book's language: one sentence naming it")
    func noVoice() throws {
        let folder = try NeuralVoiceResolutionTests.folder(voice: "en_US-test-medium")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        #expect(throws: LiveConversionError.noNeuralVoice(language: "fr")) {
            try VoiceChoice.neural(for: "fr", in: folder)
        }
        #expect(throws: LiveConversionError.noNeuralVoice(language: nil)) {
            try VoiceChoice.neural(for: nil, in: folder)
        }
        #expect(LiveConversionError.noNeuralVoice(language: "fr").description.contains("fr"))
    }
}

@Suite("Blocks a neural voice leaves to espeak-ng")
struct OtherLanguagesTests {
    static func section(_ languages: [String: Int]) -> BookSection {
        let position = SourcePosition(spineIndex: 0, blockIndex: 0)
        return BookSection(
            number: 1, title: "One", href: EPUBLink(path: "a.xhtml"), spine: ["a.xhtml"], role: .body, kind: .chapter,
            languages: languages, included: true, start: position, end: position)
    }

    @Test("languages it does not speak, each with espeak-ng's voice; its accents and the reading language stay")
    func otherLanguages() {
        let installed = [
            VoiceInfo(name: "German", languages: ["de"], identifier: "gmw/de"),
            VoiceInfo(name: "Greek", languages: ["el"], identifier: "grk/el"),
            VoiceInfo(name: "English_(America)", languages: ["en-us", "en"], identifier: "gmw/en-US"),
        ]
        let english = VoiceCapabilities(
            engine: .neural, controlsPitch: false, languages: ["en-US"], sampleRate: 22050, quality: "medium")
        let sections = [Self.section(["en": 900, "en-gb": 30, "de": 40]), Self.section(["el": 12, "xx": 5, "fr": 0])]
        let readers = VoiceChoice.otherLanguages(
            in: sections, capabilities: english, reading: "en", installed: installed)
        #expect(readers == ["de": "de", "el": "el", "xx": "en-US"], "\(readers)")
        // A German book read with the English voice: its German blocks carry no language and are the voice's.
        let german = VoiceChoice.otherLanguages(
            in: [Self.section(["de": 900])], capabilities: english, reading: "de", installed: installed)
        #expect(german.isEmpty, "\(german)")
    }
}
