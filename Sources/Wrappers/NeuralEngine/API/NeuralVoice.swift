import Contracts
import Foundation

/// A neural voice installed in a voices folder: a sherpa-onnx-ready model, its `tokens.txt`, and what the voice
/// list shows. Read from the voice's `voice.json` (versioned; missing keys fall back to defaults).
public struct NeuralVoice: Hashable, Sendable, Codable {
    /// The `voice.json` format this build writes.
    public static let currentVersion = 1
    /// The prefix that names a neural voice unambiguously where espeak-ng voices are listed too (`piper:NAME`).
    public static let identifierPrefix = "piper:"

    /// Format version of the `voice.json` it was read from.
    public var version: Int
    /// The voice's name: its folder's, the model file's without `.onnx` (`en_US-joe-medium`).
    public var name: String
    /// The language it speaks, as a BCP 47 tag (`en-US`).
    public var language: String
    /// Samples per second the model produces.
    public var sampleRate: Int
    /// Piper's quality name (`x_low`, `low`, `medium`, `high`), empty when unknown.
    public var quality: String
    /// Speakers in the model (the engine speaks with the first).
    public var speakers: Int
    /// The espeak-ng voice that phonemises its text (`en-us`).
    public var espeakVoice: String
    /// Bytes of the prepared model file, checked before loading (a truncated copy is refused, not loaded).
    public var modelBytes: Int64
    /// Where it was imported from.
    public var source: String
    /// The espeak-ng data folder: relative to the voice's folder when the voice brought its own, absolute when
    /// given at import, nil for the system's (found when the voice is loaded: `ESpeakData.systemFolders`).
    public var espeakData: String?
    /// The voice's own noise scale (Piper's `inference.noise_scale`), used only with
    /// `NeuralEngineOptions.Sampling.voiceDefaults`.
    public var noiseScale: Double = 0.667
    /// The voice's own noise width (Piper's `inference.noise_w`), used only with `.voiceDefaults`.
    public var noiseWidth: Double = 0.8
    /// The voice's own length scale (Piper's `inference.length_scale`): it always sets the normal speed.
    public var lengthScale: Double = 1
    /// The voice's folder (not stored: where `voice.json` was read).
    public var folder: String = ""

    private enum CodingKeys: String, CodingKey {
        case version, name, language, sampleRate, quality, speakers, espeakVoice, modelBytes, source, espeakData
        case noiseScale, noiseWidth, lengthScale
    }

    /// A voice as written by an import.
    init(
        name: String, language: String, sampleRate: Int, quality: String, speakers: Int, espeakVoice: String,
        modelBytes: Int64, source: String, espeakData: String?, folder: String
    ) {
        self.version = Self.currentVersion
        self.name = name
        self.language = language
        self.sampleRate = sampleRate
        self.quality = quality
        self.speakers = speakers
        self.espeakVoice = espeakVoice
        self.modelBytes = modelBytes
        self.source = source
        self.espeakData = espeakData
        self.folder = folder
    }

    /// Reads `voice.json`; keys a later or earlier version lacks fall back to defaults.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        version = try container.decodeIfPresent(Int.self, forKey: .version) ?? 1
        name = try container.decode(String.self, forKey: .name)
        sampleRate = try container.decode(Int.self, forKey: .sampleRate)
        quality = try container.decodeIfPresent(String.self, forKey: .quality) ?? ""
        speakers = try container.decodeIfPresent(Int.self, forKey: .speakers) ?? 1
        espeakVoice = try container.decode(String.self, forKey: .espeakVoice)
        language = try container.decodeIfPresent(String.self, forKey: .language) ?? Self.tag(espeakVoice: espeakVoice)
        modelBytes = try container.decodeIfPresent(Int64.self, forKey: .modelBytes) ?? 0
        source = try container.decodeIfPresent(String.self, forKey: .source) ?? ""
        espeakData = try container.decodeIfPresent(String.self, forKey: .espeakData)
        noiseScale = try container.decodeIfPresent(Double.self, forKey: .noiseScale) ?? 0.667
        noiseWidth = try container.decodeIfPresent(Double.self, forKey: .noiseWidth) ?? 0.8
        lengthScale = try container.decodeIfPresent(Double.self, forKey: .lengthScale) ?? 1
    }

    /// The prepared model.
    public var modelPath: String { (folder as NSString).appendingPathComponent(VoiceLibrary.modelFileName) }
    /// sherpa-onnx's token table.
    public var tokensPath: String { (folder as NSString).appendingPathComponent(VoiceLibrary.tokensFileName) }
    /// `piper:NAME`.
    public var identifier: String { Self.identifierPrefix + name }

    /// The voice as the engines list voices.
    public var info: VoiceInfo { VoiceInfo(name: name, languages: [language], identifier: identifier) }

    /// Whether `requested` names this voice: its name or identifier, letter case aside.
    public func isNamed(_ requested: String) -> Bool {
        let lowered = requested.lowercased()
        return lowered == name.lowercased() || lowered == identifier.lowercased()
    }

    /// Whether the voice speaks `language` (a BCP 47 tag): the same primary language (`en-GB` for `en-US`:
    /// an accent, not another language). What phase 2's per-block fallback to espeak-ng asks.
    public func speaks(_ language: String) -> Bool {
        Self.primary(language) == Self.primary(self.language) && !Self.primary(language).isEmpty
    }

    /// A BCP 47 tag from an espeak-ng voice name: `en-us` → `en-US`.
    static func tag(espeakVoice: String) -> String {
        espeakVoice.split(separator: "-").enumerated().map { $0 == 0 ? $1.lowercased() : $1.uppercased() }
            .joined(separator: "-")
    }

    static func primary(_ tag: String) -> String {
        String(tag.split(whereSeparator: { $0 == "-" || $0 == "_" }).first ?? "").lowercased()
    }
}
