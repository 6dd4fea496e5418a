import Contracts

/// The audio container/codec of the section files.
public enum AudioOutputFormat: String, Codable, Sendable, CaseIterable {
    case wav, flac, ogg, opus, mp3

    /// The file name extension, without the dot.
    public var fileExtension: String { rawValue }
}

/// How the audio is encoded: format plus the knobs that change the bytes.
///
/// Missing keys decode to the defaults, so older manifests stay readable.
public struct AudioEncoding: Hashable, Sendable, Codable {
    public var format: AudioOutputFormat
    /// Target bitrate in kbit/s for lossy formats (MP3, Opus, Vorbis); nil means the writer's default.
    public var bitrateKbps: Int?
    /// Quality/compression level 0...1 (Vorbis quality, FLAC compression); nil means the writer's default.
    public var quality: Double?

    public init(format: AudioOutputFormat = .wav, bitrateKbps: Int? = nil, quality: Double? = nil) {
        self.format = format
        self.bitrateKbps = bitrateKbps
        self.quality = quality
    }

    private enum CodingKeys: String, CodingKey { case format, bitrateKbps, quality }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        format = try c.decodeIfPresent(AudioOutputFormat.self, forKey: .format) ?? .wav
        bitrateKbps = try c.decodeIfPresent(Int.self, forKey: .bitrateKbps)
        quality = try c.decodeIfPresent(Double.self, forKey: .quality)
    }
}

/// The silences the chunker puts around text, in milliseconds, and how long a chunk may be.
///
/// These change the audio, so they are part of the settings the manifest compares on resume.
public struct ChunkingSettings: Hashable, Sendable, Codable {
    /// Silence after the section title.
    public var titlePauseMS: Int
    /// Silence after a heading inside a section.
    public var headingPauseMS: Int
    /// Silence after a paragraph, list item, quote, caption, note or notice.
    public var paragraphPauseMS: Int
    /// Silence between sentences of one block when a block is split into several chunks.
    public var sentencePauseMS: Int
    /// Silence for a scene break.
    public var sceneBreakPauseMS: Int
    /// Silence for a stanza break (and after the last line of a poem).
    public var stanzaBreakPauseMS: Int
    /// Silence at the end of a section's file.
    public var sectionEndPauseMS: Int
    /// Longest chunk handed to the engine in one call, in characters.
    public var maxChunkCharacters: Int

    public init(
        titlePauseMS: Int = 1000, headingPauseMS: Int = 800, paragraphPauseMS: Int = 450, sentencePauseMS: Int = 0,
        sceneBreakPauseMS: Int = 1500, stanzaBreakPauseMS: Int = 700, sectionEndPauseMS: Int = 1500,
        maxChunkCharacters: Int = 1200
    ) {
        self.titlePauseMS = titlePauseMS
        self.headingPauseMS = headingPauseMS
        self.paragraphPauseMS = paragraphPauseMS
        self.sentencePauseMS = sentencePauseMS
        self.sceneBreakPauseMS = sceneBreakPauseMS
        self.stanzaBreakPauseMS = stanzaBreakPauseMS
        self.sectionEndPauseMS = sectionEndPauseMS
        self.maxChunkCharacters = maxChunkCharacters
    }

    private enum CodingKeys: String, CodingKey {
        case titlePauseMS, headingPauseMS, paragraphPauseMS, sentencePauseMS, sceneBreakPauseMS, stanzaBreakPauseMS
        case sectionEndPauseMS, maxChunkCharacters
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        let d = ChunkingSettings()
        titlePauseMS = try c.decodeIfPresent(Int.self, forKey: .titlePauseMS) ?? d.titlePauseMS
        headingPauseMS = try c.decodeIfPresent(Int.self, forKey: .headingPauseMS) ?? d.headingPauseMS
        paragraphPauseMS = try c.decodeIfPresent(Int.self, forKey: .paragraphPauseMS) ?? d.paragraphPauseMS
        sentencePauseMS = try c.decodeIfPresent(Int.self, forKey: .sentencePauseMS) ?? d.sentencePauseMS
        sceneBreakPauseMS = try c.decodeIfPresent(Int.self, forKey: .sceneBreakPauseMS) ?? d.sceneBreakPauseMS
        stanzaBreakPauseMS = try c.decodeIfPresent(Int.self, forKey: .stanzaBreakPauseMS) ?? d.stanzaBreakPauseMS
        sectionEndPauseMS = try c.decodeIfPresent(Int.self, forKey: .sectionEndPauseMS) ?? d.sectionEndPauseMS
        maxChunkCharacters = try c.decodeIfPresent(Int.self, forKey: .maxChunkCharacters) ?? d.maxChunkCharacters
    }
}

/// Everything that changes the bytes of a section's audio file apart from its text.
///
/// Two sections made with equal settings from equal text are byte-identical; the manifest keeps a
/// fingerprint of these per section and a section is redone when it differs.
public struct AudioSettings: Hashable, Sendable, Codable {
    /// Voice, rate, pitch, volume.
    public var voice: VoiceSettings
    /// Format, bitrate, quality.
    public var encoding: AudioEncoding
    /// Pauses and chunk length.
    public var chunking: ChunkingSettings
    /// How notes are read (`BookText`'s notes mode name, e.g. `end`, `skip`).
    public var notesMode: String
    /// Version of the text normalisation (`BookText`) that produced the spoken text.
    public var normalisationVersion: Int

    public init(
        voice: VoiceSettings, encoding: AudioEncoding = AudioEncoding(), chunking: ChunkingSettings = ChunkingSettings(),
        notesMode: String = "end", normalisationVersion: Int = 1
    ) {
        self.voice = voice
        self.encoding = encoding
        self.chunking = chunking
        self.notesMode = notesMode
        self.normalisationVersion = normalisationVersion
    }

    private enum CodingKeys: String, CodingKey { case voice, encoding, chunking, notesMode, normalisationVersion }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        voice = try c.decodeIfPresent(VoiceSettings.self, forKey: .voice) ?? VoiceSettings(voice: "en")
        encoding = try c.decodeIfPresent(AudioEncoding.self, forKey: .encoding) ?? AudioEncoding()
        chunking = try c.decodeIfPresent(ChunkingSettings.self, forKey: .chunking) ?? ChunkingSettings()
        notesMode = try c.decodeIfPresent(String.self, forKey: .notesMode) ?? "end"
        normalisationVersion = try c.decodeIfPresent(Int.self, forKey: .normalisationVersion) ?? 1
    }

    /// SHA-256 of the settings' canonical JSON (sorted keys): what the manifest compares on resume.
    public var fingerprint: String {
        SHA256.hex(Array(CanonicalJSON.encode(self)))
    }
}
