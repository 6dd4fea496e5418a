import Contracts

/// The audio container/codec of the section files.
public enum AudioOutputFormat: String, Codable, Sendable, CaseIterable {
    case wav, flac, ogg, opus, mp3

    /// The file name extension, without the dot.
    public var fileExtension: String { rawValue }
}

/// How a lossy encoder spends bits (MP3 only; libsndfile's bitrate mode).
public enum AudioBitrateMode: String, Hashable, Sendable, Codable, CaseIterable {
    case constant, average, variable
}

/// How the audio is encoded: format plus the knobs that change the bytes.
///
/// Missing keys decode to the defaults, so older manifests stay readable.
public struct AudioEncoding: Hashable, Sendable, Codable {
    public var format: AudioOutputFormat
    /// libsndfile's compression level 0...1 (0: best quality, largest file): FLAC effort, Vorbis, Opus
    /// and MP3 quality; nil keeps the writer's default. Not for WAV.
    public var compressionLevel: Double?
    /// MP3 only; nil keeps the writer's default.
    public var bitrateMode: AudioBitrateMode?

    public init(format: AudioOutputFormat = .wav, compressionLevel: Double? = nil, bitrateMode: AudioBitrateMode? = nil)
    {
        self.format = format
        self.compressionLevel = compressionLevel
        self.bitrateMode = bitrateMode
    }

    private enum CodingKeys: String, CodingKey { case format, compressionLevel, bitrateMode }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        format = try c.decodeIfPresent(AudioOutputFormat.self, forKey: .format) ?? .wav
        compressionLevel = try c.decodeIfPresent(Double.self, forKey: .compressionLevel)
        bitrateMode = try c.decodeIfPresent(AudioBitrateMode.self, forKey: .bitrateMode)
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
    /// Chunk sizes and pauses (the Contracts chunker's options).
    public var chunking: ChunkerOptions
    /// How notes are read (`BookText`'s notes mode name: `skip` or `end`).
    public var notesMode: String
    /// Version of the text normalisation (`BookText`) that produced the spoken text.
    public var normalisationVersion: Int

    public init(
        voice: VoiceSettings, encoding: AudioEncoding = AudioEncoding(), chunking: ChunkerOptions = ChunkerOptions(),
        notesMode: String = "skip", normalisationVersion: Int = 1
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
        chunking = try c.decodeIfPresent(ChunkerOptions.self, forKey: .chunking) ?? ChunkerOptions()
        notesMode = try c.decodeIfPresent(String.self, forKey: .notesMode) ?? "skip"
        normalisationVersion = try c.decodeIfPresent(Int.self, forKey: .normalisationVersion) ?? 1
    }

    /// SHA-256 of the settings' canonical JSON (sorted keys): what the manifest compares on resume.
    public var fingerprint: String {
        SHA256.hex(Array(CanonicalJSON.encode(self)))
    }
}
