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
