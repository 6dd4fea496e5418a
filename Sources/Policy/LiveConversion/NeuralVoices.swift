import Contracts
import ESpeakEngine
import Foundation
import NeuralEngine

/// A neural voice of the voices folder as a front end lists it (`epub2audio voices`).
public struct NeuralVoiceSummary: Sendable, Hashable, Codable {
    /// The voice's name (`en_US-joe-medium`): what `--voice` takes.
    public var name: String
    /// The unambiguous name beside espeak-ng's voices (`piper:en_US-joe-medium`).
    public var identifier: String
    /// The language it speaks, a BCP 47 tag (`en-US`).
    public var language: String
    /// Samples per second the model makes (the output is resampled to the format's rate).
    public var sampleRate: Int
    /// Piper's quality name (`low`, `medium`, `high`), empty when unknown.
    public var quality: String
    /// The voice's folder.
    public var folder: String

    init(_ voice: NeuralVoice) {
        self.init(
            name: voice.name, identifier: voice.identifier, language: voice.language, sampleRate: voice.sampleRate,
            quality: voice.quality, folder: voice.folder)
    }

    /// A summary of these values (tests and front ends that list voices of their own).
    public init(name: String, identifier: String, language: String, sampleRate: Int, quality: String, folder: String) {
        self.name = name
        self.identifier = identifier
        self.language = language
        self.sampleRate = sampleRate
        self.quality = quality
        self.folder = folder
    }
}

/// Why a neural voice could not be imported, sorted by what the user must do about it.
public enum NeuralVoiceError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The file or folder given is not a voice that can be used (the wrapper's sentence names it and why).
    case unreadable(String)
    /// A voice of that name is already installed.
    case exists(String)
    /// Something the voice needs is not installed: the runtime, or espeak-ng data for its language.
    case unavailable(String)

    /// One sentence, from the neural engine.
    public var description: String {
        switch self {
        case .unreadable(let message), .exists(let message), .unavailable(let message): message
        }
    }

    init(_ error: NeuralError) {
        switch error {
        case .voiceExists: self = .exists(error.description)
        case .importFailed, .invalidVoice, .voiceNotFound: self = .unreadable(error.description)
        default: self = .unavailable(error.description)
        }
    }
}

extension LiveVoices {
    /// The environment variable that names the voices folder when no `--voices-dir` is given.
    public static let voicesFolderVariable = "EPUB2AUDIO_VOICES_DIR"

    /// The voices folder: `given`, else `$EPUB2AUDIO_VOICES_DIR`, else `$XDG_DATA_HOME/epub2audio/voices`, else
    /// `~/.local/share/epub2audio/voices`.
    public static func neuralFolder(
        _ given: String? = nil, environment: [String: String] = ProcessInfo.processInfo.environment
    ) -> String {
        if let given, !given.isEmpty { return given }
        if let folder = environment[voicesFolderVariable], !folder.isEmpty { return folder }
        return VoiceLibrary.defaultFolder(environment: environment)
    }

    /// The neural voices installed in `folder`, by name, and one warning per folder in it that is not a
    /// readable voice.
    /// - Parameters:
    ///   - folder: the voices folder (`neuralFolder`).
    ///   - language: only the voices that speak it, as `installed(speaking:)` understands it (a tag, `en`, or a
    ///     name, `english`): a voice speaks it when its tag or the tag's language is among the languages of the
    ///     espeak-ng voices that do.
    /// - Returns: the voices, and the warnings.
    public static func neural(
        in folder: String, speaking language: String? = nil
    ) -> (voices: [NeuralVoiceSummary], warnings: [String]) {
        let (voices, warnings) = VoiceLibrary(folder: folder).voices()
        var summaries = voices.map(NeuralVoiceSummary.init)
        if let language {
            let tags = Set(installed(speaking: language).flatMap(\.languages))
            summaries = summaries.filter { speaks($0.language, among: tags) }
        }
        return (summaries, warnings)
    }

    /// Whether the tag `language` (`en-US`), or its language (`en`), is one of `tags` (lowercase).
    static func speaks(_ language: String, among tags: Set<String>) -> Bool {
        let tag = language.lowercased()
        return tags.contains(tag) || tags.contains(String(tag.prefix { $0 != "-" }))
    }

    /// Imports the Piper voice (`NAME.onnx` with `NAME.onnx.json` beside it) or sherpa-onnx model folder at
    /// `path` into `folder`, once (`VoiceLibrary.importVoice`).
    /// - Parameters:
    ///   - path: the model file or folder.
    ///   - folder: the voices folder (`neuralFolder`).
    ///   - name: the name to install it under; the model's file name without `.onnx` when nil.
    ///   - replacing: replace an installed voice of that name.
    /// - Returns: the installed voice.
    /// - Throws: `NeuralVoiceError`; nothing is left in `folder` on failure.
    public static func addNeural(
        from path: String, into folder: String, name: String? = nil, replacing: Bool = false
    ) throws(NeuralVoiceError) -> NeuralVoiceSummary {
        do {
            let voice = try VoiceLibrary(folder: folder).importVoice(from: path, name: name, replacing: replacing)
            return NeuralVoiceSummary(voice)
        } catch {
            throw NeuralVoiceError(error)
        }
    }
}

