/// An audio file format of the section files: one type from the `--format` flag through the request,
/// the worker job and the manifest to the writer (the AudioFiles wrapper writes it with libsndfile).
///
/// Decoding an unknown name throws: a format is never guessed.
public enum AudioFormat: String, Hashable, Sendable, Codable, CaseIterable {
    /// RIFF WAVE, 16-bit PCM. Byte-identical for identical PCM and tags.
    case wav
    /// FLAC, lossless, 16-bit. Byte-identical for identical PCM and tags.
    case flac
    /// Ogg Vorbis. Not byte-identical between runs: libsndfile picks a random Ogg stream serial.
    case ogg
    /// Ogg Opus, at 8, 12, 16, 24 or 48 kHz only: other rates are resampled (22,050 Hz → 24 kHz).
    /// Not byte-identical between runs (random Ogg stream serial).
    case opus
    /// MPEG-1/2 Layer III (LAME). Tags are Latin-1 only (see `AudioTags`).
    case mp3

    /// The file name extension, without the dot.
    public var fileExtension: String { rawValue }

    /// Whether a bitrate mode applies to this format (MP3 only: libsndfile 1.2.0 refuses it for Opus).
    public var supportsBitrateMode: Bool { self == .mp3 }

    /// Whether a compression level applies to this format (every one but WAV).
    public var supportsCompressionLevel: Bool { self != .wav }
}

/// How a lossy encoder spends bits (MP3 only; libsndfile's `SFC_SET_BITRATE_MODE`).
public enum BitrateMode: String, Hashable, Sendable, Codable, CaseIterable {
    /// The same bitrate throughout.
    case constant
    /// An average bitrate over the file.
    case average
    /// The bitrate follows the signal.
    case variable
}

/// How the audio is encoded: the format plus the knobs that change the bytes.
///
/// Part of the conversion settings the manifest fingerprints; missing keys decode to the defaults,
/// so older manifests stay readable, but an unknown format or bitrate mode is an error.
public struct AudioEncoding: Hashable, Sendable, Codable {
    /// The container and codec.
    public var format: AudioFormat
    /// libsndfile's compression level (`SFC_SET_COMPRESSION_LEVEL`), 0...1: 0 is the highest quality
    /// (largest file), 1 the smallest file. For FLAC it is the lossless compression effort; for
    /// Vorbis, Opus and MP3 it picks the quality or bitrate. nil keeps the writer's default; not for WAV.
    public var compressionLevel: Double?
    /// MP3 only; nil keeps the writer's default. Measured with constant bitrate at 22,050 Hz: level 0
    /// is about 160 kbit/s, 0.9 about 24 kbit/s; level 1.0 is refused by libsndfile 1.2.0 for MP3.
    public var bitrateMode: BitrateMode?

    /// An encoding; WAV with the writer's defaults unless told otherwise.
    public init(format: AudioFormat = .wav, compressionLevel: Double? = nil, bitrateMode: BitrateMode? = nil) {
        self.format = format
        self.compressionLevel = compressionLevel
        self.bitrateMode = bitrateMode
    }

    private enum CodingKeys: String, CodingKey { case format, compressionLevel, bitrateMode }

    /// Decodes an encoding; a missing key takes its default, an unknown value throws.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        format = try c.decodeIfPresent(AudioFormat.self, forKey: .format) ?? .wav
        compressionLevel = try c.decodeIfPresent(Double.self, forKey: .compressionLevel)
        bitrateMode = try c.decodeIfPresent(BitrateMode.self, forKey: .bitrateMode)
    }
}

/// Metadata written into an audio file before any audio: what a section file is tagged with, from
/// the conversion through the worker job to the writer.
///
/// WAV, FLAC, Vorbis and Opus keep every field as UTF-8; MP3 (ID3 through libsndfile) keeps Latin-1
/// only, cut at 30 bytes (the AudioFiles writer transliterates). A nil or empty field is not written.
public struct AudioTags: Hashable, Sendable, Codable {
    /// The section title.
    public var title: String?
    /// The book title.
    public var album: String?
    /// The authors.
    public var artist: String?
    /// Track number as text ("3" or "3/12").
    public var trackNumber: String?
    /// "Audiobook" for section files.
    public var genre: String?
    /// Date as text, usually a year or an ISO 8601 date.
    public var date: String?
    /// Free text.
    public var comment: String?

    /// Tags with the given fields; the others are not written.
    public init(
        title: String? = nil, album: String? = nil, artist: String? = nil, trackNumber: String? = nil,
        genre: String? = nil, date: String? = nil, comment: String? = nil
    ) {
        self.title = title
        self.album = album
        self.artist = artist
        self.trackNumber = trackNumber
        self.genre = genre
        self.date = date
        self.comment = comment
    }

    /// Whether no field is set.
    public var isEmpty: Bool {
        [title, album, artist, trackNumber, genre, date, comment].allSatisfy { $0 == nil }
    }
}
