import Contracts
import Foundation

/// The track number of a finished section file, set again when the files of a folder are numbered
/// anew (a later run adds sections to the folder: `TrackNumbering`), without making the audio again.
///
/// The new value replaces the old where it stands, written as the file's writer wrote it: the FLAC
/// and Ogg `TRACKNUMBER` comment (its key as spelled), LAME's ID3v2 `TRCK` frame (Latin-1), the WAV
/// `LIST`/`INFO` `ITRK` chunk (as libsndfile writes it: NUL-terminated, even length). So a file
/// numbered anew has the bytes the same section made afresh with that number has (Ogg files too:
/// their stream serial follows their headers, `CoverArt.rewriteOgg`). Every other byte is copied as it is; the edited
/// file is written beside it and renamed over it, as `CoverArt` does.
package enum TrackNumberTag {
    /// Sets the track number of the `format` file at `path` to `track` ("3/12").
    ///
    /// - Throws: `TagEditingError.malformed` when the file is not laid out as its format says (or a WAV file's
    ///   tags come after its audio), `TagEditingError.system` or `.unusable` when reading or writing fails.
    package static func set(_ track: String, format: AudioFormat, inFileAt path: String) throws {
        try CoverArt.replaceInPlace(path, temporarySuffix: ".track.part") { temp in
            switch format {
            case .flac:
                try FLACMetadata.rewrite(from: path, to: temp) { blocks in
                    try blocks.map { block in
                        guard block.type == FLACMetadata.BlockType.vorbisComment.rawValue else { return block }
                        let body = try VorbisCommentPacket.editedBlock(
                            Array(block.body), values: [(VorbisCommentPacket.trackKey, track)])
                        return (block.type, body[...])
                    }
                }
            case .ogg, .opus:
                try CoverArt.rewrite(path, to: temp) { reader, writer in
                    try CoverArt.rewriteOgg(reader: reader, writer: writer) {
                        try VorbisCommentPacket.edited(
                            $0, picture: nil, values: [(VorbisCommentPacket.trackKey, track)])
                    }
                }
            case .mp3:
                var info = stat()
                guard stat(path, &info) == 0 else { throw TagEditingError.system(path: path, code: errno) }
                try CoverArt.rewrite(path, to: temp) { reader, writer in
                    try setMP3(track, reader: reader, writer: writer, fileSize: Int(info.st_size))
                }
            case .wav:
                try CoverArt.rewrite(path, to: temp) { reader, writer in
                    try setWAV(track, reader: reader, writer: writer)
                }
            }
            return true
        }
    }

    /// MP3: the ID3v2 tag at the start with its `TRCK` frame holding `track` in Latin-1, where it
    /// stands (after the other frames when there is none), and the ID3v1.1 tag LAME ends the file with
    /// holding its number (`ID3v1.track`). `fileSize`: the file's size.
    static func setMP3(_ track: String, reader: BufferedFileReader, writer: BufferedFileWriter, fileSize: Int) throws {
        let header = try reader.read(ID3v2.headerBytes)
        guard let length = ID3v2.tagLength(header: header) else {
            throw TagEditingError.malformed(reason: "has no ID3v2 tag")
        }
        guard length <= CoverArt.maxHeadBytes else {
            throw TagEditingError.malformed(reason: "has an ID3v2 tag over 64 MB")
        }
        let tag = header + (try reader.read(length - header.count))
        guard tag.count == length else { throw TagEditingError.malformed(reason: "has a truncated ID3v2 tag") }
        try writer.write(try ID3v2.tag(tag, settingLatin1: "TRCK", to: track))
        let rest = fileSize - length
        guard rest >= ID3v1.bytes else { return try reader.copyRest(to: writer) }
        try reader.copy(rest - ID3v1.bytes, to: writer)
        try writer.write(ID3v1.setting(track, in: try reader.read(ID3v1.bytes)))
        try reader.copyRest(to: writer)
    }

    /// The ID3v1 tag LAME ends an MP3 file with: 128 bytes from "TAG"; in version 1.1 a zero byte
    /// and the track number (one byte) end its comment field (id3.org, "ID3v1").
    enum ID3v1 {
        static let bytes = 128

        /// `tag` with the track number of `track` ("3/12" → 3; 0, none, outside 1–255, as LAME
        /// writes it); `tag` as it is when it is not an ID3v1 tag or its comment fills the field.
        static func setting(_ track: String, in tag: [UInt8]) -> [UInt8] {
            guard tag.count == bytes, tag.starts(with: Array("TAG".utf8)), tag[125] == 0 else { return tag }
            let number = Int(track.prefix { $0 != "/" }) ?? 0
            var out = tag
            out[126] = (1...255).contains(number) ? UInt8(number) : 0
            return out
        }
    }

    /// The most bytes of a WAV file read before its audio (`fmt `, `LIST` and the like).
    static let maxWAVHeadBytes = 1 << 20

    /// WAV: the `ITRK` chunk of the `LIST`/`INFO` chunk before the audio set to `track` (added when
    /// there is none), the sizes of `LIST` and `RIFF` following; the audio copied as it is.
    static func setWAV(_ track: String, reader: BufferedFileReader, writer: BufferedFileWriter) throws {
        let riff = try reader.read(12)
        guard riff.count == 12, riff.starts(with: Array("RIFF".utf8)), Array(riff[8..<12]) == Array("WAVE".utf8)
        else { throw TagEditingError.malformed(reason: "is not a WAV file") }
        var chunks: [(id: [UInt8], body: [UInt8])] = []
        var dataHeader: [UInt8] = []
        var read = 12
        while true {
            let header = try reader.read(8)
            guard header.count == 8 else { throw TagEditingError.malformed(reason: "has no audio chunk") }
            if header.starts(with: Array("data".utf8)) {
                dataHeader = header
                break
            }
            let size = Int(OggPage.littleEndianValue(header[4..<8]))
            read += 8 + size + size % 2
            guard read <= maxWAVHeadBytes else {
                throw TagEditingError.malformed(reason: "has over 1 MB before its audio")
            }
            let body = try reader.read(size + size % 2)
            guard body.count == size + size % 2 else { throw TagEditingError.malformed(reason: "ends inside a chunk") }
            chunks.append((Array(header[0..<4]), Array(body.prefix(size))))
        }
        guard
            let list = chunks.firstIndex(where: {
                $0.id == Array("LIST".utf8) && $0.body.starts(with: Array("INFO".utf8))
            })
        else { throw TagEditingError.malformed(reason: "has no tags before its audio") }
        let oldSize = chunks[list].body.count
        chunks[list].body = try infoList(chunks[list].body, settingTrack: track)
        let riffSize = Int(OggPage.littleEndianValue(riff[4..<8])) + chunks[list].body.count - oldSize
        try writer.write(Array("RIFF".utf8) + OggPage.littleEndian(UInt64(riffSize), bytes: 4) + Array("WAVE".utf8))
        for chunk in chunks {
            try writer.write(chunk.id + OggPage.littleEndian(UInt64(chunk.body.count), bytes: 4) + chunk.body)
            if chunk.body.count % 2 == 1 { try writer.write([0]) }
        }
        try writer.write(dataHeader)
        try reader.copyRest(to: writer)
    }

    /// A `LIST` chunk's body (`INFO` and sub-chunks) with its `ITRK` holding `track`.
    static func infoList(_ body: [UInt8], settingTrack track: String) throws -> [UInt8] {
        // As libsndfile writes a string: NUL-terminated, padded to an even length, the size counting both.
        var value = Array(track.utf8) + [0]
        if value.count % 2 == 1 { value.append(0) }
        let itrk = Array("ITRK".utf8) + OggPage.littleEndian(UInt64(value.count), bytes: 4) + value
        var out = Array("INFO".utf8)
        var at = 4
        var replaced = false
        while at + 8 <= body.count {
            let id = Array(body[at..<at + 4])
            let size = Int(OggPage.littleEndianValue(body[at + 4..<at + 8]))
            let end = at + 8 + size + size % 2
            guard end <= body.count + size % 2 else {
                throw TagEditingError.malformed(reason: "has a truncated tag chunk")
            }
            if id == Array("ITRK".utf8) {
                if !replaced { out += itrk }
                replaced = true
            } else {
                out += body[at..<min(end, body.count)]
            }
            at = end
        }
        return replaced ? out : out + itrk
    }
}
