import NeuralEngine

/// The speech engines a voice can belong to.
public enum SpeechEngineKind: String, Sendable, Hashable, Codable, CaseIterable {
    /// espeak-ng, in process: every language it has a voice for, pitch control, exact word timings.
    case espeak
    /// A neural (Piper) voice through sherpa-onnx: one language, no pitch control.
    case neural
}

/// Which engine a conversion asks for (`--engine`, a job's `engine`): with `--voice auto`, `neural` picks the
/// installed neural voice of the book's language; with a voice name, it must be that engine's.
public enum EnginePreference: String, Sendable, Hashable, Codable, CaseIterable {
    /// espeak-ng for `auto`; a named voice of either engine.
    case auto
    /// espeak-ng's voices only.
    case espeak
    /// Neural voices only.
    case neural
}

/// What a resolved voice can do, decided once where the voice is resolved, so that policy asks the voice
/// (`controlsPitch`, `speaks`) instead of looking at its name.
public struct VoiceCapabilities: Sendable, Hashable {
    /// The engine that speaks it.
    public var engine: SpeechEngineKind
    /// Whether `pitch` other than 50 means anything to it.
    public var controlsPitch: Bool
    /// The language tags it speaks, most preferred first.
    public var languages: [String]
    /// Samples per second the voice makes (nil: the engine's own rate, espeak-ng's).
    public var sampleRate: Int?
    /// Piper's quality name (`low`, `medium`, `high`); nil for espeak-ng's voices.
    public var quality: String?

    /// What an espeak-ng voice of `languages` can do: pitch, and switching to other languages' voices.
    public static func espeak(languages: [String]) -> VoiceCapabilities {
        VoiceCapabilities(engine: .espeak, controlsPitch: true, languages: languages, sampleRate: nil, quality: nil)
    }

    /// What the neural `voice` can do: its one language, no pitch.
    static func neural(_ voice: NeuralVoice) -> VoiceCapabilities {
        VoiceCapabilities(
            engine: .neural, controlsPitch: false, languages: [voice.language], sampleRate: voice.sampleRate,
            quality: voice.quality.isEmpty ? nil : voice.quality)
    }

    /// Whether the voice speaks `language` (a BCP 47 tag): one of its languages has the same primary language
    /// (`en-GB` text for an `en-US` voice is an accent, not another language).
    public func speaks(_ language: String) -> Bool {
        let wanted = Self.primary(language)
        return !wanted.isEmpty && languages.contains { Self.primary($0) == wanted }
    }

    /// `en` of `en-US`, `en_US` or `EN`.
    static func primary(_ tag: String) -> String {
        String(tag.split(whereSeparator: { $0 == "-" || $0 == "_" }).first ?? "").lowercased()
    }
}
