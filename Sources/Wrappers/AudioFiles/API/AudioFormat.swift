import Contracts
import Foundation

extension AudioFormat {
    /// The sample rate a file of this format gets for PCM at `inputRate`: the input rate, except
    /// for Opus, which takes the smallest rate it supports at or above the input (else 48 kHz).
    public func fileSampleRate(forInput inputRate: Int) -> Int {
        guard self == .opus else { return inputRate }
        return [8_000, 12_000, 16_000, 24_000, 48_000].first { $0 >= inputRate } ?? 48_000
    }
}

/// How the writer puts `AudioTags` (Contracts) into a file (`sf_set_string`).
///
/// MP3 (LAME's ID3 tags through libsndfile) stores Latin-1 only: the writer transliterates what it
/// can (accents stripped from letters outside Latin-1, typographic quotes and dashes made plain)
/// and drops characters it cannot represent; see `AudioTags.latin1(_:limit:)`. The ID3v2 frames
/// keep the whole text (LAME's ID3v1 tag, read by old players, its first 30 bytes).
extension AudioTags {
    /// The fields with their names, in a fixed order.
    var fields: [(name: String, value: String?)] {
        [
            ("title", title), ("album", album), ("artist", artist), ("track number", trackNumber),
            ("genre", genre), ("date", date), ("comment", comment),
        ]
    }

    /// `text` as Latin-1 for MP3 tags: characters outside Latin-1 lose their accents (ő → o) or
    /// become their plain ASCII form (’ → ', “ → ", — → -, … → ...) or are dropped; the result is
    /// cut at `limit` bytes.
    public static func latin1(_ text: String, limit: Int) -> [UInt8] {
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
    /// Sample rate of the file.
    public var sampleRate: Int
    /// Frames (samples per channel) as libsndfile reports them. For MP3 this includes the encoder's
    /// padding, so it is a little more than what was written.
    public var frames: Int
    /// Channels (1 for the files epub2audio writes).
    public var channels: Int
    /// `frames / sampleRate`, in seconds.
    public var duration: Double
    /// The format, when it is one epub2audio writes.
    public var format: AudioFormat?

    /// What a file contains.
    public init(sampleRate: Int, frames: Int, channels: Int, duration: Double, format: AudioFormat?) {
        self.sampleRate = sampleRate
        self.frames = frames
        self.channels = channels
        self.duration = duration
        self.format = format
    }
}