/// The speech engine of a conversion's processes: espeak-ng, and the neural voice a request names
/// (`piper:NAME`), loaded once per process on first use and kept for the next sections. Runs of text
/// for other voices (other scripts or languages) go to espeak-ng, as with an espeak-ng voice.
///
/// The sample rate is espeak-ng's whichever voice speaks: the neural engine resamples to it, so a
/// section's audio has one rate.
final class LiveSpeechEngine: SpeechEngine {
    let sampleRate: Int
    private let espeak: ESpeakSpeechEngine
    private var neural: NeuralSpeechEngine?
    private var current: any SpeechEngine

    init() throws {
        espeak = try ESpeakSpeechEngine()
        sampleRate = espeak.sampleRate
        current = espeak
    }

    func configure(_ settings: VoiceSettings) throws {
        guard settings.voice.hasPrefix(NeuralVoice.identifierPrefix) else {
            try espeak.configure(settings)
            current = espeak
            return
        }
        let engine = try neuralEngine(for: settings.voice)
        try engine.configure(settings)
        configureFallback(for: engine.voice, settings)
        current = engine
    }

    /// Chunks in a language the neural voice does not speak (a block's `xml:lang`, a run of another script)
    /// go to espeak-ng, which takes that language's voice (`ESpeakSpeechEngine.synthesize`); the rest to the
    /// current engine.
    func synthesize(_ text: String, language: String?, output: (UnsafeBufferPointer<Int16>) throws -> Bool) throws {
        if let neural, current === neural, let language, !neural.voice.speaks(language) {
            try espeak.synthesize(text, language: language, output: output)
            return
        }
        try current.synthesize(text, language: language, output: output)
    }

    /// As `synthesize(_:language:output:)`, with the marks of the engine that speaks.
    func synthesize(
        _ text: String, language: String?, marks: (SpeechMark) -> Void,
        output: (UnsafeBufferPointer<Int16>) throws -> Bool
    ) throws {
        if let neural, current === neural, let language, !neural.voice.speaks(language) {
            try espeak.synthesize(text, language: language, marks: marks, output: output)
            return
        }
        try current.synthesize(text, language: language, marks: marks, output: output)
    }

    /// Gives espeak-ng the voice of the neural voice's language (else English), at the same rate and volume:
    /// it switches from it to the voice of each other language it is handed, and speaks with it when that
    /// language has none.
    private func configureFallback(for voice: NeuralVoice, _ settings: VoiceSettings) {
        let primary = String(voice.language.prefix { $0 != "-" && $0 != "_" })
        for candidate in [voice.espeakVoice, primary, "en"] {
            let fallback = VoiceSettings(voice: candidate, rate: settings.rate, pitch: 50, volume: settings.volume)
            if (try? espeak.configure(fallback)) != nil { return }
        }
    }

    func reset() throws { try current.reset() }

    /// The loaded neural engine when it speaks `identifier`, else a new one (the old one is released).
    private func neuralEngine(for identifier: String) throws -> NeuralSpeechEngine {
        if let neural, neural.voice.isNamed(identifier) { return neural }
        neural = nil
        let voice = try VoiceLibrary(folder: LiveVoices.neuralFolder()).voice(named: identifier)
        let engine = try NeuralSpeechEngine(voice: voice, options: NeuralEngineOptions(outputSampleRate: sampleRate))
        neural = engine
        return engine
    }
}

extension LiveVoices {
    /// The neural voice `name` names (`NAME` or `piper:NAME`) in the voices folder, nil when none does and
    /// the name has no `piper:` prefix (it is then an espeak-ng name).
    /// - Parameters:
    ///   - name: what `--voice` or the request's `voice` says.
    ///   - folder: the voices folder.
    ///   - loadRuntime: loads the sherpa-onnx runtime, so that a missing one is said before anything is made.
    /// - Returns: the voice (its `info` is identified as `piper:NAME`).
    /// - Throws: `LiveConversionError.unknownVoice` for a `piper:` name no voice answers to, or when the
    ///   runtime cannot be loaded.
    static func resolveNeural(
        _ name: String, in folder: String = neuralFolder(),
        loadRuntime: () throws(NeuralError) -> Void = { _ = try NeuralRuntime.load() }
    ) throws(LiveConversionError) -> NeuralVoice? {
        let voice: NeuralVoice
        do {
            voice = try VoiceLibrary(folder: folder).voice(named: name)
        } catch {
            guard name.hasPrefix(NeuralVoice.identifierPrefix) else { return nil }
            throw .unknownVoice(error.description)
        }
        do {
            try loadRuntime()
        } catch {
            throw .unknownVoice(error.description)
        }
        return voice
    }
}
