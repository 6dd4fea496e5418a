import Foundation

/// An audio file format epub2audio can write (through libsndfile).
public enum AudioFormat: String, CaseIterable, Codable, Sendable {
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

    /// File name extension, without the dot.
    public var fileExtension: String { rawValue }

    /// Whether `SFC_SET_BITRATE_MODE` applies to this format (MP3 only: libsndfile 1.2.0 refuses
    /// it for Opus).
    public var supportsBitrateMode: Bool { self == .mp3 }

    /// Whether `SFC_SET_COMPRESSION_LEVEL` applies to this format.
    public var supportsCompressionLevel: Bool { self != .wav }

    /// The sample rate a file of this format gets for PCM at `inputRate`: the input rate, except
    /// for Opus, which takes the smallest rate it supports at or above the input (else 48 kHz).
    public func fileSampleRate(forInput inputRate: Int) -> Int {
        guard self == .opus else { return inputRate }
        return [8_000, 12_000, 16_000, 24_000, 48_000].first { $0 >= inputRate } ?? 48_000
    }
}

/// How libsndfile spends bits on lossy formats (`SFC_SET_BITRATE_MODE`).
public enum BitrateMode: String, CaseIterable, Codable, Sendable {
    case constant, average, variable
}

/// A format plus its encoder settings.
public struct AudioEncoding: Hashable, Codable, Sendable {
    public var format: AudioFormat
    /// `SFC_SET_COMPRESSION_LEVEL`, 0...1: 0 is the highest quality (largest file), 1 the smallest
    /// file. For FLAC it is the lossless compression effort; for Vorbis, Opus and MP3 it picks the
    /// quality or bitrate. `nil` keeps libsndfile's default.
    public var compressionLevel: Double?
    /// `SFC_SET_BITRATE_MODE`, MP3 only; `nil` keeps libsndfile's default. Measured here with
    /// constant bitrate at 22,050 Hz: level 0 is about 160 kbit/s, 0.9 about 24 kbit/s; level 1.0
    /// is refused by libsndfile 1.2.0 for MP3.
    public var bitrateMode: BitrateMode?

    public init(format: AudioFormat, compressionLevel: Double? = nil, bitrateMode: BitrateMode? = nil) {
        self.format = format
        self.compressionLevel = compressionLevel
        self.bitrateMode = bitrateMode
    }
}

/// Metadata written into an audio file (`sf_set_string`), before any audio.
///
/// WAV, FLAC, Vorbis and Opus store UTF-8 and keep every field. MP3 (LAME's ID3 tags through
/// libsndfile) stores Latin-1 only and cuts text fields at 30 bytes: the writer transliterates
/// what it can (accents stripped from letters outside Latin-1, typographic quotes and dashes made
/// plain), drops characters it cannot represent, and truncates at 30; see `AudioTags.latin1(_:limit:)`.
public struct AudioTags: Hashable, Codable, Sendable {
    public var title: String?
    public var album: String?
    public var artist: String?
    /// Track number as text ("3" or "3/12").
    public var trackNumber: String?
    public var genre: String?
    /// Date as text, usually a year or an ISO 8601 date.
    public var date: String?
    public var comment: String?

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
    public var isEmpty: Bool { fields.allSatisfy { $0.value == nil } }

    /// The fields with their names, in a fixed order.
    var fields: [(name: String, value: String?)] {
        [
            ("title", title), ("album", album), ("artist", artist), ("track number", trackNumber),
            ("genre", genre), ("date", date), ("comment", comment),
        ]
    }

    /// `text` as Latin-1 for MP3 tags: characters outside Latin-1 lose their accents (ő → o) or
    /// become their plain ASCII form (’ → ', “ → ", — → -, … → ...) or are dropped; the result is
    /// cut at `limit` bytes (ID3v1 keeps 30).
    public static func latin1(_ text: String, limit: Int = 30) -> [UInt8] {
        var bytes: [UInt8] = []
        for character in text {
            let scalars = character.unicodeScalars
            if scalars.count == 1, let value = scalars.first?.value, value <= 0xFF {
                bytes.append(UInt8(value))
            } else if let plain = plainForms[character] {
                bytes += Array(plain.utf8)
            } else {
                // Keep the base letters of a decomposed character when they are Latin-1 (ő → o).
                let decomposed = String(character).decomposedStringWithCanonicalMapping.unicodeScalars
                let base = decomposed.filter { $0.value <= 0xFF }
                if let first = decomposed.first, first.value <= 0xFF { bytes += base.map { UInt8($0.value) } }
            }
            if bytes.count >= limit { break }
        }
        return Array(bytes.prefix(limit))
    }

    private static let plainForms: [Character: String] = [
        "\u{2018}": "'", "\u{2019}": "'", "\u{201A}": "'", "\u{201C}": "\"", "\u{201D}": "\"", "\u{201E}": "\"",
        "\u{2013}": "-", "\u{2014}": "-", "\u{2026}": "...", "\u{2022}": "*", "\u{00A0}": " ", "\u{2009}": " ",
        "\u{202F}": " ", "\u{0152}": "OE", "\u{0153}": "oe", "\u{0141}": "L", "\u{0142}": "l", "\u{2122}": "TM",
    ]
}

/// What a written audio file contains, read back with libsndfile.
public struct AudioFileInfo: Hashable, Sendable {
    public var sampleRate: Int
    /// Frames (samples per channel) as libsndfile reports them. For MP3 this includes the encoder's
    /// padding, so it is a little more than what was written.
    public var frames: Int
    public var channels: Int
    /// `frames / sampleRate`, in seconds.
    public var duration: Double
    /// The format, when it is one epub2audio writes.
    public var format: AudioFormat?

    public init(sampleRate: Int, frames: Int, channels: Int, duration: Double, format: AudioFormat?) {
        self.sampleRate = sampleRate
        self.frames = frames
        self.channels = channels
        self.duration = duration
        self.format = format
    }
}
