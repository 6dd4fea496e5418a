public import BookText
import Contracts

/// Everything that changes the bytes of a section's audio file apart from its text.
///
/// Two sections made with equal settings from equal text are byte-identical; the manifest keeps a
/// fingerprint of these per section and a section is redone when it differs.
public struct AudioSettings: Hashable, Sendable, Codable {
    /// Voice, rate, pitch, volume.
    public var voice: VoiceSettings
    /// Format, bitrate, quality.
    public var encoding: AudioEncoding
    /// Chunk sizes and pauses (the Contracts chunker's options).
    public var chunking: ChunkerOptions
    /// How notes are read (`--notes`); the same value as the request's `bookOptions.text.notes`.
    public var notes: SpokenTextOptions.Notes
    /// Version of the text normalisation (`BookText`) that produced the spoken text.
    public var normalisationVersion: Int
    /// SHA-256 of the cover embedded in every section file (`ConversionRequest.cover`); nil when the
    /// files carry none (no cover, `--no-cover-art`, WAV). Absent from the JSON when nil, so the
    /// fingerprint of settings without a cover is what it was before covers were embedded.
    public var coverSHA256: String?

    /// Settings; the defaults are WAV, the default chunking, notes skipped, no cover.
    public init(
        voice: VoiceSettings, encoding: AudioEncoding = AudioEncoding(), chunking: ChunkerOptions = ChunkerOptions(),
        notes: SpokenTextOptions.Notes = .skip, normalisationVersion: Int = 1, coverSHA256: String? = nil
    ) {
        self.voice = voice
        self.encoding = encoding
        self.chunking = chunking
        self.notes = notes
        self.normalisationVersion = normalisationVersion
        self.coverSHA256 = coverSHA256
    }

    // `notesMode`: the key manifests have always used (its values are the `Notes` names).
    private enum CodingKeys: String, CodingKey {
        case voice, encoding, chunking, notes = "notesMode", normalisationVersion, coverSHA256
    }

    /// Decodes settings; missing keys take their defaults, an unknown value throws.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        voice = try container.decodeIfPresent(VoiceSettings.self, forKey: .voice) ?? VoiceSettings(voice: "en")
        encoding = try container.decodeIfPresent(AudioEncoding.self, forKey: .encoding) ?? AudioEncoding()
        chunking = try container.decodeIfPresent(ChunkerOptions.self, forKey: .chunking) ?? ChunkerOptions()
        notes = try container.decodeIfPresent(SpokenTextOptions.Notes.self, forKey: .notes) ?? .skip
        normalisationVersion = try container.decodeIfPresent(Int.self, forKey: .normalisationVersion) ?? 1
        coverSHA256 = try container.decodeIfPresent(String.self, forKey: .coverSHA256)
    }

    /// SHA-256 of the settings' canonical JSON (sorted keys): what the manifest compares on resume.
    public var fingerprint: String {
        SHA256.hex(Array(CanonicalJSON.encode(self)))
    }
}
